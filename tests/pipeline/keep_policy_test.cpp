// Keep policies (Config::keep) through the whole dedup job, for every method: on a
// corpus of planted clusters whose members differ in length and tie, in batches smaller
// than a cluster's spread, the kept records, the removed list and the clusters file are
// exactly those the policy names (ties to the first in input order).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/pipeline.hpp"
#include "support/files.hpp"
#include "host/core/keep_policy.hpp"
#include "support/planted_clusters.hpp"

namespace gpudedup {
namespace {

using test_support::read_file;

const KeepPolicy policies[] = {KeepPolicy::first, KeepPolicy::longest, KeepPolicy::shortest, KeepPolicy::none};

/// A config of `method` that finds the planted clusters and nothing else.
Config config_for(const std::string& method, KeepPolicy keep) {
  Config c;
  c.method = method;
  c.backend = Backend::cpu;
  c.keep = keep;
  // One own word in ~90 flips a handful of the 64 bits; unrelated texts differ in ~32.
  if (method == "simhash") c.simhash.hamming = 12;
  return c;
}

/// The ids of a JSONL file of kept records, in order.
std::vector<std::string> ids_of(const std::string& jsonl) {
  std::vector<std::string> ids;
  std::istringstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    const size_t open = line.find("\"id\": \"") + 7;
    ids.push_back(line.substr(open, line.find('"', open) - open));
  }
  return ids;
}

TEST(KeepPolicy, ThePlantedCorpusTellsThePoliciesApart) {
  const auto docs = test_support::planted_corpus(7, 12, 20);
  std::vector<std::string> answers;
  for (KeepPolicy keep : policies) answers.push_back(test_support::planted_answer(docs, keep).removed_tsv);
  for (size_t i = 0; i < answers.size(); ++i)
    for (size_t j = 0; j < i; ++j) EXPECT_NE(answers[i], answers[j]) << i << " " << j;
}

TEST(KeepPolicy, EveryMethodKeepsWhatThePolicyNames) {
  test_support::TempDir dir;
  const auto docs = test_support::planted_corpus(7, 12, 20);
  const std::string corpus = dir.write("corpus.jsonl", test_support::planted_jsonl(docs));
  for (const std::string method : {"minhash", "exact", "simhash", "bloom"}) {
    for (KeepPolicy keep : policies) {
      SCOPED_TRACE(method + " --keep " + to_string(keep));
      DedupJob job;
      job.input.paths = {corpus};
      job.input.id_field = "id";
      job.config = config_for(method, keep);
      job.batch_size = 8;  // clusters span batches
      job.outputs.output = dir.path("kept.jsonl");
      job.outputs.removed = dir.path("removed.tsv");
      job.outputs.clusters = dir.path("clusters.jsonl");
      const DedupSummary s = run_dedup(job);
      const auto want = test_support::planted_answer(docs, keep);
      EXPECT_EQ(read_file(job.outputs.clusters), want.clusters_jsonl);
      EXPECT_EQ(read_file(job.outputs.removed), want.removed_tsv);
      EXPECT_EQ(ids_of(read_file(job.outputs.output)), want.kept);
      EXPECT_EQ(s.kept, want.kept.size());
      EXPECT_EQ(s.kept + s.result.removed, docs.size());
    }
  }
}

/// A result as methods give it: clusters {0, 2, 3} and {1, 4}, document 5 alone.
DedupResult labelled() {
  DedupResult r;
  r.documents = 6;
  r.representative = {0, 1, 0, 0, 1, 5};
  r.removed = 3;
  r.clusters = 2;
  return r;
}

TEST(KeepPolicy, LengthsPickTheMemberAndTiesGoToTheFirst) {
  const std::vector<uint64_t> bytes = {10, 7, 30, 30, 7, 99};
  DedupResult longest = labelled();
  detail::apply_keep_policy(longest, KeepPolicy::longest, bytes);
  EXPECT_EQ(longest.representative, (std::vector<doc_number>{2, 1, 2, 2, 1, 5}));
  DedupResult shortest = labelled();
  detail::apply_keep_policy(shortest, KeepPolicy::shortest, bytes);
  EXPECT_EQ(shortest.representative, (std::vector<doc_number>{0, 1, 0, 0, 1, 5}));
  for (const DedupResult* r : {&longest, &shortest}) {
    EXPECT_EQ(r->removed, 3u);
    EXPECT_EQ(r->clusters, 2u);
    EXPECT_TRUE(r->representatives_kept);
  }
}

TEST(KeepPolicy, NoneRemovesEveryMemberAndNamesAnotherOne) {
  DedupResult r = labelled();
  detail::apply_keep_policy(r, KeepPolicy::none, {});
  EXPECT_EQ(r.removed, 5u);
  EXPECT_FALSE(r.representatives_kept);
  std::vector<std::pair<uint32_t, uint32_t>> removed;
  for (const auto& x : detail::removed_documents(r)) removed.emplace_back(x.document, x.duplicate_of);
  EXPECT_EQ(removed, (std::vector<std::pair<uint32_t, uint32_t>>{{0, 2}, {1, 4}, {2, 0}, {3, 0}, {4, 1}}));
}

TEST(KeepPolicy, LengthPoliciesRefuseMissingLengths) {
  DedupResult r = labelled();
  EXPECT_THROW(detail::apply_keep_policy(r, KeepPolicy::longest, {1, 2}), usage_error);
}

}  // namespace
}  // namespace gpudedup

// 64-bit document numbers: a run numbered from Config::first_document_number (here
// 2^32 - 5, so that most of a small corpus lies past 2^32) gives exactly the answer of
// the run from 0 shifted by that number, for every method and through the whole job
// (removed list, pairs, clusters and stats of record-number ids); a run never wraps its
// 32-bit local indices.
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "gpudedup/document_number.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/keep_policy.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/pipeline.hpp"
#include "host/core/run_numbering.hpp"
#include "support/files.hpp"
#include "support/planted_clusters.hpp"

namespace gpudedup {
namespace {

using test_support::read_file;

constexpr doc_number offset = (uint64_t(1) << 32) - 5;

Config config_for(const std::string& method, doc_number first) {
  Config c;
  c.method = method;
  c.backend = Backend::cpu;
  c.first_document_number = first;
  if (method == "simhash") c.simhash.hamming = 12;  // one own word in ~90 flips a few bits
  if (method == "bloom") c.bloom.bits = 2048;        // sized here: no prepass to size it
  return c;
}

/// The planted corpus's texts, in two batches (numbers must continue across batches).
std::vector<DocumentBatch> planted_batches() {
  const auto docs = test_support::planted_corpus(11, 10, 15);
  std::vector<DocumentBatch> batches(2);
  for (size_t i = 0; i < docs.size(); ++i) batches[i < docs.size() / 2 ? 0 : 1].add(docs[i].text);
  return batches;
}

DedupResult run_method(const std::string& method, doc_number first, std::vector<uint64_t>* added = nullptr) {
  auto m = make_method(config_for(method, first));
  for (const auto& b : planted_batches()) {
    const uint64_t at = m->add(b);
    if (added) added->push_back(at);
  }
  return m->finish();
}

TEST(DocumentNumbers, EveryMethodNumbersFromTheFirstDocumentNumber) {
  for (const std::string method : {"minhash", "exact", "simhash", "bloom"}) {
    SCOPED_TRACE(method);
    std::vector<uint64_t> at0, at;
    const DedupResult base = run_method(method, 0, &at0);
    const DedupResult r = run_method(method, offset, &at);
    ASSERT_GT(base.clusters, 3u);  // the planted clusters are found
    EXPECT_EQ(base.first_document, 0u);
    EXPECT_EQ(r.first_document, offset);
    ASSERT_EQ(at.size(), at0.size());
    for (size_t i = 0; i < at.size(); ++i) EXPECT_EQ(at[i], at0[i] + offset);
    EXPECT_EQ(r.documents, base.documents);
    EXPECT_EQ(r.clusters, base.clusters);
    EXPECT_EQ(r.removed, base.removed);
    ASSERT_EQ(r.pairs.size(), base.pairs.size());
    bool past_2_32 = false;
    for (size_t i = 0; i < r.pairs.size(); ++i) {
      EXPECT_EQ(r.pairs[i].a, base.pairs[i].a + offset);
      EXPECT_EQ(r.pairs[i].b, base.pairs[i].b + offset);
      EXPECT_EQ(r.pairs[i].similarity, base.pairs[i].similarity);
      past_2_32 |= r.pairs[i].b > UINT32_MAX;
    }
    EXPECT_TRUE(past_2_32) << "no pair names a document past 2^32";
    ASSERT_EQ(r.representative.size(), base.representative.size());
    for (size_t d = 0; d < r.representative.size(); ++d)
      EXPECT_EQ(r.representative[d], base.representative[d] + offset) << d;
    EXPECT_EQ(r.pair_distances, base.pair_distances);
  }
}

TEST(DocumentNumbers, TheKeepPolicyChoosesTheSameMembers) {
  const auto docs = test_support::planted_corpus(11, 10, 15);
  std::vector<uint64_t> lengths;
  for (const auto& d : docs) lengths.push_back(d.text.size());
  for (KeepPolicy keep : {KeepPolicy::longest, KeepPolicy::shortest, KeepPolicy::none}) {
    SCOPED_TRACE(to_string(keep));
    DedupResult base = run_method("minhash", 0), r = run_method("minhash", offset);
    apply_keep_policy(base, keep, lengths);
    apply_keep_policy(r, keep, lengths);
    EXPECT_EQ(r.removed, base.removed);
    EXPECT_EQ(r.representatives_kept, base.representatives_kept);
    for (size_t d = 0; d < r.representative.size(); ++d)
      EXPECT_EQ(r.representative[d], base.representative[d] + offset) << d;
  }
}

/// `text` with every run of digits (in ids, TSV columns) replaced by its value plus `by`.
std::string shift_numbers(const std::string& text, const std::regex& number, uint64_t by) {
  std::string out;
  auto end = std::sregex_iterator();
  size_t last = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number); it != end; ++it) {
    const auto& m = *it;
    out += text.substr(last, size_t(m.position(1)) - last);
    out += std::to_string(std::stoull(m.str(1)) + by);
    last = size_t(m.position(1) + m.length(1));
  }
  return out + text.substr(last);
}

TEST(DocumentNumbers, TheJobsOutputsAreTheRunFromZeroShifted) {
  test_support::TempDir dir;
  // No id field: each id is the record's number, which the offset shifts too.
  std::string jsonl;
  for (const auto& d : test_support::planted_corpus(11, 10, 15)) jsonl += "{\"text\": \"" + d.text + "\"}\n";
  const std::string corpus = dir.write("corpus.jsonl", jsonl);
  auto run = [&](doc_number first, const std::string& tag) {
    DedupJob job;
    job.input.paths = {corpus};
    job.config = config_for("minhash", first);
    job.config.keep = KeepPolicy::longest;
    job.config.all_pairs = true;
    job.batch_size = 7;
    job.outputs.output = dir.path(tag + ".jsonl");
    job.outputs.removed = dir.path(tag + ".removed.tsv");
    job.outputs.pairs = dir.path(tag + ".pairs.tsv");
    job.outputs.clusters = dir.path(tag + ".clusters.jsonl");
    job.outputs.stats = dir.path(tag + ".stats.json");
    return run_dedup(job);
  };
  const DedupSummary base = run(0, "zero"), s = run(offset, "offset");
  EXPECT_EQ(s.result.first_document, offset);
  EXPECT_EQ(read_file(dir.path("offset.jsonl")), read_file(dir.path("zero.jsonl")));
  const std::regex tsv_id("(?:^|\\t|\\n)(\\d+)(?=\\t|\\n|$)");  // whole fields: ids, not similarities
  const std::regex quoted_id("\"(\\d+)\"");
  const std::string removed = read_file(dir.path("offset.removed.tsv"));
  ASSERT_FALSE(removed.empty());
  EXPECT_NE(removed.find("429496"), std::string::npos);
  EXPECT_EQ(removed, shift_numbers(read_file(dir.path("zero.removed.tsv")), tsv_id, offset));
  EXPECT_EQ(read_file(dir.path("offset.pairs.tsv")), shift_numbers(read_file(dir.path("zero.pairs.tsv")), tsv_id, offset));
  EXPECT_EQ(read_file(dir.path("offset.clusters.jsonl")),
            shift_numbers(read_file(dir.path("zero.clusters.jsonl")), quoted_id, offset));
  const std::string stats = read_file(dir.path("offset.stats.json"));
  EXPECT_NE(stats.find("\"first_document_number\": 4294967291,"), std::string::npos) << stats;
  EXPECT_NE(read_file(dir.path("zero.stats.json")).find("\"first_document_number\": 0,"), std::string::npos);
  EXPECT_EQ(s.result.removed, base.result.removed);
  EXPECT_EQ(s.kept, base.kept);
}

TEST(DocumentNumbers, ARunNeverWrapsItsLocalIndices) {
  EXPECT_NO_THROW(detail::check_run_size(max_run_documents - 5, 5));
  EXPECT_NO_THROW(detail::check_run_size(0, max_run_documents));
  EXPECT_THROW(detail::check_run_size(max_run_documents - 5, 6), data_error);
  EXPECT_THROW(detail::check_run_size(0, max_run_documents + 1), data_error);
  EXPECT_THROW(detail::check_run_size(UINT64_MAX, UINT64_MAX), data_error);  // no overflow in the check
  try {
    detail::check_run_size(max_run_documents, 1);
    FAIL();
  } catch (const data_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("more than 4294967295 documents in one run"), std::string::npos) << what;
    EXPECT_NE(what.find("mpirun"), std::string::npos) << what;
  }
}

TEST(DocumentNumbers, AFirstNumberThatLeavesNoRoomForARunIsRefused) {
  Config c = config_for("minhash", UINT64_MAX - max_run_documents);
  EXPECT_NO_THROW(c.validate());
  c.first_document_number += 1;
  try {
    c.validate();
    FAIL();
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("`first_document_number` must be at most 2^64 - 2^32"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gpudedup

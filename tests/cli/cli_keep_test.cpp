// `gpudedup dedup --keep`: the program writes what the library's run_dedup() writes for
// the same Config::keep, file for file, and refuses a policy it does not know.
#include <gtest/gtest.h>

#include <string>

#include "gpudedup/pipeline.hpp"
#include "support/files.hpp"
#include "support/planted_clusters.hpp"
#include "support/program.hpp"

namespace gpudedup {
namespace {

using test_support::read_file;

TEST(CliKeep, TheProgramAndTheLibraryAgreeOnEveryPolicy) {
  test_support::TempDir dir;
  const auto docs = test_support::planted_corpus(11, 10, 15);
  const std::string corpus = dir.write("corpus.jsonl", test_support::planted_jsonl(docs));
  for (KeepPolicy keep : {KeepPolicy::first, KeepPolicy::longest, KeepPolicy::shortest, KeepPolicy::none}) {
    SCOPED_TRACE(to_string(keep));
    DedupJob job;
    job.input.paths = {corpus};
    job.input.id_field = "id";
    job.config.backend = Backend::cpu;
    job.config.keep = keep;
    job.batch_size = 8;
    job.outputs = {dir.path("lib.jsonl"), dir.path("lib.tsv"), "", dir.path("lib-clusters.jsonl"), ""};
    run_dedup(job);
    const auto r = test_support::run_cli("dedup -q --backend cpu --batch-size 8 --id-field id --keep " +
                                         std::string(to_string(keep)) + " " + corpus + " -o " +
                                         dir.path("cli.jsonl") + " --removed " + dir.path("cli.tsv") +
                                         " --clusters " + dir.path("cli-clusters.jsonl") + " --stats " +
                                         dir.path("stats.json"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(read_file(dir.path("cli.jsonl")), read_file(dir.path("lib.jsonl")));
    EXPECT_EQ(read_file(dir.path("cli.tsv")), read_file(dir.path("lib.tsv")));
    EXPECT_EQ(read_file(dir.path("cli-clusters.jsonl")), read_file(dir.path("lib-clusters.jsonl")));
    EXPECT_EQ(read_file(dir.path("cli.tsv")), test_support::planted_answer(docs, keep).removed_tsv);
    EXPECT_NE(read_file(dir.path("stats.json")).find("\"keep\": \"" + std::string(to_string(keep)) + "\""),
              std::string::npos);
  }
}

TEST(CliKeep, AnUnknownPolicyIsAUsageErrorListingThePolicies) {
  test_support::TempDir dir;
  const std::string corpus = dir.write("c.jsonl", "{\"text\": \"a\"}\n");
  const auto r = test_support::run_cli("dedup --keep last " + corpus + " -o " + dir.path("out.jsonl"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--keep must be first, longest, shortest or none, got 'last'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gpudedup

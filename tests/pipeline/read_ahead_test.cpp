// The whole job with the next batch read while the method works on one (reader_threads
// other than 1, or the method on several threads) against the job on one thread: the same outputs, counts and reports for
// every method, the same error under `strict`, and a failure in the middle of the job
// stops the reading thread instead of leaving it behind.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/pipeline.hpp"
#include "support/files.hpp"
#include "support/planted_clusters.hpp"

namespace gpudedup {
namespace {

using test_support::read_file;

/// The planted corpus with malformed records among its lines.
std::string corpus_with_bad_lines() {
  const std::string planted = test_support::planted_jsonl(test_support::planted_corpus(7, 12, 20));
  std::string out;
  size_t line = 0;
  for (size_t begin = 0; begin < planted.size();) {
    const size_t end = planted.find('\n', begin) + 1;
    out.append(planted, begin, end - begin);
    if (++line % 17 == 0) out += "{\"text\": broken\n";
    begin = end;
  }
  return out;
}

struct JobRun {
  std::string outputs;  // every output file and the counts, one string to compare
  std::vector<uint64_t> progress_bytes;  // the sketch pass's progress lines
  size_t prepass_lines = 0;
};

/// The job with its reading as `shape` sets it (parsing threads, method threads, batches).
JobRun run_job(const std::string& method, const std::string& corpus, const std::string& tag_of_shape,
               const std::function<void(DedupJob&)>& shape, test_support::TempDir& dir) {
  DedupJob job;
  job.input.paths = {corpus};
  job.input.id_field = "id";
  job.config.method = method;
  job.config.backend = Backend::cpu;
  shape(job);
  const std::string tag = method + tag_of_shape;
  job.outputs.output = dir.path(tag + ".kept.jsonl");
  job.outputs.removed = dir.path(tag + ".removed.tsv");
  job.outputs.pairs = dir.path(tag + ".pairs.tsv");
  job.outputs.clusters = dir.path(tag + ".clusters.jsonl");
  JobRun r;
  const DedupSummary s = run_dedup(job, [&](const Progress& p) {
    if (std::string(p.stage) == "sketch") r.progress_bytes.push_back(p.input_bytes);
    if (std::string(p.stage) == "prepass") ++r.prepass_lines;
  });
  r.outputs = read_file(job.outputs.output) + read_file(job.outputs.removed) + read_file(job.outputs.pairs) +
              read_file(job.outputs.clusters);
  r.outputs += "records " + std::to_string(s.input.records) + " skipped " + std::to_string(s.input.skipped) +
               " bytes " + std::to_string(s.input.bytes) + " kept " + std::to_string(s.kept) + "\n";
  for (const auto& report : s.input.reports) r.outputs += report + "\n";
  return r;
}

/// Whether the process runs under a limit on its address space (`ulimit -v`), where a
/// method on several threads does not read ahead (run_dedup.cpp, read_ahead).
bool address_space_limited() {
  rlimit space{};
  return getrlimit(RLIMIT_AS, &space) == 0 && space.rlim_cur != RLIM_INFINITY;
}

/// The job with `threads` parsing threads, in batches of 8 documents.
JobRun run_job(const std::string& method, const std::string& corpus, unsigned threads, test_support::TempDir& dir) {
  return run_job(method, corpus, std::to_string(threads), [&](DedupJob& job) {
    job.input.reader_threads = threads;
    job.input.reader_chunk_bytes = 300;  // several chunks to a batch
    job.config.threads = 1;              // reading ahead only where the parsing threads ask for it
    job.batch_size = 8;
  }, dir);
}

TEST(ReadAhead, EveryMethodGivesTheSameOutputsAsOneThread) {
  test_support::TempDir dir;
  const std::string corpus = dir.write("corpus.jsonl", corpus_with_bad_lines());
  for (const std::string method : {"minhash", "exact", "simhash", "bloom"}) {
    SCOPED_TRACE(method);
    const JobRun one = run_job(method, corpus, 1, dir);
    EXPECT_NE(one.outputs.find(":18: "), std::string::npos) << "a malformed line is reported";
    for (unsigned threads : {2u, 3u}) {
      const JobRun many = run_job(method, corpus, threads, dir);
      EXPECT_EQ(many.outputs, one.outputs) << threads << " threads";
      // A progress line per batch, its bytes never going back.
      EXPECT_EQ(many.progress_bytes.size(), one.progress_bytes.size());
      for (size_t i = 1; i < many.progress_bytes.size(); ++i)
        EXPECT_LE(many.progress_bytes[i - 1], many.progress_bytes[i]);
    }
  }
}

// One parsing thread and the method on two CPU threads: the first pass reads ahead in
// batches of overlapped_batch_bytes (a batch per progress line) instead of one batch of
// the whole corpus, with the outputs of the method on one thread, which reads no batch ahead.
TEST(ReadAhead, MethodThreadsReadAheadInSmallBatchesWithTheSameOutputs) {
  if (address_space_limited()) GTEST_SKIP() << "no reading ahead for the method's threads under ulimit -v";
  test_support::TempDir dir;
  const std::string text = corpus_with_bad_lines();
  const std::string corpus = dir.write("corpus.jsonl", text);
  constexpr size_t batch_bytes = 2048;
  for (const std::string method : {"minhash", "exact", "simhash", "bloom"}) {
    SCOPED_TRACE(method);
    auto shape = [&](int threads) {
      return [=](DedupJob& job) {
        job.input.reader_threads = 1;
        job.config.threads = threads;
        job.overlapped_batch_bytes = batch_bytes;
      };
    };
    const JobRun one = run_job(method, corpus, "m1", shape(1), dir);
    const JobRun two = run_job(method, corpus, "m2", shape(2), dir);
    // A progress line per batch (and one at the stage's end): the corpus is one batch on
    // one thread, batches of ~2 KiB on two.
    EXPECT_LE(one.progress_bytes.size(), 2u);
    EXPECT_GE(two.progress_bytes.size(), one.progress_bytes.size() + text.size() / batch_bytes / 2);
    EXPECT_EQ(two.outputs, one.outputs);
    for (size_t i = 1; i < two.progress_bytes.size(); ++i) EXPECT_LE(two.progress_bytes[i - 1], two.progress_bytes[i]);
  }
}

// SimHash's prepass (document frequencies merged batch by batch on one thread) and a job
// with overlapped_batch_bytes 0 keep the job's batches on two threads, with the same outputs.
TEST(ReadAhead, APrepassAndASettingOfZeroKeepTheJobsBatches) {
  if (address_space_limited()) GTEST_SKIP() << "no reading ahead for the method's threads under ulimit -v";
  test_support::TempDir dir;
  const std::string text = corpus_with_bad_lines();
  const std::string corpus = dir.write("corpus.jsonl", text);
  auto shape = [](int threads, size_t overlapped) {
    return [=](DedupJob& job) {
      job.input.reader_threads = 1;
      job.config.threads = threads;
      job.config.simhash.weights = SimHashWeights::tfidf;  // a prepass
      job.overlapped_batch_bytes = overlapped;
    };
  };
  const JobRun simhash_one = run_job("simhash", corpus, "p1", shape(1, 2048), dir);
  const JobRun simhash_two = run_job("simhash", corpus, "p2", shape(2, 2048), dir);
  EXPECT_GE(simhash_one.prepass_lines, 1u);
  EXPECT_EQ(simhash_two.prepass_lines, simhash_one.prepass_lines) << "the prepass keeps the job's batches";
  EXPECT_GT(simhash_two.progress_bytes.size(), simhash_one.progress_bytes.size()) << "the sketch pass reads ahead";
  EXPECT_EQ(simhash_two.outputs, simhash_one.outputs);

  const JobRun minhash_one = run_job("minhash", corpus, "z1", shape(1, 0), dir);
  const JobRun minhash_two = run_job("minhash", corpus, "z2", shape(2, 0), dir);
  EXPECT_EQ(minhash_two.progress_bytes.size(), minhash_one.progress_bytes.size()) << "0: the job's batches";
  EXPECT_EQ(minhash_two.outputs, minhash_one.outputs);
}

TEST(ReadAhead, StrictFailsWithTheSameMessage) {
  test_support::TempDir dir;
  const std::string corpus = dir.write("corpus.jsonl", corpus_with_bad_lines());
  std::vector<std::string> messages;
  for (unsigned threads : {1u, 2u}) {
    DedupJob job;
    job.input.paths = {corpus};
    job.input.strict = true;
    job.input.reader_threads = threads;
    job.batch_size = 4;
    try {
      run_dedup(job);
      ADD_FAILURE() << "strict run accepted a malformed record";
    } catch (const data_error& e) {
      messages.push_back(e.what());
    }
  }
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[1], messages[0]);
  EXPECT_NE(messages[0].find("corpus.jsonl:18:"), std::string::npos) << messages[0];
}

TEST(ReadAhead, AFailureWhileSketchingStopsTheReader) {
  test_support::TempDir dir;
  const std::string corpus = dir.write("corpus.jsonl", corpus_with_bad_lines());
  DedupJob job;
  job.input.paths = {corpus};
  job.input.reader_threads = 2;
  job.batch_size = 2;
  int batches = 0;
  EXPECT_THROW(run_dedup(job,
                         [&](const Progress& p) {
                           if (std::string(p.stage) == "sketch" && ++batches == 3) throw std::runtime_error("stop");
                         }),
               std::runtime_error);
  EXPECT_EQ(batches, 3);
}

}  // namespace
}  // namespace gpudedup

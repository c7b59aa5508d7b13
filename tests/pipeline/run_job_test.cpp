// run_job(), the one driver body of the dedup job's routes, over a source of documents in
// memory: it feeds, finishes and settles the method, asks the route for its outputs after
// the result, writes the planted answer through the tail, hands the method the source's
// text replay, and a source that fails leaves no output. A source's own steps (as an MPI
// rank gives them): its finish in place of the method's, the result it names written,
// and its point before the commit, reached with every output written and none committed.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"
#include "host/pipeline/run_job.hpp"
#include "support/files.hpp"
#include "support/near_threshold.hpp"
#include "support/planted_clusters.hpp"

namespace gpudedup::detail {
namespace {

using test_support::read_file;

/// What the driver asked of a source (which run_job() destroys before it returns).
struct SourceLog {
  std::vector<std::string> calls;
  bool fail_feed = false;
  /// The source gives its own finish(): the method's result kept aside as written_result(),
  /// s.result holding only its counts (as an MPI rank's summary does).
  bool own_finish = false;
  /// The source's before_commit(): records whether the removed list was at its final path
  /// yet, and sets the total seconds to this.
  bool own_before_commit = false;
  double total_seconds = 0;
  bool removed_committed_before_commit = false;
  uint64_t texts_replayed = 0;
  uint64_t removed_when_asked = 0;
};

/// Texts in memory, fed to MinHash in batches of 8; writes what the driver asks of it to `log`.
class MemorySource final : public JobSource {
 public:
  MemorySource(SourceLog& log, DedupJob job, std::vector<std::string> ids, std::vector<std::string> texts)
      : log_(log),
        job_(std::move(job)),
        texts_(std::move(texts)),
        id_strings_(std::move(ids)),
        method_(make_method(job_.config)),
        files_(output_paths(job_.outputs), {}) {}

  DedupMethod& method() override { return *method_; }
  const DedupJob& job() const override { return job_; }
  OutputSet& files() override { return files_; }
  const char* first_stage() const override { return "sketch"; }

  void feed(DedupSummary& s, const FirstPassReport& report) override {
    log_.calls.push_back("feed");
    if (log_.fail_feed) throw data_error("memory: nothing to read");
    DocumentBatch batch;
    for (size_t i = 0; i < texts_.size(); ++i) {
      batch.add(texts_[i]);
      ids_.add(id_strings_[i]);
      if (batch.size() == 8 || i + 1 == texts_.size()) {
        method_->add(batch, MetadataBatch{});
        batch.clear();
        if (report) report({"sketch", i + 1, texts_.size(), 0, 1});
      }
    }
    s.input.records = s.input.documents = texts_.size();
  }

  TextReplay text_replay() override {
    log_.calls.push_back("replay");
    return [this](const std::vector<uint8_t>& wanted, const std::function<void(uint64_t, std::string_view)>& text) {
      for (uint64_t d = 0; d < wanted.size(); ++d) {
        if (!wanted[d]) continue;
        ++log_.texts_replayed;
        text(d, texts_[d]);
      }
    };
  }
  void finish(DedupSummary& s) override {
    if (!log_.own_finish) return JobSource::finish(s);
    log_.calls.push_back("finish");
    written_ = method_->finish();
    apply_keep(written_, job_.config.keep, no_lengths_);
    s.result.documents = written_.documents;
    s.result.removed = written_.removed;
    s.result.clusters = written_.clusters;
    summarize_result(s, *method_);
  }
  const DedupResult& written_result(const DedupSummary& s) const override {
    return log_.own_finish ? written_ : s.result;
  }
  void before_commit(DedupSummary& s) override {
    if (!log_.own_before_commit) return;
    log_.calls.push_back("before_commit");
    log_.removed_committed_before_commit = std::filesystem::exists(job_.outputs.removed);
    s.seconds_total = log_.total_seconds;
  }

  const IdTable& ids() const override { return ids_; }
  const std::vector<uint64_t>& text_bytes() const override { return no_lengths_; }

  RouteOutputs route_outputs(const DedupSummary& s, const WrittenReport& written) override {
    log_.calls.push_back("route");
    log_.removed_when_asked = s.result.removed;
    RouteOutputs route;
    route.kept = [this, written, &s] {
      log_.calls.push_back("kept");
      written(s.kept);
    };
    return route;
  }

 private:
  SourceLog& log_;
  DedupJob job_;
  std::vector<std::string> texts_;
  std::vector<std::string> id_strings_;
  std::unique_ptr<DedupMethod> method_;
  OutputSet files_;
  IdTable ids_;
  std::vector<uint64_t> no_lengths_;
  DedupResult written_;
};

DedupJob minhash_job(const test_support::TempDir& dir) {
  DedupJob job;
  job.config.method = "minhash";
  job.config.backend = Backend::cpu;
  job.outputs.removed = dir.path("removed.tsv");
  job.outputs.clusters = dir.path("clusters.jsonl");
  return job;
}

TEST(RunJob, FeedsFinishesAndWritesThePlantedAnswerInOneOrder) {
  test_support::TempDir dir;
  const auto docs = test_support::planted_corpus(3, 8, 10);
  std::vector<std::string> ids, texts;
  for (const auto& d : docs) {
    ids.push_back(d.id);
    texts.push_back(d.text);
  }
  SourceLog log;
  std::vector<std::string> stages;
  uint64_t written = 0;
  const DedupSummary s = run_job(
      [&] { return std::make_unique<MemorySource>(log, minhash_job(dir), ids, texts); },
      [&](const Progress& p) {
        if (stages.empty() || stages.back() != p.stage) stages.push_back(p.stage);
        written = p.written;
      });
  EXPECT_EQ(log.calls, (std::vector<std::string>{"feed", "replay", "route", "kept"}));
  EXPECT_EQ(stages, (std::vector<std::string>{"sketch", "candidates", "write"}));
  EXPECT_EQ(log.removed_when_asked, s.result.removed);  // the route sees the settled result
  EXPECT_EQ(written, s.kept);
  const auto answer = test_support::planted_answer(docs, KeepPolicy::first);
  EXPECT_EQ(read_file(dir.path("removed.tsv")), answer.removed_tsv);
  EXPECT_EQ(read_file(dir.path("clusters.jsonl")), answer.clusters_jsonl);
  EXPECT_EQ(s.kept + s.result.removed, docs.size());
}

/// The planted corpus's ids and texts.
void planted_texts(const std::vector<test_support::PlantedDocument>& docs, std::vector<std::string>& ids,
                   std::vector<std::string>& texts) {
  for (const auto& d : docs) {
    ids.push_back(d.id);
    texts.push_back(d.text);
  }
}

TEST(RunJob, WritesTheResultOfTheSourcesOwnFinish) {
  // s.result holds counts only (no representatives): the side files come from
  // written_result(), and the method's finish() is the source's to call.
  test_support::TempDir dir;
  const auto docs = test_support::planted_corpus(4, 6, 10);
  std::vector<std::string> ids, texts;
  planted_texts(docs, ids, texts);
  SourceLog log;
  log.own_finish = true;
  const DedupSummary s =
      run_job([&] { return std::make_unique<MemorySource>(log, minhash_job(dir), ids, texts); }, nullptr);
  EXPECT_EQ(log.calls, (std::vector<std::string>{"feed", "finish", "route", "kept"}));
  EXPECT_TRUE(s.result.representative.empty());
  const auto answer = test_support::planted_answer(docs, KeepPolicy::first);
  EXPECT_EQ(read_file(dir.path("removed.tsv")), answer.removed_tsv);
  EXPECT_EQ(read_file(dir.path("clusters.jsonl")), answer.clusters_jsonl);
  EXPECT_EQ(s.kept + s.result.removed, docs.size());
}

TEST(RunJob, ReachesTheSourcesPointBeforeTheCommitWithNothingCommitted) {
  test_support::TempDir dir;
  const auto docs = test_support::planted_corpus(2, 5, 10);
  std::vector<std::string> ids, texts;
  planted_texts(docs, ids, texts);
  DedupJob job = minhash_job(dir);
  job.outputs.stats = dir.path("stats.json");
  SourceLog log;
  log.own_before_commit = true;
  log.total_seconds = 4321.5;  // what the source makes of the seconds (MPI: the slowest rank's)
  const DedupSummary s = run_job([&] { return std::make_unique<MemorySource>(log, job, ids, texts); }, nullptr);
  EXPECT_EQ(log.calls, (std::vector<std::string>{"feed", "replay", "route", "kept", "before_commit"}));
  EXPECT_FALSE(log.removed_committed_before_commit);
  EXPECT_TRUE(std::filesystem::exists(dir.path("removed.tsv")));
  EXPECT_EQ(s.seconds_total, 4321.5);
  EXPECT_NE(read_file(dir.path("stats.json")).find("\"total\": 4321.5"), std::string::npos);
}

TEST(RunJob, GivesTheMethodTheSourcesTextReplay) {
  // Pairs whose Jaccard straddles the threshold: --verify auto reads some texts again.
  test_support::TempDir dir;
  const auto texts = test_support::near_threshold_pairs(11, 12);
  std::vector<std::string> ids;
  for (size_t i = 0; i < texts.size(); ++i) ids.push_back("d" + std::to_string(i));
  DedupJob job = minhash_job(dir);
  job.config.verify = VerifyMode::automatic;
  job.config.verify_memory = 0;  // no sets kept from the first pass: the texts are read again
  SourceLog log;
  run_job([&] { return std::make_unique<MemorySource>(log, job, ids, texts); }, nullptr);
  EXPECT_GT(log.texts_replayed, 0u);
}

TEST(RunJob, ASourceThatFailsLeavesNoOutput) {
  test_support::TempDir dir;
  const std::string removed = dir.write("removed.tsv", "an earlier run's list\n");
  SourceLog log;
  log.fail_feed = true;
  const auto open = [&] {
    return std::make_unique<MemorySource>(log, minhash_job(dir), std::vector<std::string>{"a"},
                                          std::vector<std::string>{"text"});
  };
  EXPECT_THROW(run_job(open, nullptr), data_error);
  EXPECT_EQ(log.calls, std::vector<std::string>{"feed"});
  EXPECT_EQ(read_file(removed), "an earlier run's list\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path("clusters.jsonl")));
}

}  // namespace
}  // namespace gpudedup::detail

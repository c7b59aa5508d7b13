// The staged route's middle step through the library (DedupJob::sketches): record
// numbers and record-number ids are 64-bit — a shard of more than 2^32 records numbers the
// next shard's records past 2^32 (sketch files written here hold only the documents the
// test needs) — and what a run from sketch files cannot do is refused, naming the parameter.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/pipeline.hpp"
#include "gpudedup/sketch_file.hpp"
#include "support/files.hpp"

namespace gpudedup {
namespace {

using test_support::read_file;

constexpr uint32_t P = 64;

/// A signature: `base` everywhere but the last `differ` values.
std::vector<uint32_t> signature(uint32_t base, uint32_t differ = 0) {
  std::vector<uint32_t> v(P);
  for (uint32_t i = 0; i < P; ++i) v[i] = base * 7919u + i * 104729u + (i + differ >= P ? 1u : 0u);
  return v;
}

/// Writes a sketch file of P = 64 whose shard read `records` records, holding `docs`.
void write_sketch(const std::string& path, const std::string& shard, uint64_t records,
                  const std::vector<std::pair<uint64_t, std::vector<uint32_t>>>& docs) {
  Config c;
  c.minhash.num_perm = P;
  SketchHeader h = SketchHeader::from_config(c);
  h.documents = docs.size();
  h.records = records;
  h.ids_are_record_numbers = true;
  h.shard = shard;
  std::ofstream out(path, std::ios::binary);
  write_sketch_header(out, h);
  for (const auto& [record, values] : docs) {
    SketchRecord where;
    where.id = std::to_string(record);
    where.record = record;
    where.text_bytes = 100;
    where.set_size = 90;
    write_sketch_record(out, where, values.data(), P);
  }
}

TEST(FromSketches, RecordNumbersPastTwoToTheThirtyTwo) {
  test_support::TempDir dir;
  const uint64_t big = (uint64_t(1) << 32) + 5;  // records of the first shard
  write_sketch(dir.path("a.sketch"), "a.jsonl", big, {{7, signature(1)}, {big - 1, signature(2)}});
  write_sketch(dir.path("b.sketch"), "b.jsonl", 4, {{0, signature(2, 1)}, {2, signature(3)}, {3, signature(1)}});
  DedupJob job;
  job.sketches = {dir.path("a.sketch"), dir.path("b.sketch")};
  job.config.backend = Backend::cpu;
  job.outputs.removed = dir.path("removed.tsv");
  job.outputs.clusters = dir.path("clusters.jsonl");
  const DedupSummary s = run_dedup(job);
  EXPECT_EQ(s.input.records, big + 4);
  EXPECT_EQ(s.input.documents, 5u);
  EXPECT_EQ(s.input.skipped, big - 1);
  EXPECT_EQ(s.kept, 3u);
  const std::string b0 = std::to_string(big), b3 = std::to_string(big + 3), a_last = std::to_string(big - 1);
  EXPECT_EQ(read_file(job.outputs.removed), b0 + "\t" + a_last + "\tb.jsonl\t0\n" + b3 + "\t7\tb.jsonl\t3\n");
  EXPECT_EQ(read_file(job.outputs.clusters),
            "{\"cluster\": 0, \"representative\": \"7\", \"members\": [\"7\", \"" + b3 + "\"]}\n"
            "{\"cluster\": 1, \"representative\": \"" + a_last + "\", \"members\": [\"" + a_last + "\", \"" + b0 +
                "\"]}\n");
}

TEST(FromSketches, WhatSignaturesCannotDoIsRefused) {
  test_support::TempDir dir;
  write_sketch(dir.path("a.sketch"), "a.jsonl", 2, {{0, signature(1)}, {1, signature(1)}});
  auto refused = [&](auto&& change, const std::string& says) {
    DedupJob job;
    job.sketches = {dir.path("a.sketch")};
    job.config.backend = Backend::cpu;
    job.outputs.removed = dir.path("removed.tsv");
    change(job);
    try {
      run_dedup(job);
      ADD_FAILURE() << "not refused: " << says;
    } catch (const usage_error& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(job.outputs.removed));
  };
  refused([](DedupJob& j) { j.config.verify = VerifyMode::exact; }, "`verify` exact");
  refused([](DedupJob& j) { j.config.sampling.kind = SampleKind::mins; }, "`sampling.kind`");
  refused([](DedupJob& j) { j.config.method = "simhash"; }, "`method` simhash");
  refused([&](DedupJob& j) { j.outputs.output = dir.path("kept.jsonl"); }, "`outputs.output`");
  refused([&](DedupJob& j) { j.input.paths = {dir.path("x.jsonl")}; }, "`input.paths`");
}

TEST(FromSketches, ATruncatedFileIsADataErrorNamingItAndTheRecord) {
  test_support::TempDir dir;
  write_sketch(dir.path("a.sketch"), "a.jsonl", 3, {{0, signature(1)}, {1, signature(1)}, {2, signature(2)}});
  const std::string bytes = read_file(dir.path("a.sketch"));
  test_support::write_file(dir.path("cut.sketch"), bytes.substr(0, bytes.size() - 10));
  DedupJob job;
  job.sketches = {dir.path("cut.sketch")};
  job.config.backend = Backend::cpu;
  job.outputs.removed = dir.path("removed.tsv");
  try {
    run_dedup(job);
    ADD_FAILURE() << "a truncated sketch file was read";
  } catch (const data_error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.path("cut.sketch") + ": end of file at record 2"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(job.outputs.removed));
}

}  // namespace
}  // namespace gpudedup

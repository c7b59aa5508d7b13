// Index band-key probes on the GPU = on the CPU (skipped without a device).
#include <gtest/gtest.h>

#include "gpudedup/device.hpp"
#include "gpudedup/minhash.hpp"
#include "gpudedup/index.hpp"
#include "host/index/durable_file.hpp"
#include "host/index/manifest.hpp"
#include "host/index/segment_reader.hpp"
#include "kernels/index/index_cuda.hpp"
#include "support/index_test_support.hpp"

using namespace gpudedup;
using namespace index_test;

namespace {

bool no_gpu() { return cuda_status().devices.empty(); }

// An index of several segments with near-copies across them, and a query batch.
std::string build(Docs& queries) {
  std::mt19937_64 rng(21);
  const std::string dir = fresh_dir("gpu");
  Config c;
  c.minhash.num_perm = 128;
  c.threshold = 0.7;
  c.backend = Backend::cpu;
  Index idx = Index::create(dir, c);
  std::vector<std::vector<std::string>> texts;
  for (int b = 0; b < 3; ++b) {
    Docs d;
    for (int i = 0; i < 300; ++i) {
      texts.push_back(i % 4 == 0 && !texts.empty() ? near_copy(rng, texts[rng() % texts.size()], 3)
                                                    : random_words(rng, 90));
      d.add("d" + std::to_string(texts.size()), join(texts.back()));
    }
    idx.insert(d.batch, d.ids);
  }
  for (size_t i = 0; i < texts.size(); i += 3)
    queries.add("q" + std::to_string(i), join(i % 2 ? near_copy(rng, texts[i], 2) : random_words(rng, 90)));
  queries.add("blank", "");
  return dir;
}

}  // namespace

TEST(IndexGpu, ProbeRunsEqualCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  Docs q;
  const std::string dir = build(q);
  const auto m = detail::decode_manifest(detail::read_whole_file(dir + "/MANIFEST"), dir);
  auto cpu = detail::make_cpu_bucket_probe(2);
  auto gpu = detail::make_cuda_bucket_probe(0, 2);
  std::mt19937_64 rng(5);
  uint64_t first = 0;
  for (const auto& listed : m.segments) {
    const auto seg = detail::Segment::open(dir + "/" + listed.file, listed, {m.params.hash(), m.params.num_perm, m.params.bands, m.params.rows}, first);
    first += listed.documents;
    // Keys that are in the table (every 3rd entry of each band) and random ones.
    std::vector<uint64_t> keys;
    const uint32_t bands = m.params.bands;
    for (uint64_t i = 0; i < seg->header().band_entries; i += 3)
      for (uint32_t b = 0; b < bands; ++b) keys.push_back(b % 2 ? rng() : seg->band_keys(b)[i]);
    const uint64_t n = keys.size() / bands;
    for (uint32_t limit : {1u, 2u, 256u}) {
      std::vector<detail::BucketRange> a(keys.size()), b(keys.size());
      cpu->probe(*seg, keys.data(), n, bands, limit, a.data());
      gpu->probe(*seg, keys.data(), n, bands, limit, b.data());
      EXPECT_EQ(a, b) << listed.file << " limit " << limit;
    }
  }
}

TEST(IndexGpu, AnswersEqualCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  Docs q;
  const std::string dir = build(q);
  IndexOpenOptions cpu, gpu;
  cpu.backend = Backend::cpu;
  gpu.backend = Backend::cuda;
  const Index on_cpu = Index::open(dir, cpu), on_gpu = Index::open(dir, gpu);
  ASSERT_EQ(on_gpu.backend(), Backend::cuda);
  const auto a = on_cpu.query(q.batch, q.ids), b = on_gpu.query(q.batch, q.ids);
  ASSERT_EQ(a.size(), b.size());
  size_t dups = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].duplicate, b[i].duplicate) << i;
    EXPECT_EQ(a[i].match, b[i].match) << i;
    EXPECT_EQ(a[i].match_id, b[i].match_id) << i;
    EXPECT_EQ(a[i].similarity, b[i].similarity) << i;
    EXPECT_EQ(a[i].in_batch, b[i].in_batch) << i;
    EXPECT_EQ(a[i].empty, b[i].empty) << i;
    dups += a[i].duplicate;
  }
  EXPECT_GT(dups, 50u);
}

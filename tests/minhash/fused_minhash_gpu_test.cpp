// The fused sketch kernel (GPUDEDUP_GPU_KERNEL=fused, kernels/minhash/fused_minhash.cu)
// against the classic kernels and the CPU backend (the oracle): signatures, set sizes,
// shingle sets and every band's candidates (the device's band keys) must be equal, for
// every shingle spec the classic path supports (char k = 1..64, words, stop words removed
// or anchored, ICU tokens, NFKC, ASCII folding, punctuation removed) and P from 1 to 4096
// (1 to 16 permutations per thread; P = 4096 needs the opt-in to > 48 KiB of shared
// memory), on documents that are empty, 1 byte, at the shared-table limit and one byte
// past it, at tile boundaries, over 48 KiB and longer than a chunk (1.1 MB), with
// multi-byte and invalid UTF-8. Every test skips without a usable CUDA device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gpudedup/detail/distinct_keys.hpp"
#include "gpudedup/device.hpp"
#include "gpudedup/minhash.hpp"
#include "host/minhash/compute_backend.hpp"
#include "support/test_text.hpp"

using namespace gpudedup;

namespace {

bool have_device() { return !cuda_status().devices.empty(); }

/// GPUDEDUP_GPU_KERNEL set for the object's lifetime (a backend reads it when made).
class ScopedKernel {
 public:
  explicit ScopedKernel(const char* value) {
    if (const char* old = std::getenv("GPUDEDUP_GPU_KERNEL")) old_ = old;
    setenv("GPUDEDUP_GPU_KERNEL", value, 1);
  }
  ~ScopedKernel() {
    if (old_) setenv("GPUDEDUP_GPU_KERNEL", old_->c_str(), 1);
    else unsetenv("GPUDEDUP_GPU_KERNEL");
  }
  ScopedKernel(const ScopedKernel&) = delete;
  ScopedKernel& operator=(const ScopedKernel&) = delete;

 private:
  std::optional<std::string> old_;
};

std::string words_text(std::mt19937_64& rng, size_t bytes) {
  static const char* words[] = {"the", "of", "and", "Data", "GPU", "kernel", "shingle", "hash", "band", "warp",
                                "block", "near", "duplicate", "a", "to", "in"};
  std::string s;
  while (s.size() < bytes) {
    s += words[rng() % 16];
    s += rng() % 12 == 0 ? ",\t" : " ";
  }
  s.resize(bytes);
  return s;
}

std::string unicode_text(std::mt19937_64& rng, size_t bytes) {
  std::string s;
  while (s.size() < bytes) {
    switch (rng() % 7) {
      case 0: s += utf8(0x4E00 + uint32_t(rng() % 300)); break;
      case 1: s += utf8(0x1F600 + uint32_t(rng() % 40)); break;
      case 2: s += utf8(0xC0 + uint32_t(rng() % 30)); break;  // folds to lower case
      case 3: s += char(0x80 + rng() % 0x80); break;          // invalid UTF-8
      case 4: s += utf8(0x3000); break;                       // ideographic space
      default: s += char('A' + rng() % 40); break;
    }
  }
  return s;
}

/// Documents at every size the fused kernel treats differently.
DocumentBatch corpus() {
  std::mt19937_64 rng(2026);
  const uint64_t limit = detail::shared_key_limit;
  const size_t sizes[] = {0, 1, 2, 5, 100, 1023, 1024, 1025, 1500, limit, limit + 1, 3000, 50000, 70000, 1100000};
  DocumentBatch b;
  for (size_t n : sizes) {
    b.add(words_text(rng, n));
    b.add(unicode_text(rng, n));
  }
  b.add(std::string(5000, 'a'));  // one distinct shingle, 5000 repeats
  std::string copy = words_text(rng, 4000);
  b.add(copy);
  copy[100] = 'Z';
  b.add(copy);  // a near duplicate: candidates to compare
  for (const char* t : {"", " ", "\xE4\xB8", "\x80\x80\x80", "\xF0\x9F\x98\x80"}) b.add(t);
  return b;
}

struct Sketch {
  std::vector<uint32_t> signatures;
  std::vector<uint32_t> set_sizes;
  ShingleSets sets;
  std::vector<uint32_t> signatures_without_sets;
  std::vector<uint32_t> set_sizes_without_sets;
};

Sketch sketch(detail::ComputeBackend& backend, const DocumentBatch& batch, uint32_t P) {
  Sketch s;
  s.signatures.assign(batch.size() * P, 1);
  s.set_sizes.assign(batch.size(), 7);
  backend.sketch(batch, s.signatures.data(), s.set_sizes.data(), &s.sets);
  s.signatures_without_sets.assign(batch.size() * P, 2);
  s.set_sizes_without_sets.assign(batch.size(), 9);
  backend.sketch(batch, s.signatures_without_sets.data(), s.set_sizes_without_sets.data(), nullptr);
  return s;
}

void expect_same(const Sketch& want, const Sketch& got, const std::string& what) {
  ASSERT_EQ(want.set_sizes, got.set_sizes) << what;
  ASSERT_EQ(want.signatures, got.signatures) << what;
  ASSERT_EQ(want.sets.offsets, got.sets.offsets) << what;
  ASSERT_EQ(want.sets.hashes, got.sets.hashes) << what;
  ASSERT_EQ(want.signatures, got.signatures_without_sets) << what << " (no sets)";
  ASSERT_EQ(want.set_sizes, got.set_sizes_without_sets) << what << " (no sets)";
}

struct Spec {
  std::string name;
  Config config;
};

std::vector<Spec> specs() {
  std::vector<Spec> out;
  for (uint32_t k : {1u, 2u, 3u, 5u, 9u, 64u}) {
    Config c;
    c.shingle.ngram = k;
    out.push_back({"char" + std::to_string(k), c});
  }
  for (uint32_t P : {1u, 64u, 100u, 512u, 1000u, 4096u}) {
    Config c;
    c.minhash.num_perm = P;
    out.push_back({"char5 P" + std::to_string(P), c});
  }
  {
    Config c;
    c.shingle.normalize.case_fold = CaseFold::ascii;
    c.shingle.normalize.remove_punctuation = true;
    out.push_back({"char5 ascii,punct", c});
  }
  {
    Config c;
    c.shingle.normalize.nfkc = true;
    out.push_back({"char5 nfkc", c});
  }
  for (uint32_t k : {1u, 3u}) {
    Config c;
    c.shingle.kind = ShingleKind::words;
    c.shingle.ngram = k;
    out.push_back({"words" + std::to_string(k), c});
  }
  {
    Config c;
    c.shingle.kind = ShingleKind::words;
    c.shingle.ngram = 2;
    c.shingle.stop_words = {"the", "of", "AND", "a"};
    c.shingle.remove_stop_words = true;
    out.push_back({"words2 stop words removed", c});
  }
  {
    Config c;
    c.shingle.kind = ShingleKind::words;
    c.shingle.stop_words = {"the", "of", "and", "a"};
    c.shingle.stop_word_anchored = true;
    out.push_back({"words anchored", c});
  }
  {
    Config c;
    c.shingle.kind = ShingleKind::words;
    c.shingle.tokenizer = Tokenizer::icu;
    out.push_back({"words icu", c});
  }
  return out;
}

}  // namespace

TEST(FusedMinHashGpu, SketchesEqualClassicAndCpuForEveryShingleSpec) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device: " << cuda_status().reason;
  const DocumentBatch batch = corpus();
  for (const Spec& spec : specs()) {
    Config config = spec.config;
    config.verify = VerifyMode::exact;  // sets
    config.minhash.family = SketchFamily::classic;  // the fused kernels are the classic family's
    const auto sketch_spec = detail::make_sketch_spec(config);
    const uint32_t P = config.minhash.num_perm;
    auto cpu = detail::make_cpu_backend(sketch_spec);
    std::unique_ptr<detail::ComputeBackend> classic, fused;
    {
      ScopedKernel k("classic");
      classic = detail::make_cuda_backend(sketch_spec);
    }
    {
      ScopedKernel k("fused");
      fused = detail::make_cuda_backend(sketch_spec);
    }
    const Sketch want = sketch(*cpu, batch, P);
    expect_same(want, sketch(*classic, batch, P), spec.name + ": classic");
    const Sketch got = sketch(*fused, batch, P);
    expect_same(want, got, spec.name + ": fused");

    // Band keys on the device: every band's candidates from the fused signatures.
    if (P < 16) continue;
    Signatures sigs;
    sigs.num_perm = P;
    sigs.values.assign(got.signatures.data(), got.signatures.size());
    const detail::CorpusView view{&sigs, &got.set_sizes, &got.sets};
    const uint32_t rows = P >= 256 ? 8 : 4;
    for (uint32_t band = 0; band < P / rows; band += 3) {
      std::vector<std::pair<uint32_t, uint32_t>> on_cpu, on_gpu;
      cpu->band_candidates(view, band, rows, on_cpu);
      fused->band_candidates(view, band, rows, on_gpu);
      ASSERT_EQ(on_cpu, on_gpu) << spec.name << " band " << band;
    }
  }
}

TEST(FusedMinHashGpu, EngineResultsEqualCpu) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device: " << cuda_status().reason;
  const DocumentBatch batch = corpus();
  Config c;
  c.threshold = 0.7;
  c.backend = Backend::cpu;
  MinHashEngine cpu(c);
  ScopedKernel k("fused");
  c.backend = Backend::cuda;
  MinHashEngine gpu(c);
  cpu.add(batch);
  gpu.add(batch);
  EXPECT_EQ(cpu.candidate_pairs(), gpu.candidate_pairs());
  const DedupResult a = cpu.finish(), b = gpu.finish();
  EXPECT_EQ(a.pairs, b.pairs);
  EXPECT_EQ(a.clusters, b.clusters);
  EXPECT_EQ(a.removed, b.removed);
}

// The CUDA backend against the CPU backend (the oracle): signatures, set sizes, shingle
// sets, band candidates in order, verified band pairs and the final DedupResult must be
// equal, on random corpora of 0, 1, 31, 32, 33 and 5000 documents with texts from empty
// to over 1 MB, ASCII, CJK and invalid UTF-8, char and word shingles, stop words, and
// every MinHash family (--sketch classic, oph and fss).
// Every test with a device in its name skips without a usable CUDA device.
#include <gtest/gtest.h>

#include "gpudedup/device.hpp"
#include "support/device_overrides.hpp"
#include "support/near_threshold.hpp"
#include "support/result_equality.hpp"
#include "support/test_text.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gpudedup/minhash.hpp"
#include "gpudedup/errors.hpp"
#include "host/minhash/compute_backend.hpp"

using namespace gpudedup;

namespace {

bool have_device() { return !cuda_status().devices.empty(); }

void append_utf8(std::string& s, uint32_t c) { s += utf8(c); }

/// Deterministic random corpora with planted near-duplicates.
class CorpusMaker {
 public:
  explicit CorpusMaker(uint64_t seed) : rng_(seed) {
    const char* words[] = {"the", "of", "and", "a", "to", "in", "is", "it", "you", "that",
                           "data", "GPU", "kernel", "Shingle", "hash", "minhash", "band", "LSH",
                           "near", "duplicate", "document", "corpus", "Stream", "warp", "block"};
    for (const char* w : words) vocab_.push_back(w);
    for (int i = 0; i < 200; ++i) {
      std::string w;
      const int len = 2 + int(rng_() % 9);
      for (int j = 0; j < len; ++j) w += char((rng_() % 3 == 0 ? 'A' : 'a') + rng_() % 26);
      vocab_.push_back(w);
    }
  }

  std::string text(size_t target) {
    std::string s;
    switch (rng_() % 8) {
      case 0: case 1: case 2: case 3: ascii(s, target); break;
      case 4: cjk(s, target); break;
      case 5: invalid(s, target); break;
      case 6: mixed(s, target); break;
      default: binary(s, target); break;
    }
    return s;
  }

  /// A copy of `s` with a few bytes changed, inserted or removed.
  std::string mutate(std::string s) {
    const int edits = 1 + int(rng_() % 4);
    for (int e = 0; e < edits && !s.empty(); ++e) {
      const size_t at = rng_() % s.size();
      switch (rng_() % 3) {
        case 0: s[at] = char('a' + rng_() % 26); break;
        case 1: s.insert(at, 1, char(rng_() % 2 ? ' ' : 'Z')); break;
        default: s.erase(at, 1); break;
      }
    }
    return s;
  }

  DocumentBatch corpus(size_t docs, bool with_huge) {
    DocumentBatch b;
    std::vector<std::string> made;
    for (size_t d = 0; d < docs; ++d) {
      std::string t;
      const uint64_t r = rng_() % 100;
      if (r < 5) {
        t = "";
      } else if (r < 35 && !made.empty()) {
        t = mutate(made[rng_() % made.size()]);
      } else if (r < 40) {
        t = text(1 + rng_() % 6);  // shorter than k: one shingle of the whole text
      } else {
        t = text(rng_() % 3000);
      }
      made.push_back(t);
      b.add(t);
    }
    if (with_huge && docs > 2) {  // > 1 MB, several MinHash blocks, and a near copy
      DocumentBatch h;
      const std::string huge = text_ascii(1100000);
      for (size_t d = 0; d < docs; ++d) {
        if (d == 1) h.add(huge);
        else if (d == docs - 1) h.add(mutate(huge));
        else h.add(b.text(d));
      }
      return h;
    }
    return b;
  }

  std::string text_ascii(size_t target) {
    std::string s;
    ascii(s, target);
    return s;
  }

 private:
  void ascii(std::string& s, size_t target) {
    while (s.size() < target) {
      s += vocab_[rng_() % vocab_.size()];
      const uint64_t r = rng_() % 20;
      s += r == 0 ? "\t" : r == 1 ? "\n  " : r == 2 ? ". " : " ";
    }
  }
  void cjk(std::string& s, size_t target) {
    while (s.size() < target) {
      const uint64_t r = rng_() % 20;
      if (r == 0) append_utf8(s, 0x3000);  // ideographic space
      else if (r == 1) s += ' ';
      else if (r < 5) append_utf8(s, 0x3041 + uint32_t(rng_() % 80));  // hiragana
      else if (r < 7) append_utf8(s, 0xAC00 + uint32_t(rng_() % 200));  // hangul
      else if (r == 7) append_utf8(s, 0x20000 + uint32_t(rng_() % 100));  // extension B
      else append_utf8(s, 0x4E00 + uint32_t(rng_() % 300));
    }
  }
  void invalid(std::string& s, size_t target) {
    while (s.size() < target) {
      const uint64_t r = rng_() % 10;
      if (r < 5) s += vocab_[rng_() % vocab_.size()] + " ";
      else if (r < 7) s += char(0x80 + rng_() % 0x80);  // stray continuation or lead byte
      else if (r == 7) s += "\xE4\xB8";                 // truncated sequence
      else if (r == 8) s += "\xED\xA0\x80";             // surrogate: invalid
      else append_utf8(s, 0xA0);                         // no-break space (white space)
    }
  }
  void mixed(std::string& s, size_t target) {
    while (s.size() < target) {
      if (rng_() % 2) ascii(s, s.size() + 20); else cjk(s, s.size() + 20);
    }
  }
  void binary(std::string& s, size_t target) {
    while (s.size() < target) s += char(rng_() % 256);
  }

  std::mt19937_64 rng_;
  std::vector<std::string> vocab_;
};

struct Case {
  const char* name;
  Config config;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  Config c;
  c.threads = 2;
  // The classic family's kernel (permutations per thread, idle lanes) in the cases up to
  // the OPH and fss ones, which name their family.
  c.minhash.family = SketchFamily::classic;
  out.push_back({"Char5P256", c});
  {
    Config x = c;
    x.minhash.family = Config().minhash.family;  // the default family, whatever it is
    out.push_back({"DefaultFamilyChar5P256", x});
  }
  {
    Config x = c;
    x.shingle.ngram = 3;
    x.minhash.num_perm = 64;
    x.threshold = 0.5;
    out.push_back({"Char3P64", x});
  }
  {
    Config x = c;
    x.minhash.num_perm = 100;  // not a power of two: idle permutation lanes
    x.similarity = Similarity::containment;
    out.push_back({"Char5P100Containment", x});
  }
  {
    Config x = c;
    x.minhash.num_perm = 512;  // two permutations per thread
    x.all_pairs = true;
    out.push_back({"Char5P512AllPairs", x});
  }
  {
    Config x = c;
    x.shingle.ngram = 1;
    x.minhash.num_perm = 1000;
    x.lsh.bands = 10;
    x.lsh.rows = 3;
    x.verify = VerifyMode::none;
    out.push_back({"Char1P1000VerifyNone", x});
  }
  {
    Config x = c;
    x.shingle.kind = ShingleKind::words;
    x.shingle.ngram = 3;
    x.threshold = 0.6;
    out.push_back({"Word3", x});
  }
  {
    Config x = c;
    x.shingle.kind = ShingleKind::words;
    x.shingle.ngram = 2;
    x.shingle.stop_words = {"the", "of", "AND", "a", "data"};
    x.shingle.remove_stop_words = true;
    x.verify = VerifyMode::exact;
    out.push_back({"Word2StopWordsExact", x});
  }
  {
    Config x = c;
    x.shingle.kind = ShingleKind::words;
    x.shingle.stop_word_anchored = true;
    x.minhash.num_perm = 128;
    out.push_back({"WordAnchored", x});
  }
  {
    Config x = c;
    x.shingle.ngram = 2;
    x.minhash.num_perm = 128;
    x.lsh.bands = 16;  // two rows of 2-grams: buckets above 64 members, windowed and completed
    x.lsh.rows = 2;
    x.similarity = Similarity::containment_b;
    x.threshold = 0.7;
    out.push_back({"Char2ContainmentBLargeBuckets", x});
  }
  // --sketch oph and fss (kernels/minhash/oph_minhash.cu, fss_minhash.cu): the bins of a
  // 1 MB document's chunks merged by atomicMin; short texts with most bins densified (oph)
  // or filled from their own permutations, a warp per bin (fss); P not a power of two.
  struct FamilyCases {
    SketchFamily family;
    const char* names[3];
  };
  const FamilyCases families[] = {
      {SketchFamily::oph, {"OphChar5P256", "OphChar1P1000Exact", "OphWord3P100Containment"}},
      {SketchFamily::fss, {"FssChar5P256", "FssChar1P1000Exact", "FssWord3P100Containment"}}};
  for (const FamilyCases& f : families) {
    Config x = c;
    x.minhash.family = f.family;
    out.push_back({f.names[0], x});
    Config one = x;
    one.shingle.ngram = 1;  // a few dozen distinct shingles: most of the 1000 bins filled
    one.minhash.num_perm = 1000;
    one.verify = VerifyMode::exact;
    out.push_back({f.names[1], one});
    Config words = x;
    words.shingle.kind = ShingleKind::words;
    words.shingle.ngram = 3;
    words.minhash.num_perm = 100;
    words.similarity = Similarity::containment;
    out.push_back({f.names[2], words});
  }
  return out;
}

Config with_backend(Config c, Backend b) {
  c.backend = b;
  return c;
}

using Param = std::tuple<size_t, int>;

class CudaBackendGpu : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    if (!have_device()) GTEST_SKIP() << "no CUDA device: " << cuda_status().reason;
  }
};

TEST_P(CudaBackendGpu, BackendOutputsEqualCpu) {
  const size_t docs = std::get<0>(GetParam());
  const Case test_case = cases()[size_t(std::get<1>(GetParam()))];
  const Config& config = test_case.config;
  const auto spec = detail::make_sketch_spec(config);
  auto cpu = detail::make_cpu_backend(spec);
  auto gpu = detail::make_cuda_backend(spec);

  CorpusMaker maker(1000 + docs * 7 + size_t(std::get<1>(GetParam())));
  const DocumentBatch batch = maker.corpus(docs, docs == 33);
  const uint32_t P = config.minhash.num_perm;

  Signatures cpu_sigs, gpu_sigs;
  cpu_sigs.num_perm = gpu_sigs.num_perm = P;
  cpu_sigs.values.assign(docs * P, 0);
  gpu_sigs.values.assign(docs * P, 1);
  std::vector<uint32_t> cpu_sizes(docs, 7), gpu_sizes(docs, 9);
  ShingleSets cpu_sets, gpu_sets;
  cpu->sketch(batch, cpu_sigs.values.data(), cpu_sizes.data(), &cpu_sets);
  gpu->sketch(batch, gpu_sigs.values.data(), gpu_sizes.data(), &gpu_sets);
  ASSERT_EQ(cpu_sizes, gpu_sizes);
  ASSERT_EQ(cpu_sigs.values, gpu_sigs.values);
  ASSERT_EQ(cpu_sets.offsets, gpu_sets.offsets);
  ASSERT_EQ(cpu_sets.hashes, gpu_sets.hashes);

  // Without sets: the same signatures again (the select stage is skipped).
  std::vector<uint32_t> again(docs * P, 3), again_sizes(docs, 5);
  gpu->sketch(batch, again.data(), again_sizes.data(), nullptr);
  EXPECT_EQ(again, std::vector<uint32_t>(cpu_sigs.values.begin(), cpu_sigs.values.end()));
  EXPECT_EQ(again_sizes, cpu_sizes);

  const LshParams lsh = config.lsh.bands ? score_lsh_params(config.threshold, config.lsh.bands, config.lsh.rows)
                                         : choose_lsh_params(config.threshold, P);
  const bool keep_sets = config.verify == VerifyMode::exact;
  const detail::CorpusView view{&cpu_sigs, &cpu_sizes, keep_sets ? &cpu_sets : nullptr};
  auto never = [](uint32_t, uint32_t) { return false; };
  for (uint32_t band = 0; band < lsh.bands; ++band) {
    std::vector<std::pair<uint32_t, uint32_t>> cpu_cand, gpu_cand;
    cpu->band_candidates(view, band, lsh.rows, cpu_cand);
    gpu->band_candidates(view, band, lsh.rows, gpu_cand);
    ASSERT_EQ(cpu_cand, gpu_cand) << "band " << band;
    std::vector<ScoredPair> cpu_pass, gpu_pass;
    uint64_t cpu_count = 0, gpu_count = 0;
    detail::WindowedBuckets cpu_windowed, gpu_windowed;
    cpu->band_pairs(view, band, lsh.rows, never, cpu_pass, &cpu_count, &cpu_windowed);
    gpu->band_pairs(view, band, lsh.rows, never, gpu_pass, &gpu_count, &gpu_windowed);
    ASSERT_EQ(cpu_count, gpu_count) << "band " << band;
    ASSERT_EQ(cpu_count, cpu_cand.size());
    ASSERT_EQ(cpu_pass, gpu_pass) << "band " << band;
    ASSERT_EQ(cpu_windowed.members, gpu_windowed.members) << "band " << band;
    ASSERT_EQ(cpu_windowed.offsets, gpu_windowed.offsets) << "band " << band;
  }
}

TEST_P(CudaBackendGpu, EngineResultsEqualCpu) {
  const size_t docs = std::get<0>(GetParam());
  const Case test_case = cases()[size_t(std::get<1>(GetParam()))];
  CorpusMaker maker(5000 + docs * 3 + size_t(std::get<1>(GetParam())));
  const DocumentBatch all = maker.corpus(docs, docs == 33);
  MinHashEngine cpu(with_backend(test_case.config, Backend::cpu));
  MinHashEngine gpu(with_backend(test_case.config, Backend::cuda));
  ASSERT_EQ(gpu.backend(), Backend::cuda);

  EXPECT_EQ(cpu.sketch(all).values, gpu.sketch(all).values);
  // Add in uneven batches so that the GPU corpus cache sees the corpus grow.
  DocumentBatch part;
  size_t next_cut = 1;
  for (size_t d = 0; d < docs; ++d) {
    part.add(all.text(d));
    if (d + 1 == next_cut || d + 1 == docs) {
      cpu.add(part);
      gpu.add(part);
      part.clear();
      next_cut = next_cut * 3 + 1;
      if (d + 1 < docs) {  // candidates of the corpus so far: uploads a partial corpus
        EXPECT_EQ(cpu.candidate_pairs(), gpu.candidate_pairs());
      }
    }
  }
  ASSERT_EQ(cpu.signatures().values, gpu.signatures().values);
  EXPECT_EQ(cpu.candidate_pairs(), gpu.candidate_pairs());
  test_support::expect_same_result(cpu.finish(), gpu.finish());
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  return std::string(cases()[size_t(std::get<1>(info.param))].name) + "_Docs" +
         std::to_string(std::get<0>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Corpora, CudaBackendGpu,
                         ::testing::Combine(::testing::Values(size_t(0), size_t(1), size_t(31), size_t(32),
                                                              size_t(33), size_t(5000)),
                                            ::testing::Range(0, int(cases().size()))),
                         param_name);

TEST(CudaBackendGpuDevice, RejectsADeviceOrdinalThatDoesNotExist) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device: " << cuda_status().reason;
  Config c;
  c.backend = Backend::cuda;
  c.device = int(cuda_status().devices.size()) + 3;
  EXPECT_THROW(MinHashEngine{c}, usage_error);
}

TEST(CudaBackendGpuDevice, SmallTextsSketchEqualCpu) {
  // A handful of hand-picked texts: the per-position char shingles at boundaries.
  if (!have_device()) GTEST_SKIP() << "no CUDA device: " << cuda_status().reason;
  DocumentBatch b;
  for (const char* t : {"", " ", "a", "ab", "abcd", "abcde", "abcdef", "  Hello,\tWORLD \n", "\xE4\xB8",
                        "\xF0\x9F\x98\x80\xF0\x9F\x98\x80 x", "\x80\x80\x80\x80\x80\x80", "日本語のテキスト"}) {
    b.add(t);
  }
  Config c;
  c.backend = Backend::cpu;
  MinHashEngine cpu(c);
  c.backend = Backend::cuda;
  MinHashEngine gpu(c);
  EXPECT_EQ(cpu.sketch(b).values, gpu.sketch(b).values);
}

// ---- a small or busy card, on any card (tests/support/device_overrides.hpp) ----------------

/// What an engine gives for a corpus: signatures, candidates and the result.
struct EngineRun {
  std::vector<uint32_t> signatures;
  std::vector<std::pair<uint32_t, uint32_t>> candidates;
  DedupResult result;
};

EngineRun run_engine(Config config, Backend backend, const DocumentBatch& all) {
  config.backend = backend;
  MinHashEngine engine(config);
  EXPECT_EQ(engine.backend(), backend);
  EngineRun run;
  const Signatures sketched = engine.sketch(all);
  run.signatures.assign(sketched.values.begin(), sketched.values.end());
  const size_t half = all.size() / 2;  // two batches: the corpus cache sees the corpus grow
  DocumentBatch part;
  for (size_t d = 0; d < all.size(); ++d) {
    part.add(all.text(d));
    if (d + 1 == half || d + 1 == all.size()) {
      engine.add(part);
      part.clear();
    }
  }
  run.candidates = engine.candidate_pairs();
  run.result = engine.finish();
  return run;
}

void expect_same(const EngineRun& cpu, const EngineRun& gpu, const std::string& what) {
  EXPECT_EQ(cpu.signatures, gpu.signatures) << what;
  EXPECT_EQ(cpu.candidates, gpu.candidates) << what;
  EXPECT_EQ(cpu.result.candidate_pairs, gpu.result.candidate_pairs) << what;
  EXPECT_EQ(cpu.result.pairs, gpu.result.pairs) << what;
  EXPECT_EQ(cpu.result.representative, gpu.result.representative) << what;
  EXPECT_EQ(cpu.result.clusters, gpu.result.clusters) << what;
  EXPECT_EQ(cpu.result.removed, gpu.result.removed) << what;
}

class CudaBackendGpuSmallCard : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_device()) GTEST_SKIP() << "no CUDA device: " << cuda_status().reason;
  }
  // With the 1.1 MB document and its near copy: a document larger than small budgets.
  const DocumentBatch corpus_ = CorpusMaker(77).corpus(1500, true);
};

TEST_F(CudaBackendGpuSmallCard, ManySubBatchesEqualCpu) {
  for (const Case& c : cases()) {
    const EngineRun cpu = run_engine(c.config, Backend::cpu, corpus_);
    uint64_t whole = 0;
    {
      test_support::ScopedDeviceOverrides none(nullptr, nullptr);
      expect_same(cpu, run_engine(c.config, Backend::cuda, corpus_), c.name);
      whole = none.allocations();
    }
    test_support::ScopedDeviceOverrides small("256K", nullptr);  // a few documents a sub-batch
    expect_same(cpu, run_engine(c.config, Backend::cuda, corpus_), std::string(c.name) + " budget 256K");
    EXPECT_GT(small.allocations(), whole + 50) << c.name << ": the sub-batches did not multiply";
  }
}

TEST_F(CudaBackendGpuSmallCard, OutOfMemorySplitsAndFallsBackEqualCpu) {
  // Every allocation above 256 KiB fails: sub-batches are halved, the 1.1 MB document and
  // its copy go to the CPU, and the corpus (1500 x P x 4 bytes) never fits, so every band
  // runs on the CPU backend.
  for (const char* rule : {"oom-above:256K", "oom-above:8M"}) {
    test_support::ScopedDeviceOverrides env(nullptr, rule);
    for (const Case& c : cases()) {
      expect_same(run_engine(c.config, Backend::cpu, corpus_), run_engine(c.config, Backend::cuda, corpus_),
                  std::string(c.name) + " " + rule);
    }
  }
}

TEST_F(CudaBackendGpuSmallCard, EveryAllocationFailingOnceEqualsCpu) {
  const DocumentBatch small = CorpusMaker(78).corpus(200, true);
  for (int which : {0, 6}) {  // Char5P256, and Word2StopWordsExact (shingle sets, host verification)
    const Case c = cases()[size_t(which)];
    const EngineRun cpu = run_engine(c.config, Backend::cpu, small);
    uint64_t count = 0;
    {
      test_support::ScopedDeviceOverrides none(nullptr, nullptr);
      run_engine(c.config, Backend::cuda, small);
      count = none.allocations();
    }
    ASSERT_GT(count, 0u);
    const uint64_t step = std::max<uint64_t>(1, count / 150);  // at most ~150 runs
    for (uint64_t n = 1; n <= count; n += step) {
      const std::string rule = "oom:" + std::to_string(n);
      test_support::ScopedDeviceOverrides env(nullptr, rule.c_str());
      expect_same(cpu, run_engine(c.config, Backend::cuda, small), std::string(c.name) + " " + rule);
    }
    for (uint64_t n : {uint64_t(1), uint64_t(2), count / 2, count}) {  // and every one after it
      const std::string rule = "oom-from:" + std::to_string(n);
      test_support::ScopedDeviceOverrides env(nullptr, rule.c_str());
      expect_same(cpu, run_engine(c.config, Backend::cuda, small), std::string(c.name) + " " + rule);
    }
  }
}

TEST_F(CudaBackendGpuSmallCard, PageableStagingEqualsCpu) {
  test_support::ScopedDeviceOverrides env("1M", "pinned-oom");  // several sub-batches through the staging
  for (const Case& c : cases()) {
    expect_same(run_engine(c.config, Backend::cpu, corpus_), run_engine(c.config, Backend::cuda, corpus_),
                std::string(c.name) + " pinned-oom");
  }
}

TEST_F(CudaBackendGpuSmallCard, BucketsEncodedInPiecesEqualCpu) {
  // The band's run-length encoding in pieces of a few keys (kernels/device/run_length.cuh),
  // with runs (buckets) longer than a piece among them.
  const Case c = cases()[4];  // one-char shingles, 10 bands of 3 rows: large buckets
  const auto spec = detail::make_sketch_spec(c.config);
  auto cpu = detail::make_cpu_backend(spec);
  const DocumentBatch batch = CorpusMaker(79).corpus(300, false);
  const uint32_t P = c.config.minhash.num_perm;
  Signatures sigs;
  sigs.num_perm = P;
  sigs.values.assign(batch.size() * P, 0);
  std::vector<uint32_t> sizes(batch.size());
  cpu->sketch(batch, sigs.values.data(), sizes.data(), nullptr);
  const detail::CorpusView view{&sigs, &sizes, nullptr};
  for (const char* rule : {"cub-items:1", "cub-items:2", "cub-items:7", "cub-items:100"}) {
    test_support::ScopedDeviceOverrides env(nullptr, rule);
    auto gpu = detail::make_cuda_backend(spec);
    for (uint32_t band = 0; band < c.config.lsh.bands; ++band) {
      std::vector<std::pair<uint32_t, uint32_t>> cpu_cand, gpu_cand;
      cpu->band_candidates(view, band, c.config.lsh.rows, cpu_cand);
      gpu->band_candidates(view, band, c.config.lsh.rows, gpu_cand);
      ASSERT_EQ(cpu_cand, gpu_cand) << rule << " band " << band;
    }
  }
}

TEST(CudaBackendWithoutDevice, CudaBackendIsAUsageErrorWithAReason) {
  if (have_device()) GTEST_SKIP() << "a CUDA device is present";
  Config c;
  c.backend = Backend::cuda;
  try {
    MinHashEngine e(c);
    FAIL() << "expected usage_error";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("`backend` cuda"), std::string::npos) << e.what();
  }
  c.backend = Backend::automatic;
  EXPECT_EQ(MinHashEngine(c).backend(), Backend::cpu);
}

// --verify auto: the backends return every pair from the borderline floor up and the
// engine's host code decides them, exactly from the replayed texts: the same answer.
TEST(CudaBackendGpuVerifyAuto, BorderlinePairsDecidedExactlyEqualCpu) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device: " << cuda_status().reason;
  const auto texts = test_support::near_threshold_pairs(41, 400);
  DocumentBatch batch;
  for (const auto& t : texts) batch.add(t);
  const TextReplay replay = [&](const std::vector<uint8_t>& wanted,
                                const std::function<void(uint64_t, std::string_view)>& use) {
    for (size_t d = 0; d < texts.size(); ++d)
      if (wanted[d]) use(d, texts[d]);
  };
  for (const Similarity sim : {Similarity::jaccard, Similarity::containment}) {
    Config c;
    c.verify = VerifyMode::automatic;
    c.similarity = sim;
    MinHashEngine cpu(with_backend(c, Backend::cpu));
    MinHashEngine gpu(with_backend(c, Backend::cuda));
    cpu.add(batch);
    gpu.add(batch);
    cpu.set_text_replay(replay);
    gpu.set_text_replay(replay);
    const DedupResult a = cpu.finish();
    const DedupResult b = gpu.finish();
    EXPECT_EQ(a.pairs, b.pairs);
    EXPECT_EQ(a.representative, b.representative);
    EXPECT_EQ(cpu.stats_fields(a).size(), gpu.stats_fields(b).size());
    for (size_t i = 0; i < cpu.stats_fields(a).size(); ++i) {
      if (cpu.stats_fields(a)[i].key == "verify_exact_pairs") EXPECT_NE(cpu.stats_fields(a)[i].json, "0");
    }
  }
}

}  // namespace

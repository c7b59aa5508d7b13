// Sampled shingle sets on the CUDA backend: the signatures come from the host's sampled
// sets, candidates from the device; the result equals the CPU's (skipped without a device).
#include <gtest/gtest.h>

#include <random>

#include "gpudedup/device.hpp"
#include "gpudedup/minhash.hpp"

using namespace gpudedup;

TEST(SamplingGpu, EngineResultEqualsCpuForEverySampling) {
  if (cuda_status().devices.empty()) GTEST_SKIP() << cuda_status().reason;
  std::mt19937_64 rng(11);
  DocumentBatch b;
  std::string prev;
  for (int i = 0; i < 3000; ++i) {
    std::string t;
    if (i > 0 && rng() % 3 == 0) t = prev + " tail " + std::to_string(rng() % 7);
    else
      for (size_t w = rng() % 300; w > 0; --w) t += "w" + std::to_string(rng() % 500) + " ";
    b.add(t);
    prev = t;
  }
  for (auto kind : {SampleKind::minwise, SampleKind::modm, SampleKind::mins}) {
    for (auto verify : {VerifyMode::estimate, VerifyMode::exact}) {
      Config c;
      c.sampling.kind = kind;
      c.sampling.size = 64;
      c.sampling.mod = 4;
      c.verify = verify;
      c.all_pairs = true;
      c.backend = Backend::cpu;
      MinHashEngine cpu(c);
      c.backend = Backend::cuda;
      MinHashEngine gpu(c);
      cpu.add(b);
      gpu.add(b);
      EXPECT_EQ(cpu.signatures().values, gpu.signatures().values) << to_string(kind);
      const DedupResult x = cpu.finish(), y = gpu.finish();
      EXPECT_EQ(x.pairs, y.pairs) << to_string(kind) << " " << to_string(verify);
      EXPECT_EQ(x.representative, y.representative) << to_string(kind);
    }
  }
}

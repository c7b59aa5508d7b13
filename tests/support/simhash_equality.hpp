#pragma once
// Test helper: the fingerprints of a batch from a CPU and a CUDA SimHash engine of the
// same config are equal (the df pass run on both first when the weights need one).
#include <gtest/gtest.h>

#include <string>

#include "gpudedup/simhash.hpp"

namespace test_support {

inline void expect_fingerprints_equal_cpu(gpudedup::Config c, const gpudedup::SimHashConfig& s,
                                          const gpudedup::DocumentBatch& batch, const std::string& what) {
  c.backend = gpudedup::Backend::cpu;
  gpudedup::SimHashEngine cpu(c, s);
  c.backend = gpudedup::Backend::cuda;
  gpudedup::SimHashEngine gpu(c, s);
  if (cpu.needs_df_pass()) {
    cpu.count_df(batch);
    gpu.count_df(batch);
  }
  EXPECT_EQ(gpu.fingerprints(batch), cpu.fingerprints(batch)) << what;
}

}  // namespace test_support

// GPUDEDUP_GPU_PIPELINE (kernels/minhash/pipeline_choice.hpp): unset or empty is the
// synchronous path, `sync` and `async` name theirs, anything else is a usage error that
// names the variable and its values.
#include "kernels/minhash/pipeline_choice.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace gpudedup;
using namespace gpudedup::detail;

TEST(GpuPipelineChoice, ParsesTheTwoNamesAndDefaultsToSync) {
  EXPECT_EQ(parse_gpu_pipeline(nullptr), gpu_pipeline::sync);
  EXPECT_EQ(parse_gpu_pipeline(""), gpu_pipeline::sync);
  EXPECT_EQ(parse_gpu_pipeline("sync"), gpu_pipeline::sync);
  EXPECT_EQ(parse_gpu_pipeline("async"), gpu_pipeline::async);
}

TEST(GpuPipelineChoice, RejectsOtherValuesNamingTheVariable) {
  for (const char* bad : {"Async", "async ", "overlap"}) {
    try {
      parse_gpu_pipeline(bad);
      FAIL() << "no error for " << bad;
    } catch (const usage_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("GPUDEDUP_GPU_PIPELINE"), std::string::npos) << what;
      EXPECT_NE(what.find("`async`"), std::string::npos) << what;
      EXPECT_NE(what.find(std::string("`") + bad + "`"), std::string::npos) << what;
    }
  }
}

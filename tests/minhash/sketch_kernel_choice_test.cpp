// GPUDEDUP_GPU_KERNEL (kernels/minhash/sketch_kernel_choice.hpp): unset or empty is the
// classic path, `classic` and `fused` name theirs, anything else is a usage error that
// names the variable and its values.
#include "kernels/minhash/sketch_kernel_choice.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace gpudedup;
using namespace gpudedup::detail;

TEST(SketchKernelChoice, ParsesTheTwoNamesAndDefaultsToClassic) {
  EXPECT_EQ(parse_sketch_kernel(nullptr), sketch_kernel::classic);
  EXPECT_EQ(parse_sketch_kernel(""), sketch_kernel::classic);
  EXPECT_EQ(parse_sketch_kernel("classic"), sketch_kernel::classic);
  EXPECT_EQ(parse_sketch_kernel("fused"), sketch_kernel::fused);
}

TEST(SketchKernelChoice, RejectsOtherValuesNamingTheVariable) {
  try {
    parse_sketch_kernel("Fused ");
    FAIL() << "no error";
  } catch (const usage_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("GPUDEDUP_GPU_KERNEL"), std::string::npos) << what;
    EXPECT_NE(what.find("`fused`"), std::string::npos) << what;
    EXPECT_NE(what.find("`Fused `"), std::string::npos) << what;
  }
}

#pragma once
// The bloom row of the method table (host/pipeline/method_table.cpp).
#include "gpudedup/method.hpp"

namespace gpudedup::detail {

MethodEntry bloom_method();

}  // namespace gpudedup::detail

#pragma once
// The exact row of the method table (host/pipeline/method_table.cpp).
#include "gpudedup/method.hpp"

namespace gpudedup::detail {

MethodEntry exact_method();

}  // namespace gpudedup::detail

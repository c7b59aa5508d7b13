#pragma once
// The simhash row of the method table (host/pipeline/method_table.cpp).
#include "gpudedup/method.hpp"

namespace gpudedup::detail {

MethodEntry simhash_method();

}  // namespace gpudedup::detail

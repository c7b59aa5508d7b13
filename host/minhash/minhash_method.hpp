#pragma once
// The minhash row of the method table (host/pipeline/method_table.cpp).
#include "gpudedup/method.hpp"

namespace gpudedup::detail {

MethodEntry minhash_method();

}  // namespace gpudedup::detail

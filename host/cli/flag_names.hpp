#pragma once
// Library messages name API parameters in backticks (`minhash.num_perm`); the program
// speaks of its flags (--num-perm).
#include <string>
#include <string_view>

namespace gpudedup::cli {

/// `message` with every `parameter` the program has a flag for written as that flag, and
/// the backticks of any other name dropped.
std::string with_flags(std::string_view message);

}  // namespace gpudedup::cli

#pragma once
// XXH64 of consecutive fixed-length byte windows, several windows at once: the char
// shingles of an ASCII run (shingling.hpp) are its windows of k bytes starting at every
// byte. The path (AVX-512, AVX2 or portable) is chosen at run time, since the project is
// not built for one CPU; every path gives exactly xxhash64 of detail/xxhash64.hpp.
#include <cstddef>
#include <cstdint>

namespace gpudedup::detail {

enum class WindowHashPath { portable, avx2, avx512 };

const char* to_string(WindowHashPath path);
/// Whether this build and this CPU can run `path` (portable always can).
bool window_hash_path_supported(WindowHashPath path);
/// The fastest supported path.
WindowHashPath best_window_hash_path();

/// Shortest and longest window the block paths take; other lengths hash one by one.
constexpr uint32_t min_block_window = 3;
constexpr uint32_t max_block_window = 8;

/// out[i] = xxhash64(s + i, k) for i < count, with min_block_window <= k <= max_block_window.
/// Reads no byte at or past s + readable (readable >= count + k - 1); falls back to the
/// portable path where `path` is not supported.
void hash_windows(WindowHashPath path, uint32_t k, const uint8_t* s, size_t count, size_t readable,
                  uint64_t* out);

}  // namespace gpudedup::detail

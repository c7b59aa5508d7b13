#pragma once
// Turns a ShingleConfig into what the shingle functions of detail/shingle.hpp take, and
// computes a document's shingle-hash set on the host.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/detail/shingle.hpp"
#include "gpudedup/detail/shingle_spec.hpp"
#include "gpudedup/pod_buffer.hpp"
#include "host/shingle/window_hash.hpp"

namespace gpudedup::detail {

ShingleSpec make_shingle_spec(const ShingleConfig& config);
/// Adds Config::sampling to a spec; minwise draws its permutation from `seed`.
void set_sampling(ShingleSpec& spec, const SamplingConfig& sampling, uint64_t seed);
/// Replaces a sorted unique shingle-hash set by its sample under spec.sample.
void sample_set(const ShingleSpec& spec, std::vector<uint64_t>& set);

/// The built-in English stop words used by --stopword-anchored without --stopwords.
const std::vector<std::string>& default_stop_words();

/// The char-shingle walkers hand their hashes on this many at a time.
constexpr size_t shingle_block = 64;

/// Gathers hashes and hands them to emit(const uint64_t* hashes, size_t count) a block at
/// a time, so that a consumer can work on several (prefetch their table slots) at once.
template <class Emit>
struct ShingleBlock {
  explicit ShingleBlock(Emit& e) : emit(e) {}
  Emit& emit;
  uint64_t hashes[shingle_block];  // (left uninitialized: only [0, used) is read)
  size_t used = 0;
  void push(uint64_t h) {
    hashes[used++] = h;
    if (used == shingle_block) flush();
  }
  void flush() {
    if (used) emit(static_cast<const uint64_t*>(hashes), used);
    used = 0;
  }
};

/// for_each_char_shingle with the shingle length known at compile time when K > 0 (0:
/// the runtime k), its hashes handed on in blocks. Gives the same hashes in the same
/// order: a window of k single-byte code points (every ASCII window) is hashed straight
/// from its start, several windows at once (window_hash.hpp, `path`) when 3 <= K <= 8 and
/// with XXH64 specialized for its fixed length otherwise; only windows that touch a byte
/// >= 0x80 step through code points. tests/shingle/shingle_fast_test.cpp and
/// window_hash_test.cpp compare it with the definition.
template <uint32_t K, class Emit>
void for_each_char_shingle_host(const uint8_t* s, size_t n, uint32_t k_runtime, WindowHashPath path, Emit& emit) {
  const uint32_t k = K ? K : k_runtime;
  ShingleBlock<Emit> out(emit);
  auto cp_length = [&](size_t p) -> size_t { return s[p] < 0x80 ? 1 : decode_utf8(s + p, n - p).length; };
  auto find_high = [&](size_t from) {  // first byte >= 0x80 at or after `from` (n if none)
    while (from < n && s[from] < 0x80) ++from;
    return from;
  };
  size_t next_high = find_high(0);
  for (size_t p = 0; p < n;) {
    if (p + k <= next_high) {  // k ASCII bytes: k code points
      if constexpr (K >= min_block_window && K <= max_block_window) {
        // The run's windows (as many as the block has room for) in one call.
        const size_t count = std::min(next_high - K + 1 - p, shingle_block - out.used);
        hash_windows(path, K, s + p, count, n - p, out.hashes + out.used);
        out.used += count;
        p += count;
        if (out.used == shingle_block) out.flush();
      } else {
        out.push(xxhash64(s + p, k));
        ++p;
      }
      continue;
    }
    if (next_high < p) next_high = find_high(p);
    if (p + k <= next_high) continue;
    size_t e = p;
    uint32_t count = 0;
    while (count < k && e < n) {
      e += cp_length(e);
      ++count;
    }
    if (count < k) {  // no window of k code points left; a short text is one shingle
      if (p == 0) out.push(xxhash64(s, n));
      break;
    }
    out.push(xxhash64(s + p, e - p));
    p += cp_length(p);
  }
  out.flush();
}

/// Calls emit(hashes, count) with the char shingles of detail/shingle.hpp's
/// for_each_char_shingle, in order and in blocks of at most shingle_block.
template <class Emit>
void for_each_char_shingle_blocks(const uint8_t* s, size_t n, uint32_t k, Emit&& emit,
                                  WindowHashPath path = best_window_hash_path()) {
  switch (k) {  // the usual lengths get XXH64 specialized for their constant length
    case 3: return for_each_char_shingle_host<3>(s, n, k, path, emit);
    case 4: return for_each_char_shingle_host<4>(s, n, k, path, emit);
    case 5: return for_each_char_shingle_host<5>(s, n, k, path, emit);
    case 6: return for_each_char_shingle_host<6>(s, n, k, path, emit);
    case 7: return for_each_char_shingle_host<7>(s, n, k, path, emit);
    case 8: return for_each_char_shingle_host<8>(s, n, k, path, emit);
    default: return for_each_char_shingle_host<0>(s, n, k, path, emit);
  }
}

/// for_each_char_shingle of detail/shingle.hpp, faster on the host (same output).
template <class F>
void for_each_char_shingle_fast(const uint8_t* s, size_t n, uint32_t k, F&& f,
                                WindowHashPath path = best_window_hash_path()) {
  for_each_char_shingle_blocks(s, n, k, [&](const uint64_t* h, size_t count) {
    for (size_t i = 0; i < count; ++i) f(h[i]);
  }, path);
}

/// Calls emit(hashes, count) with every shingle of already-normalized text, in order.
template <class Emit>
void for_each_shingle_blocks(const ShingleSpec& spec, const uint8_t* text, size_t n, Emit&& emit) {
  if (spec.kind == ShingleKind::chars) {
    for_each_char_shingle_blocks(text, n, spec.k, emit);
  } else {
    const word_shingle_params wp = spec.word_params();
    ShingleBlock<Emit> out(emit);
    for_each_word_shingle(text, n, wp, [&](uint64_t h) { out.push(h); });
    out.flush();
  }
}

/// normalize_text of detail/normalize.hpp (same output), 64 bytes (AVX-512 BW and VBMI2)
/// or 16 bytes at a time where the text is ASCII (and opt lowercases ASCII and keeps
/// punctuation, the default). `out` must not overlap `in` and must have room for n + 16
/// bytes.
size_t normalize_text_fast(const uint8_t* in, size_t n, uint8_t* out, const normalize_options& opt = {});

/// Normalizes `text` into `scratch` (grown to fit) and returns the normalized length.
size_t normalize_into(std::string_view text, std::vector<uint8_t>& scratch, const normalize_options& opt = {});
/// The same under spec: its host stages (text_stages.hpp), then spec.normalize.
size_t normalize_into(const ShingleSpec& spec, std::string_view text, std::vector<uint8_t>& scratch);

/// Normalizes `text` (using `scratch`) and stores its sorted unique shingle hashes in `out`
/// (their sample, when spec.sample is set).
void shingle_set(const ShingleSpec& spec, std::string_view text, std::vector<uint8_t>& scratch,
                 std::vector<uint64_t>& out);

/// Per-thread scratch of distinct_shingle_keys: the normalized text and an open-addressing
/// table of the document's shingle hashes (reused from document to document).
struct ShingleScratch {
  std::vector<uint8_t> text;
  std::vector<uint64_t> table;
  std::vector<uint64_t> set;  ///< a sorted (sampled) set that is not itself an output
  /// When set, distinct_shingle_keys also appends each distinct hash here (first-seen
  /// order): a set sorted from them costs a sort of the distinct hashes only.
  PodBuffer<uint64_t>* distinct = nullptr;
};

/// What MinHash needs of a document without sorting its shingle set: stores in `keys`
/// fold_key(h) of every distinct shingle hash h (first-seen order) and returns the number
/// of distinct hashes, which equals the size of shingle_set's output.
size_t distinct_shingle_keys(const ShingleSpec& spec, std::string_view text, ShingleScratch& scratch,
                             std::vector<uint32_t>& keys);

/// How distinct_shingle_keys compares a hash with a bucket of its table: 8 slots in one
/// AVX-512 compare, or one slot at a time (the same table, the same output).
enum class DistinctTablePath { portable, avx512 };
/// Whether this CPU runs `path` (portable always).
bool distinct_table_path_supported(DistinctTablePath path);
/// distinct_shingle_keys on `path` (portable where this CPU lacks it); for the tests.
size_t distinct_shingle_keys(const ShingleSpec& spec, std::string_view text, ShingleScratch& scratch,
                             std::vector<uint32_t>& keys, DistinctTablePath path);

}  // namespace gpudedup::detail

#pragma once
/// @file normalize.hpp
/// The normalization of docs/architecture.md, the one definition both backends run:
///  - case: simple case folding of every script (CaseFolding.txt C+S, from the tables of
///    detail/unicode_tables.hpp; the default), ASCII A-Z only, or none;
///  - punctuation (general category P*) removed when asked;
///  - every run of Unicode White_Space becomes one space (0x20); no leading or trailing
///    space.
/// Every other byte is copied unchanged, invalid UTF-8 included. The output is never
/// longer than the input (folding never lengthens a code point), so it can be written
/// in place. NFKC and ICU word tokens are host stages that run before this
/// (detail/host_stages.hpp).
#include <cstddef>
#include <cstdint>

#include "gpudedup/detail/hd.hpp"
#include "gpudedup/detail/unicode_tables.hpp"
#include "gpudedup/detail/utf8.hpp"

namespace gpudedup::detail {

enum class case_fold_kind : uint8_t {
  none,    ///< case kept
  ascii,   ///< A-Z lowercased, nothing else (the rule before Unicode folding)
  simple,  ///< simple case folding of every script
};

/// What normalize_text does besides collapsing white space (plain data for the kernels).
struct normalize_options {
  case_fold_kind fold = case_fold_kind::simple;
  bool remove_punctuation = false;
};

/// One step of normalize_text: the code point at in[i] (i < n), with `o` the output
/// length so far and `pending_space` whether white space awaits the next visible code
/// point. Returns the position after the code point.
GD_HD size_t normalize_step(const uint8_t* in, size_t n, size_t i, uint8_t* out, size_t& o,
                            bool& pending_space, const normalize_options& opt) {
  const uint8_t b = in[i];
  if (b < 0x80) {  // ASCII fast path
    if (b == 0x20 || (b >= 0x09 && b <= 0x0D)) {
      pending_space = o > 0;
    } else if (!(opt.remove_punctuation && is_punctuation(b))) {
      if (pending_space) { out[o++] = 0x20; pending_space = false; }
      const bool upper = b >= 'A' && b <= 'Z' && opt.fold != case_fold_kind::none;
      out[o++] = upper ? uint8_t(b + 32) : b;
    }
    return i + 1;
  }
  const code_point cp = decode_utf8(in + i, n - i);
  const bool valid = cp.value != invalid_code_point;
  if (valid && is_white_space(cp.value)) {
    pending_space = o > 0;
    return i + cp.length;
  }
  if (valid && opt.remove_punctuation && is_punctuation(cp.value)) return i + cp.length;
  if (pending_space) { out[o++] = 0x20; pending_space = false; }
  const uint32_t folded = valid && opt.fold == case_fold_kind::simple ? simple_case_fold(cp.value) : cp.value;
  if (folded != cp.value) {
    o += encode_utf8(folded, out + o);  // never longer than cp.length (unicode_tables.hpp)
  } else {
    for (uint32_t k = 0; k < cp.length; ++k) out[o++] = in[i + k];
  }
  return i + cp.length;
}

/// Writes the normalized form of in[0, n) to out and returns its length (never more than
/// n). `out` may equal `in`: the output never overtakes the input.
GD_HD size_t normalize_text(const uint8_t* in, size_t n, uint8_t* out, const normalize_options& opt = {}) {
  size_t o = 0;
  bool pending_space = false;
  for (size_t i = 0; i < n;) i = normalize_step(in, n, i, out, o, pending_space, opt);
  return o;
}

}  // namespace gpudedup::detail

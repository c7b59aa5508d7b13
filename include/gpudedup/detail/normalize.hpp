#pragma once
/// @file normalize.hpp
/// The default normalization of docs/architecture.md: ASCII A-Z lowercased; every run of Unicode
/// White_Space becomes one space (0x20); no leading or trailing space. Every other byte
/// is copied unchanged, invalid UTF-8 included.
#include <cstddef>
#include <cstdint>

#include "gpudedup/detail/hd.hpp"
#include "gpudedup/detail/utf8.hpp"

namespace gpudedup::detail {

/// One step of normalize_text: the code point at in[i] (i < n), with `o` the output
/// length so far and `pending_space` whether white space awaits the next visible code
/// point. Returns the position after the code point.
GD_HD size_t normalize_step(const uint8_t* in, size_t n, size_t i, uint8_t* out, size_t& o,
                            bool& pending_space) {
  const uint8_t b = in[i];
  if (b < 0x80) {  // ASCII fast path
    if (b == 0x20 || (b >= 0x09 && b <= 0x0D)) {
      pending_space = o > 0;
    } else {
      if (pending_space) { out[o++] = 0x20; pending_space = false; }
      out[o++] = (b >= 'A' && b <= 'Z') ? uint8_t(b + 32) : b;
    }
    return i + 1;
  }
  const code_point cp = decode_utf8(in + i, n - i);
  if (cp.value != invalid_code_point && is_white_space(cp.value)) {
    pending_space = o > 0;
  } else {
    if (pending_space) { out[o++] = 0x20; pending_space = false; }
    for (uint32_t k = 0; k < cp.length; ++k) out[o++] = in[i + k];
  }
  return i + cp.length;
}

/// Writes the normalized form of in[0, n) to out and returns its length (never more than
/// n). `out` may equal `in`: the output never overtakes the input.
GD_HD size_t normalize_text(const uint8_t* in, size_t n, uint8_t* out) {
  size_t o = 0;
  bool pending_space = false;
  for (size_t i = 0; i < n;) i = normalize_step(in, n, i, out, o, pending_space);
  return o;
}

}  // namespace gpudedup::detail

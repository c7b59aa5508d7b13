#pragma once
// What the host text stages take from ICU (icu_text.cpp), behind plain functions so that a
// build without ICU at run time (the GPU test bundle) links icu_text_missing.cpp instead.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace gpudedup::detail {

/// False in a build without ICU: the functions below then throw usage_error.
bool icu_available();

/// NFKC of text, invalid UTF-8 bytes copied unchanged.
void nfkc_into(std::string_view text, std::string& out);

/// Calls f(begin, end) for every ICU word segment of s[0, n) that is not white space,
/// split at spaces (a segment may hold a space followed by a combining mark).
void for_each_icu_token(const uint8_t* s, size_t n, const std::function<void(size_t, size_t)>& f);

/// ICU's simple case folding and P* test of a code point: the reference the generated
/// tables are tested against.
uint32_t icu_simple_case_fold(uint32_t c);
bool icu_is_punctuation(uint32_t c);

}  // namespace gpudedup::detail

#pragma once
// The host stages of normalization (docs/architecture.md, "Definitions"), run before the
// shared normalize_text of detail/normalize.hpp on both backends:
//  1. NFKC (ICU Normalizer2), when spec.nfkc: compatibility decompositions need tables
//     far larger than the device's share, so the host applies them and both backends
//     read the result. Invalid UTF-8 bytes are kept as they are, between NFKC'd runs.
//  2. ICU word tokens, when spec.icu_tokens: the text is normalized (normalize_text) and
//     segmented by ICU's word break iterator (dictionary-based for Chinese, Japanese,
//     Thai); the words are written joined by single spaces. This text is the hand-off to
//     the kernels: normalize_text leaves it unchanged (it is already normalized) and the
//     shared walkers split it on spaces only, so both backends see the same tokens.
#include <functional>
#include <string>
#include <string_view>

#include "gpudedup/document_batch.hpp"
#include "gpudedup/detail/shingle_spec.hpp"

namespace gpudedup::detail {

/// Writes text after spec's host stages to `out`; false (out untouched) when it has none.
bool apply_host_stages(const ShingleSpec& spec, std::string_view text, std::string& out);

/// Every text of `batch` after spec's host stages (spec.has_host_stages() must be true).
DocumentBatch apply_host_stages(const ShingleSpec& spec, const DocumentBatch& batch);

/// NFKC of text, invalid UTF-8 bytes copied unchanged.
void nfkc_into(std::string_view text, std::string& out);

/// Calls f(begin, end) for every ICU word segment of s[0, n) that is not white space,
/// split at spaces (a segment may hold a space followed by a combining mark).
void for_each_icu_token(const uint8_t* s, size_t n, const std::function<void(size_t, size_t)>& f);

}  // namespace gpudedup::detail

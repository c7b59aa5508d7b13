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
//
// Host code (host/shingle/text_stages.cpp, with ICU): only declared here, so that both
// backends (kernels/ included) call the one implementation through the math room.
#include <string>
#include <string_view>

#include "gpudedup/detail/shingle_spec.hpp"

namespace gpudedup {
struct DocumentBatch;  // gpudedup/document_batch.hpp, which callers include
}

namespace gpudedup::detail {

/// Writes text after spec's host stages to `out`; false (out untouched) when it has none.
bool apply_host_stages(const ShingleSpec& spec, std::string_view text, std::string& out);

/// Every text of `batch` after spec's host stages (spec.has_host_stages() must be true).
DocumentBatch apply_host_stages(const ShingleSpec& spec, const DocumentBatch& batch);

}  // namespace gpudedup::detail

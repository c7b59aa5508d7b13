#pragma once
// Test helper: a DocumentBatch from literal texts.
#include <cstdint>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "gpudedup/document_batch.hpp"

namespace test_support {

gpudedup::DocumentBatch batch_of(std::initializer_list<const char*> texts);
/// n random words of 2..9 letters a-z, each followed by a space.
std::string random_letter_words(std::mt19937_64& rng, size_t n);

/// n documents of random words (each followed by a space 3 times in 4, else glued to the
/// next), up to max_words each, the last one long_words long (a long document).
gpudedup::DocumentBatch random_word_documents(const std::vector<std::string>& words, size_t n, uint64_t seed,
                                              size_t max_words, size_t long_words);

}  // namespace test_support

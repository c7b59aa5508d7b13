#pragma once
// Test helper: a DocumentBatch from literal texts.
#include <initializer_list>

#include "gpudedup/document_batch.hpp"

namespace test_support {

gpudedup::DocumentBatch batch_of(std::initializer_list<const char*> texts);

}  // namespace test_support

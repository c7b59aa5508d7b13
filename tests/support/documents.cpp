#include "support/documents.hpp"

namespace test_support {

gpudedup::DocumentBatch batch_of(std::initializer_list<const char*> texts) {
  gpudedup::DocumentBatch b;
  for (auto t : texts) b.add(t);
  return b;
}

}  // namespace test_support

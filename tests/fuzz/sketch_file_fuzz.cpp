// The sketch-file reader (host/minhash/sketch_file.cpp): any bytes are read or refused
// with data_error, never crash or allocate past what the file can hold; a file it reads
// holds as many records as its header says, each of num_perm values.
#include <vector>

#include "fuzz_support.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/sketch_file.hpp"

using namespace gpudedup;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::TempFile file(data, size, ".gdsk");
  try {
    std::vector<SketchRecord> records;
    const SketchHeader h = read_sketch_file(file.path(), &records);
    fuzz::require(records.size() == h.documents, "records read differ from the header's count");
    for (const auto& r : records) fuzz::require(r.values.size() == h.num_perm, "a record without num_perm values");
  } catch (const data_error&) {
  }
  return 0;
}

#include "host/bloom/bloom_method.hpp"

#include "gpudedup/bloom.hpp"

namespace gpudedup::detail {

MethodEntry bloom_method() {
  MethodEntry e;
  e.name = "bloom";
  e.description = "m-bit Bloom filters of the shingle sets, compared by a popcount measure";
  e.reads = {"bloom", "sampling"};
  e.validate = [](const Config& c) { c.bloom.validate(); };
  e.make = [](const Config& c) { return std::make_unique<BloomEngine>(c); };
  return e;
}

}  // namespace gpudedup::detail

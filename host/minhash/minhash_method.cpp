#include "host/minhash/minhash_method.hpp"

#include "gpudedup/minhash.hpp"

namespace gpudedup::detail {

MethodEntry minhash_method() {
  MethodEntry e;
  e.name = "minhash";
  e.description = "MinHash signatures, LSH band buckets, verified by estimate or exact sets";
  e.reads = {"lsh", "verify", "similarity", "sampling"};
  e.validate = [](const Config& c) { c.lsh.validate(c.minhash.num_perm); };
  e.make = [](const Config& c) { return std::make_unique<MinHashEngine>(c); };
  return e;
}

}  // namespace gpudedup::detail

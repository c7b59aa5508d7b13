#include "host/minhash/minhash_method.hpp"

#include "gpudedup/errors.hpp"
#include "gpudedup/minhash.hpp"

namespace gpudedup::detail {

MethodEntry minhash_method() {
  MethodEntry e;
  e.name = "minhash";
  e.description = "MinHash signatures, LSH band buckets, verified by estimate or exact sets";
  e.reads = {"lsh", "verify", "similarity", "sampling", "memory"};
  e.validate = [](const Config& c) {
    c.lsh.validate(c.minhash.num_perm);
    const bool one_way = c.similarity == Similarity::containment_a || c.similarity == Similarity::containment_b;
    GD_EXPECTS(!one_way || (c.sampling.kind != SampleKind::minwise && c.sampling.kind != SampleKind::mins),
               std::string("`similarity` ") + to_string(c.similarity) + " does not combine with `sampling.kind` " +
                   to_string(c.sampling.kind) + " (bottom-s estimators are symmetric); use jaccard or containment");
  };
  e.make = [](const Config& c) { return std::make_unique<MinHashEngine>(c); };
  return e;
}

}  // namespace gpudedup::detail

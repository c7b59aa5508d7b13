#include "host/simhash/simhash_method.hpp"

#include "gpudedup/errors.hpp"
#include "gpudedup/simhash.hpp"

namespace gpudedup::detail {

MethodEntry simhash_method() {
  MethodEntry e;
  e.name = "simhash";
  e.description = "weighted 64-bit SimHash fingerprints, exact search within Hamming distance k";
  e.reads = {"simhash", "verify"};
  e.validate = [](const Config& c) {
    c.simhash.validate();
    GD_EXPECTS(c.simhash.verify != VerifyMode::automatic,
               "`simhash.verify` auto is MinHash's (borderline estimates checked exactly): give simhash exact, "
               "estimate or none");
    GD_EXPECTS(c.sampling.kind == SampleKind::none,
               "`sampling.kind` applies to shingle sets (`method` minhash, exact or bloom), not to `method` simhash");
  };
  e.make = [](const Config& c) { return std::make_unique<SimHashEngine>(c); };
  return e;
}

}  // namespace gpudedup::detail

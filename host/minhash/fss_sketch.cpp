// The `--sketch fss` signature on the CPU: detail/fss_minhash.hpp's definition, with the
// unreached bins' permutations folded a vector of bins at a time.
#include "host/minhash/fss_sketch.hpp"

#include <algorithm>

#include "gpudedup/detail/fss_minhash.hpp"

namespace gpudedup::detail {

void fss_sketch_keys(uint32_t* sig, const oph_params& p, const MinhashFolder& folder, const uint32_t* keys,
                     size_t n, FssScratch& scratch) {
  std::fill(sig, sig + p.bins, empty_signature_value);
  if (n == 0) return;  // a document without shingles keeps every bin empty
  for (size_t s = 0; s < n; ++s) fss_update_key(sig, p, keys[s]);  // round one
  // The unreached bins listed without a branch per bin (about half of a short text's bins
  // are unreached, an unpredictable branch).
  scratch.unreached.resize(p.bins);
  uint32_t count = 0;
  for (uint32_t i = 0; i < p.bins; ++i) {
    scratch.unreached[count] = i;
    count += sig[i] == empty_signature_value;
  }
  if (count == 0) return;
  scratch.mins.resize(count);
  folder.fold_selected(scratch.unreached.data(), count, scratch.mins.data(), keys, n, scratch.blocks);
  for (uint32_t j = 0; j < count; ++j) sig[scratch.unreached[j]] = fss_fill_value(scratch.mins[j]);
}

}  // namespace gpudedup::detail

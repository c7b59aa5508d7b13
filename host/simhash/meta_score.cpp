// The combined score of issue 4: Hamming closeness of the fingerprints blended with the
// MinHash-estimated Jaccard of the documents' metadata sets.
#include <algorithm>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/normalize.hpp"
#include "host/simhash/simhash_detail.hpp"

namespace gpudedup {

double simhash_score(uint32_t distance, double meta_jaccard, double meta_weight) {
  return meta_weight / (1.0 + double(distance)) + (1.0 - meta_weight) * meta_jaccard;
}

namespace detail {

std::vector<uint32_t> meta_signature(const std::vector<std::string>& set, uint32_t num_perm, uint64_t seed) {
  std::vector<uint64_t> a(num_perm), b(num_perm);
  make_permutations(seed, num_perm, a.data(), b.data());
  std::vector<uint32_t> sig(num_perm, empty_signature_value);
  std::vector<uint8_t> buf;
  for (const auto& s : set) {
    buf.assign(s.begin(), s.end());
    const size_t n = normalize_text(buf.data(), buf.size(), buf.data());
    if (n == 0) continue;  // an element that normalizes to nothing carries no information
    minhash_update(sig.data(), a.data(), b.data(), num_perm, xxhash64(buf.data(), n));
  }
  return sig;
}

double meta_jaccard(const uint32_t* x, const uint32_t* y, uint32_t num_perm) {
  // A set with no element keeps every value at empty_signature_value.
  auto empty = [&](const uint32_t* s) {
    return std::all_of(s, s + num_perm, [](uint32_t v) { return v == empty_signature_value; });
  };
  if (num_perm == 0 || empty(x) || empty(y)) return 0.0;
  return double(equal_values(x, y, num_perm)) / double(num_perm);
}

}  // namespace detail
}  // namespace gpudedup

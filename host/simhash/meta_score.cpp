// The combined score of issue 4: Hamming closeness of the fingerprints blended with the
// MinHash-estimated Jaccard of the documents' metadata sets.
#include <algorithm>

#include "gpudedup/detail/minhash.hpp"
#include "host/shingle/shingling.hpp"
#include "host/simhash/simhash_detail.hpp"

namespace gpudedup {

double simhash_score(uint32_t distance, double meta_jaccard, double meta_weight) {
  return meta_weight / (1.0 + double(distance)) + (1.0 - meta_weight) * meta_jaccard;
}

namespace detail {

void meta_signatures(const MetadataBatch& meta, const uint64_t* a, const uint64_t* b, uint32_t num_perm,
                     std::vector<uint32_t>& out, std::vector<uint8_t>& scratch) {
  const size_t first = out.size();
  out.resize(first + meta.size() * size_t(num_perm), empty_signature_value);
  for (size_t i = 0; i < meta.size(); ++i) {
    uint32_t* sig = out.data() + first + i * size_t(num_perm);
    for (size_t j = 0; j < meta.set_size(i); ++j) {
      const size_t n = normalize_into(meta.element(i, j), scratch);
      if (n == 0) continue;  // an element that normalizes to nothing carries no information
      minhash_update(sig, a, b, num_perm, xxhash64(scratch.data(), n));
    }
  }
}

std::vector<uint32_t> meta_signature(const std::vector<std::string>& set, uint32_t num_perm, uint64_t seed) {
  std::vector<uint64_t> a(num_perm), b(num_perm);
  make_permutations(seed, num_perm, a.data(), b.data());
  MetadataBatch one;
  for (const auto& s : set) one.add_element(s);
  one.end_set();
  std::vector<uint32_t> sig;
  std::vector<uint8_t> scratch;
  meta_signatures(one, a.data(), b.data(), num_perm, sig, scratch);
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

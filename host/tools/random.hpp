#pragma once
// Portable randomness for the corpus generator. splitmix64 (Steele, Lea, Flood 2014) is
// tiny, passes BigCrush and gives the same stream everywhere; the distributions are
// written out here because std:: distributions differ between standard libraries.
#include <cmath>
#include <cstdint>
#include <vector>

namespace gpudedup::tools {

/// The splitmix64 finalizer: a bijective 64-bit mix.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Seed of an independent stream named by (seed, tag, a, b): each document gets its own,
/// so documents can be generated in any order, on any number of threads.
inline uint64_t stream_seed(uint64_t seed, uint64_t tag, uint64_t a = 0, uint64_t b = 0) {
  uint64_t h = mix64(seed + 0x9E3779B97F4A7C15ull);
  h = mix64(h ^ (tag * 0xD6E8FEB86659FD93ull));
  h = mix64(h ^ (a + 0x632BE59BD9B4E019ull));
  return mix64(h ^ (b + 0x8CB92BA72F3D8DD7ull));
}

// GCC/Clang extension, marked so -Wpedantic accepts it: one 64x64->128 multiply.
__extension__ typedef unsigned __int128 uint128;

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    return mix64(state_);
  }
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
  /// Uniform in [0, n), n >= 1 (Lemire's multiply-shift; bias below 2^-64 * n).
  uint64_t below(uint64_t n) { return uint64_t(uint128(next()) * n >> 64); }
  bool chance(double p) { return uniform() < p; }
  /// Standard normal (Box-Muller; one value per call keeps the stream simple).
  double normal() {
    const double u1 = 1.0 - uniform();  // (0, 1]: log stays finite
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  uint64_t state_;
};

/// Walker/Vose alias table: O(1) samples from a fixed discrete distribution.
class AliasTable {
 public:
  AliasTable() = default;
  explicit AliasTable(const std::vector<double>& weights);
  uint32_t sample(Rng& rng) const {
    const uint32_t i = uint32_t(rng.below(prob_.size()));
    return rng.uniform() < prob_[i] ? i : alias_[i];
  }
  size_t size() const { return prob_.size(); }

 private:
  std::vector<double> prob_;
  std::vector<uint32_t> alias_;
};

inline AliasTable::AliasTable(const std::vector<double>& weights)
    : prob_(weights.size()), alias_(weights.size()) {
  const size_t n = weights.size();
  double total = 0;
  for (double w : weights) total += w;
  std::vector<double> scaled(n);
  std::vector<uint32_t> small, large;
  for (size_t i = 0; i < n; ++i) {
    scaled[i] = weights[i] * double(n) / total;
    (scaled[i] < 1.0 ? small : large).push_back(uint32_t(i));
  }
  while (!small.empty() && !large.empty()) {
    const uint32_t s = small.back(), l = large.back();
    small.pop_back();
    prob_[s] = scaled[s];
    alias_[s] = l;
    scaled[l] = (scaled[l] + scaled[s]) - 1.0;
    if (scaled[l] < 1.0) {
      large.pop_back();
      small.push_back(l);
    }
  }
  for (uint32_t i : large) prob_[i] = 1.0, alias_[i] = i;
  for (uint32_t i : small) prob_[i] = 1.0, alias_[i] = i;  // rounding leftovers
}

}  // namespace gpudedup::tools

// The block tables of the pigeonhole search (Manku, Jain, Das Sarma, WWW 2007): m
// contiguous blocks of the 64 bits; one table per choice of m-k blocks.
#include <algorithm>
#include <cmath>
#include <string>

#include "gpudedup/errors.hpp"
#include "host/simhash/simhash_detail.hpp"

namespace gpudedup::detail {

std::vector<uint64_t> split_bits(uint64_t bits, uint32_t parts) {
  const uint32_t total = uint32_t(__builtin_popcountll(bits));
  std::vector<uint64_t> out(parts, 0);
  uint32_t seen = 0;
  for (int b = 0; b < 64; ++b) {
    if (!((bits >> b) & 1u)) continue;
    // Part p takes set bits [p*total/parts, (p+1)*total/parts): sizes differ by <= 1.
    const uint32_t p = uint32_t(uint64_t(seen) * parts / total);
    out[p] |= uint64_t(1) << b;
    ++seen;
  }
  return out;
}

size_t split_threshold(size_t n, size_t runs, double split_factor) {
  const double mean = runs ? double(n) / double(runs) : 1.0;
  return std::max(min_split_run, size_t(std::ceil((1.0 + split_factor) * mean)));
}

HammingPlan make_hamming_plan(uint32_t k, uint32_t m, double split_factor) {
  GD_EXPECTS(k <= 32, "`simhash.hamming` must be in 0..32, got " + std::to_string(k));
  if (m == 0) m = k + 1;
  GD_EXPECTS(m >= k + 1 && m <= 64,
             "`simhash.blocks` must be in " + std::to_string(k + 1) + "..64 (at least `simhash.hamming` + 1), got " +
                 std::to_string(m));
  GD_EXPECTS(std::isfinite(split_factor) && split_factor >= 0,
             "`simhash.split_factor` must be >= 0, got " + std::to_string(split_factor));
  HammingPlan plan;
  plan.k = k;
  plan.split_factor = split_factor;
  const std::vector<uint64_t> blocks = split_bits(~uint64_t(0), m);
  // Tables: every (m-k)-subset of the blocks, in lexicographic order.
  const uint32_t r = m - k;
  std::vector<uint32_t> pick(r);
  for (uint32_t i = 0; i < r; ++i) pick[i] = i;
  while (true) {
    uint64_t mask = 0;
    for (uint32_t i : pick) mask |= blocks[i];
    plan.table_masks.push_back(mask);
    GD_EXPECTS(plan.table_masks.size() <= max_hamming_tables,
               "`simhash.blocks` " + std::to_string(m) + " with `simhash.hamming` " + std::to_string(k) +
                   " needs more than " + std::to_string(max_hamming_tables) +
                   " tables (C(m, m-k)); use fewer blocks");
    int i = int(r) - 1;
    while (i >= 0 && pick[i] == m - r + uint32_t(i)) --i;
    if (i < 0) break;
    ++pick[i];
    for (uint32_t j = uint32_t(i) + 1; j < r; ++j) pick[j] = pick[j - 1] + 1;
  }
  return plan;
}

}  // namespace gpudedup::detail

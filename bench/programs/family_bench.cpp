// The spread of the MinHash estimate under three permutation families, on pairs of real
// documents with known exact Jaccard (issue 17, item 1: "check whether a permutation
// family with better independence lowers the spread"). Driven by bench/accuracy/family_spread.py,
// which picks the pairs; not a default of the engine.
//
//   family_bench --texts FILE --pairs FILE [--seeds 1-8] [--num-perm 256]
//                [--families multiply-shift,circulant,independent]
//
// --texts: u32 count, then per document u32 length + UTF-8 bytes. --pairs: lines
// "i<TAB>j<TAB>J<TAB>band" (indices into the texts, exact Jaccard of the corpus's exact
// join, band label). The shingle sets are the engine's (default config: the `dedup`
// command's normalization and char 5-grams); each pair's Jaccard is recomputed from
// them as a check that both sides see the same sets.
//
// Families, for the 32-bit key k = fold_key(shingle hash) and permutation i < P:
//   multiply-shift  hi32(a_i * k + b_i mod 2^64), a_i, b_i from SplitMix64(seed): the
//                   engine's family (detail/minhash.hpp), 2-universal
//   C-MinHash       pi((sigma(k) + i) mod 2^32): one random permutation sigma of the
//                   keys, then P circulant shifts of a second one, pi (Li & Li 2022,
//                   "C-MinHash: Improving minwise hashing with circulant permutation");
//                   sigma and pi are seeded 32-bit bijective mixers standing in for
//                   random permutations
//   independent     mix64(k ^ c_i) >> 32 with a 64-bit finalizer and P seeds c_i: a
//                   stand-in for P fully independent permutations (the textbook case)
// Per band and family: the mean error, the per-seed mean error's min..max and standard
// deviation across seeds (what moves recall from seed to seed), and the root mean square
// error of one pair's estimate over pairs and seeds against sqrt(J(1-J)/P).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/minhash.hpp"

using namespace gpudedup;
using detail::fold_key;

namespace {

struct Pair {
  uint32_t i, j;
  double exact;
  std::string band;
};

[[noreturn]] void usage(const std::string& msg) {
  std::fprintf(stderr, "family_bench: %s\nusage: family_bench --texts FILE --pairs FILE [--seeds 1-8] "
                       "[--num-perm 256] [--families multiply-shift,circulant,independent]\n", msg.c_str());
  std::exit(2);
}

DocumentBatch read_texts(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) usage(path + ": cannot open (bench/accuracy/family_spread.py writes it)");
  uint32_t count = 0;
  in.read(reinterpret_cast<char*>(&count), 4);
  DocumentBatch batch;
  std::string text;
  for (uint32_t d = 0; d < count; ++d) {
    uint32_t length = 0;
    in.read(reinterpret_cast<char*>(&length), 4);
    text.resize(length);
    in.read(text.data(), length);
    if (!in) usage(path + ": truncated at document " + std::to_string(d));
    batch.add(text);
  }
  return batch;
}

std::vector<Pair> read_pairs(const std::string& path, size_t documents) {
  std::ifstream in(path);
  if (!in) usage(path + ": cannot open (bench/accuracy/family_spread.py writes it)");
  std::vector<Pair> pairs;
  std::string line;
  for (size_t n = 1; std::getline(in, line); ++n) {
    std::istringstream ss(line);
    Pair p;
    if (!(ss >> p.i >> p.j >> p.exact >> p.band) || p.i >= documents || p.j >= documents)
      usage(path + ":" + std::to_string(n) + ": expected i, j (document indices), J, band");
    pairs.push_back(p);
  }
  return pairs;
}

uint32_t mix32(uint32_t x) {  // a bijection of 32-bit values (lowbias32)
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  return x ^ (x >> 16);
}

uint64_t mix64(uint64_t z) {  // SplitMix64's finalizer
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

enum class Family { multiply_shift, circulant, independent };
constexpr Family families[] = {Family::multiply_shift, Family::circulant, Family::independent};
const char* key(Family f) {
  return f == Family::multiply_shift ? "multiply-shift" : f == Family::circulant ? "circulant" : "independent";
}
const char* name(Family f) {
  return f == Family::multiply_shift ? "multiply-shift (default)" : f == Family::circulant ? "C-MinHash" : "independent";
}

std::vector<uint32_t> signature(Family f, uint64_t seed, uint32_t P, const uint64_t* set, size_t n) {
  std::vector<uint32_t> sig(P, detail::empty_signature_value);
  uint64_t state = seed;
  if (f == Family::multiply_shift) {
    std::vector<uint64_t> a(P), b(P);
    detail::make_permutations(seed, P, a.data(), b.data());
    for (size_t s = 0; s < n; ++s) detail::minhash_update(sig.data(), a.data(), b.data(), P, set[s]);
  } else if (f == Family::circulant) {
    const uint32_t s1 = uint32_t(detail::splitmix64_next(state)), s2 = uint32_t(detail::splitmix64_next(state)),
                   s3 = uint32_t(detail::splitmix64_next(state));
    for (size_t s = 0; s < n; ++s) {
      const uint32_t y = mix32(fold_key(set[s]) ^ s1);  // sigma
      for (uint32_t i = 0; i < P; ++i) sig[i] = std::min(sig[i], mix32(mix32((y + i) ^ s2) ^ s3));  // pi(y + i)
    }
  } else {
    std::vector<uint64_t> c(P);
    for (auto& x : c) x = detail::splitmix64_next(state);
    for (size_t s = 0; s < n; ++s) {
      const uint64_t k = fold_key(set[s]);
      for (uint32_t i = 0; i < P; ++i) sig[i] = std::min(sig[i], uint32_t(mix64(k ^ c[i]) >> 32));
    }
  }
  return sig;
}

double jaccard(const uint64_t* x, size_t nx, const uint64_t* y, size_t ny) {
  size_t i = 0, j = 0, common = 0;
  while (i < nx && j < ny) {
    if (x[i] < y[j]) ++i;
    else if (y[j] < x[i]) ++j;
    else { ++common; ++i; ++j; }
  }
  const size_t uni = nx + ny - common;
  return uni ? double(common) / double(uni) : 1.0;
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? NAN : s / double(v.size());
}

double stdev(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / double(v.size() - 1));
}

}  // namespace

int main(int argc, char** argv) {
  std::string texts_path, pairs_path, wanted = "multiply-shift,circulant,independent";
  uint32_t seed_lo = 1, seed_hi = 8, P = 256;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage("missing value for " + a);
      return argv[++i];
    };
    if (a == "--texts") texts_path = value();
    else if (a == "--pairs") pairs_path = value();
    else if (a == "--families") wanted = value();
    else if (a == "--num-perm") P = uint32_t(std::stoul(value()));
    else if (a == "--seeds") {
      const std::string s = value();
      const size_t dash = s.find('-');
      seed_lo = uint32_t(std::stoul(s.substr(0, dash)));
      seed_hi = dash == std::string::npos ? seed_lo : uint32_t(std::stoul(s.substr(dash + 1)));
    } else usage("unknown option " + a);
  }
  if (texts_path.empty() || pairs_path.empty()) usage("--texts and --pairs are required");
  const DocumentBatch batch = read_texts(texts_path);
  const std::vector<Pair> pairs = read_pairs(pairs_path, batch.size());
  const ShingleSets sets = MinHashEngine(Config{}).shingle_sets(batch);

  double worst = 0;
  for (const Pair& p : pairs)
    worst = std::max(worst, std::fabs(jaccard(sets.set(p.i), sets.set_size(p.i), sets.set(p.j), sets.set_size(p.j)) -
                                      p.exact));
  std::printf("%zu documents, %zu pairs; largest |Jaccard of the engine's sets - the given exact Jaccard| = %.2g\n"
              "P = %u, seeds %u-%u\n\n", batch.size(), pairs.size(), worst, P, seed_lo, seed_hi);

  std::printf("| family | exact Jaccard | pairs | mean error | per-seed means min..max | sd across seeds | "
              "RMSE of one estimate | sqrt(J(1-J)/P) |\n|---|---|---:|---:|---|---:|---:|---:|\n");
  for (Family f : families) {
    if (("," + wanted + ",").find(std::string(",") + key(f) + ",") == std::string::npos) continue;
    // band -> per-seed mean errors; band -> squared errors of every (pair, seed)
    std::map<std::string, std::vector<double>> seed_means, squares, theory;
    for (uint32_t seed = seed_lo; seed <= seed_hi; ++seed) {
      std::vector<std::vector<uint32_t>> sigs(batch.size());
#pragma omp parallel for schedule(dynamic, 4)
      for (size_t d = 0; d < batch.size(); ++d) sigs[d] = signature(f, seed, P, sets.set(d), sets.set_size(d));
      std::map<std::string, std::vector<double>> errors;
      for (const Pair& p : pairs) {
        const double est = double(detail::equal_values(sigs[p.i].data(), sigs[p.j].data(), P)) / P;
        errors[p.band].push_back(est - p.exact);
        squares[p.band].push_back((est - p.exact) * (est - p.exact));
        if (seed == seed_lo) theory[p.band].push_back(p.exact * (1 - p.exact) / P);
      }
      for (auto& [band, e] : errors) seed_means[band].push_back(mean(e));
    }
    for (auto& [band, means] : seed_means) {
      std::printf("| %s | %s | %zu | %+.4f | %+.4f..%+.4f | %.4f | %.4f | %.4f |\n", name(f), band.c_str(),
                  theory[band].size(), mean(means), *std::min_element(means.begin(), means.end()),
                  *std::max_element(means.begin(), means.end()), stdev(means), std::sqrt(mean(squares[band])),
                  std::sqrt(mean(theory[band])));
    }
  }
  return 0;
}

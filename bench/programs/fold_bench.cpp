// The CPU MinHash fold alone: seconds and nanoseconds per (shingle, permutation) pair
// on one thread, for every fold path this CPU runs (host/minhash/minhash_fold.hpp).
//
//   fold_bench [--sets FILE] [--documents N --set-size S] [--perms 64,128,256] [--repeat R]
//
// --sets reads pre-hashed shingle sets written by bench/speed/fold_vs_rensa.py (the same sets
// rensa is timed on): little-endian uint64 document count D, D + 1 offsets, then the
// hashes. Without it, N random sets of S hashes. The keys are folded to 32 bits first, as
// the CPU backend does once per document, and that is timed too (it is part of the
// sketch). Each figure is the best of R runs of the thread's CPU time (on a shared
// machine wall time also counts the time other processes ran). Prints a markdown table.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gpudedup/detail/minhash.hpp"
#include "host/minhash/minhash_fold.hpp"

using namespace gpudedup::detail;

namespace {

struct FlatSets {
  std::vector<uint64_t> offsets{0};
  std::vector<uint64_t> hashes;
};

[[noreturn]] void usage(const std::string& msg) {
  std::fprintf(stderr, "fold_bench: %s\nusage: fold_bench [--sets FILE] [--documents N --set-size S] "
                       "[--perms 64,128,256] [--repeat R]\n", msg.c_str());
  std::exit(2);
}

FlatSets read_sets(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) usage(path + ": cannot open (write it with bench/speed/fold_vs_rensa.py)");
  uint64_t docs = 0;
  in.read(reinterpret_cast<char*>(&docs), 8);
  FlatSets s;
  s.offsets.resize(docs + 1);
  in.read(reinterpret_cast<char*>(s.offsets.data()), std::streamsize(8 * (docs + 1)));
  if (!in || s.offsets[0] != 0 || !std::is_sorted(s.offsets.begin(), s.offsets.end()))
    usage(path + ": not a set file of bench/speed/fold_vs_rensa.py (bad header or offsets)");
  s.hashes.resize(s.offsets.back());
  in.read(reinterpret_cast<char*>(s.hashes.data()), std::streamsize(8 * s.hashes.size()));
  if (!in) usage(path + ": truncated (fewer hashes than its offsets say)");
  return s;
}

FlatSets random_sets(size_t docs, size_t set_size) {
  std::mt19937_64 rng(7);
  FlatSets s;
  for (size_t d = 0; d < docs; ++d) {
    for (size_t i = 0; i < set_size; ++i) s.hashes.push_back(rng());
    s.offsets.push_back(s.hashes.size());
  }
  return s;
}

std::vector<uint32_t> parse_list(const std::string& text) {
  std::vector<uint32_t> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(uint32_t(std::stoul(item)));
  return out;
}

double thread_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

/// CPU seconds to sketch every set on one thread with `path`; the checksum keeps the
/// signatures live and shows that every path computed the same ones.
double time_fold(const FlatSets& s, const MinhashFolder& folder, FoldPath path, uint64_t& checksum) {
  const uint32_t P = folder.num_perm();
  std::vector<uint32_t> sig(P), keys;
  checksum = 0;
  const double t0 = thread_seconds();
  for (size_t d = 0; d + 1 < s.offsets.size(); ++d) {
    const uint64_t* h = s.hashes.data() + s.offsets[d];
    keys.resize(s.offsets[d + 1] - s.offsets[d]);
    for (size_t i = 0; i < keys.size(); ++i) keys[i] = fold_key(h[i]);
    std::fill(sig.begin(), sig.end(), empty_signature_value);
    folder.fold_keys(path, sig.data(), keys.data(), keys.size());
    for (uint32_t v : sig) checksum = checksum * 31 + v;
  }
  return thread_seconds() - t0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string sets_path;
  size_t docs = 4000, set_size = 1000;
  int repeat = 3;
  std::vector<uint32_t> perms = {64, 128, 256};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage("missing value for " + a);
      return argv[++i];
    };
    if (a == "--sets") sets_path = value();
    else if (a == "--documents") docs = std::stoull(value());
    else if (a == "--set-size") set_size = std::stoull(value());
    else if (a == "--perms") perms = parse_list(value());
    else if (a == "--repeat") repeat = std::max(1, std::stoi(value()));
    else usage("unknown option " + a);
  }
  const FlatSets s = sets_path.empty() ? random_sets(docs, set_size) : read_sets(sets_path);
  const double shingles = double(s.hashes.size());
  std::printf("sets: %zu documents, %.0f shingle hashes; one thread, its CPU time, best of %d\n\n", s.offsets.size() - 1,
              shingles, repeat);
  std::printf("| path | P | CPU seconds | ns per (shingle, permutation) | checksum |\n|---|---:|---:|---:|---|\n");
  for (uint32_t P : perms) {
    std::vector<uint64_t> a(P), b(P);
    make_permutations(1, P, a.data(), b.data());
    const MinhashFolder folder(a.data(), b.data(), P);
    for (FoldPath path : {FoldPath::portable, FoldPath::avx2, FoldPath::avx512}) {
      if (!fold_path_supported(path)) continue;
      double best = 1e300;
      uint64_t checksum = 0;
      for (int r = 0; r < repeat; ++r) best = std::min(best, time_fold(s, folder, path, checksum));
      std::printf("| %s | %u | %.3f | %.4f | %016llx |\n", to_string(path), P, best, best * 1e9 / (shingles * P),
                  (unsigned long long)checksum);
    }
  }
  return 0;
}

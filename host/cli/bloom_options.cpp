#include "host/cli/bloom_options.hpp"

#include <string>

#include "gpudedup/errors.hpp"
#include "host/cli/options.hpp"

namespace gpudedup::cli {
namespace {

/// An integer option within [lo, hi], else a usage_error naming it.
uint64_t bounded(const cxxopts::ParseResult& r, const std::string& name, int64_t lo, int64_t hi) {
  const auto v = option<int64_t>(r, name);
  GD_EXPECTS(v >= lo && v <= hi, "--" + name + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) +
                                     ", got " + std::to_string(v));
  return uint64_t(v);
}

}  // namespace

void add_bloom_options(cxxopts::Options& o) {
  o.add_options("Bloom filters (--method bloom)")
    ("bloom-bits", "m: bits per filter, a multiple of 64 up to 65536; 0: sized to the documents (5% false positives "
     "at the 90th-percentile document; reads the input twice)", cxxopts::value<int64_t>()->default_value("0"))
    ("bloom-hashes", "h: bits set per shingle, 1..32", cxxopts::value<int64_t>()->default_value("2"))
    ("bloom-long", "sample: a document with more shingles than a filter holds at 5% false positives keeps that "
     "many (bottom-s by a seeded permutation), so no filter saturates; full: every shingle (long documents' filters "
     "fill up)", cxxopts::value<std::string>()->default_value("sample"))
    ("bloom-measure", "jaccard, cosine, overlap, dice or hamming (of the filters' popcounts)",
     cxxopts::value<std::string>()->default_value("jaccard"))
    ("bloom-all-pairs-max", "compare all pairs up to this many documents (0..4294967296); bit-sampling LSH above",
     cxxopts::value<int64_t>()->default_value("1000000"))
    ("bloom-lsh-bits", "bit-sampling LSH: sampled bits per table, 1..64", cxxopts::value<int64_t>()->default_value("24"))
    ("bloom-lsh-tables", "bit-sampling LSH: tables, 1..1024", cxxopts::value<int64_t>()->default_value("64"));
  o.add_options("Shingle sampling (minhash, exact, bloom)")
    ("sample", "none, minwise (s smallest under a seeded permutation), modm (hash % m == 0) or "
     "mins (s smallest hashes)", cxxopts::value<std::string>()->default_value("none"))
    ("sample-size", "s of minwise and mins, 1..16777216", cxxopts::value<int64_t>()->default_value("200"))
    ("sample-mod", "m of modm, 1..1099511627776", cxxopts::value<int64_t>()->default_value("25"));
}

void read_bloom_options(const cxxopts::ParseResult& r, Config& c) {
  const int64_t bits = int64_t(bounded(r, "bloom-bits", 0, 65536));
  GD_EXPECTS(bits % 64 == 0, "--bloom-bits must be 0 or a multiple of 64 (64..65536), got " + std::to_string(bits));
  c.bloom.bits = uint32_t(bits);
  c.bloom.hashes = uint32_t(bounded(r, "bloom-hashes", 1, 32));
  c.bloom.measure = enum_option<BloomMeasure>(r, "bloom-measure");
  const std::string long_docs = option<std::string>(r, "bloom-long");
  GD_EXPECTS(long_docs == "sample" || long_docs == "full",
             "--bloom-long must be sample or full, got '" + long_docs + "'");
  c.bloom.sample_long = long_docs == "sample";
  c.bloom.all_pairs_limit = bounded(r, "bloom-all-pairs-max", 0, int64_t(1) << 32);
  c.bloom.lsh_bits = uint32_t(bounded(r, "bloom-lsh-bits", 1, 64));
  c.bloom.lsh_tables = uint32_t(bounded(r, "bloom-lsh-tables", 1, 1024));
  c.sampling.kind = enum_option<SampleKind>(r, "sample");
  c.sampling.size = uint32_t(bounded(r, "sample-size", 1, 1 << 24));
  c.sampling.mod = bounded(r, "sample-mod", 1, int64_t(1) << 40);
}

void check_bloom_input(const Config& c, const InputOptions& input) {
  if (c.method != "bloom" || c.bloom.bits != 0) return;
  for (const std::string& path : input.paths) {
    GD_EXPECTS(path != "-",
               "--bloom-bits 0 (the default) sizes the filters to the documents by a first pass over the input, but "
               "- (stdin) can be read only once: give --bloom-bits M (a multiple of 64, e.g. --bloom-bits 4096), or "
               "name a file in place of -");
  }
}

}  // namespace gpudedup::cli

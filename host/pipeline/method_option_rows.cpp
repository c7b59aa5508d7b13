// The options of the methods' Config groups (MethodEntry::reads): LSH, verification,
// similarity, SimHash, Bloom, sampling and memory, each declared once (gpudedup/options.hpp).
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "host/pipeline/option_row_makers.hpp"

namespace gpudedup::detail {
namespace {

// Smaller memory limits are allowed (the tests spill tiny corpora) but below 1 KiB nothing fits.
constexpr uint64_t min_memory_limit = 1024;

/// A real option's check: finite and within [0, 1].
void check_unit(const std::string& param, double v) {
  GD_EXPECTS(std::isfinite(v) && v >= 0 && v <= 1, "`" + param + "` must be in [0, 1], got " + std::to_string(v));
}

std::vector<OptionRow> lsh_rows() {
  OptionRow bands = named(count_option("lsh.bands", GD_OPTION_FIELD(lsh.bands), 1, 4096), "bands", "bands",
                          "LSH bands b, 1..--num-perm (with --rows, b x r at most --num-perm; default: chosen for "
                          "the threshold)");
  OptionRow rows = named(count_option("lsh.rows", GD_OPTION_FIELD(lsh.rows), 1, 4096), "rows", "rows",
                         "LSH rows per band r, 1..--num-perm");
  for (OptionRow* r : {&bands, &rows}) {
    r->has_default = false;  // absent: chosen for the threshold
    // The program checks the two as a pair, against --num-perm (host/cli/method_options.cpp).
    r->check = [](const Config&, double) {};
  }
  return in_group({bands, rows}, "lsh", "Method");
}

std::vector<OptionRow> verify_rows() {
  OptionRow verify = named(choice_option<VerifyMode>("verify", GD_OPTION_FIELD(verify)), "verify", "verify",
                           "auto (the estimate, and pairs within 3 standard deviations of the threshold checked by "
                           "exact Jaccard of texts read again), estimate (signature agreement), exact (shingle sets "
                           "kept) or none; simhash: verify its candidates by Jaccard >= --threshold (exact, estimate "
                           "or none; default there: estimate)");
  // MinHash's mode, and SimHash's (whose default, estimate, `verify` none turns off).
  const auto set_minhash = verify.set;
  verify.set = [set_minhash](Config& c, const OptionValue& v) {
    set_minhash(c, v);
    c.simhash.verify = c.verify;
  };
  return in_group({verify}, "verify", "Method");
}

std::vector<OptionRow> similarity_rows() {
  return in_group(
      {named(choice_option<Similarity>("similarity", GD_OPTION_FIELD(similarity)), "similarity", "similarity",
             "jaccard, containment (max of both directions), containment-a (share of the earlier document in the "
             "later) or containment-b (share of the later in the earlier); minhash searches the containments by "
             "set-size classes: excerpts down to 1:20 of their source's size are promised (misses <= 1% per pair "
             "at P=256, t>=0.5; not with --bands), smaller ones are not")},
      "similarity", "Method");
}

std::vector<OptionRow> simhash_rows() {
  OptionRow hamming =
      named(count_option("simhash.hamming", GD_OPTION_FIELD(simhash.hamming), 0, 32), "hamming", "hamming",
            "pairs within this Hamming distance k of 64 bits (0..32). Default: from --threshold, the 90th percentile "
            "of the distance of a pair at the threshold under the binomial model of SimHash (k = 16, 13, 10 at 0.7, "
            "0.8, 0.9; docs/simhash.md); the candidates are then verified (--verify estimate)");
  hamming.has_default = false;  // absent: k from the threshold
  OptionRow blocks = named(count_option("simhash.blocks", GD_OPTION_FIELD(simhash.blocks), 0, 64), "blocks",
                           "blocks", "m blocks of the fingerprint, m >= k+1; C(m, m-k) tables (0 = k+1)");
  blocks.check = [](const Config& c, double given) {
    const int64_t k = c.simhash.hamming == SimHashConfig::hamming_from_threshold ? 0 : c.simhash.hamming;
    const auto m = int64_t(given);
    GD_EXPECTS(m == 0 || (m >= k + 1 && m <= 64), "`simhash.blocks` must be 0 or in " + std::to_string(k + 1) +
                                                      "..64 (at least `simhash.hamming` + 1), got " + std::to_string(m));
  };
  OptionRow split = named(real_option("simhash.split_factor", GD_OPTION_FIELD(simhash.split_factor)), "split-factor",
                          "split_factor", "runs above (1+mu) x the mean run size are split again");
  split.check = [](const Config&, double v) {
    GD_EXPECTS(std::isfinite(v) && v >= 0 && v <= 1e6,
               "`simhash.split_factor` must be in 0..1e6, got " + std::to_string(v));
  };
  OptionRow meta_field = named(OptionRow{}, "meta-field", "meta_field",
                               "JSON array field of metadata (keywords, tags); enables the combined score");
  meta_field.param = "simhash.meta_field";
  meta_field.has_default = false;
  // Naming the field turns on SimHash's combined score: add() then needs the sets.
  meta_field.set = [](Config& c, const OptionValue& v) {
    GD_EXPECTS(!v.text.empty(), "`simhash.meta_field` must name a field");
    c.simhash.meta_field = v.text;
    c.simhash.use_meta = true;
  };
  meta_field.get = [](const Config& c) { return c.simhash.meta_field; };
  OptionRow meta_weight =
      named(real_option("simhash.meta_weight", GD_OPTION_FIELD(simhash.meta_weight)), "meta-weight", "meta_weight",
            "mu of score = mu/(1+hamming) + (1-mu) x metadata Jaccard");
  meta_weight.check = [](const Config& c, double v) {
    GD_EXPECTS(c.simhash.use_meta,
               "`simhash.meta_weight` needs `simhash.meta_field` NAME (without metadata the score is 1/(1+hamming))");
    check_unit("simhash.meta_weight", v);
  };
  OptionRow min_score = named(real_option("simhash.min_score", GD_OPTION_FIELD(simhash.min_score)), "min-score",
                              "min_score", "pairs pass when their score is at least this");
  min_score.check = [](const Config&, double v) { check_unit("simhash.min_score", v); };
  return in_group(
      {hamming, blocks, split,
       named(choice_option<SimHashWeights>("simhash.weights", GD_OPTION_FIELD(simhash.weights)), "weights", "weights",
             "tf, tfidf or tfidf-len (tfidf reads the input twice)"),
       named(real_option("simhash.len_mu", GD_OPTION_FIELD(simhash.len_mu)), "len-mu", "len_mu",
             "tfidf-len: mean term length in code points"),
       named(real_option("simhash.len_sigma", GD_OPTION_FIELD(simhash.len_sigma)), "len-sigma", "len_sigma",
             "tfidf-len: standard deviation of the term length"),
       meta_field, meta_weight, min_score,
       // The program picks the features itself: k-grams when --shingle or --ngram is given.
       named(choice_option<SimHashFeatures>("simhash.features", GD_OPTION_FIELD(simhash.features)), "", "features",
             "tokens (word tokens) or shingles (the k-grams of shingle and ngram)")},
      "simhash", "SimHash (--method simhash)");
}

std::vector<OptionRow> bloom_rows() {
  OptionRow bits = named(count_option("bloom.bits", GD_OPTION_FIELD(bloom.bits), 0, 65536), "bloom-bits", "bloom_bits",
                         "m: bits per filter, a multiple of 64 up to 65536; 0: sized to the documents (5% false "
                         "positives at the 90th-percentile document; reads the input twice)");
  bits.check = [](const Config&, double given) {
    const auto m = int64_t(given);
    GD_EXPECTS(m >= 0 && m <= 65536, "`bloom.bits` must be in 0..65536, got " + std::to_string(m));
    GD_EXPECTS(m % 64 == 0, "`bloom.bits` must be 0 or a multiple of 64 (64..65536), got " + std::to_string(m));
  };
  OptionRow long_docs = named(OptionRow{}, "bloom-long", "bloom_long",
                              "sample: a document with more shingles than a filter holds at 5% false positives keeps "
                              "that many (bottom-s by a seeded permutation), so no filter saturates; full: every "
                              "shingle (long documents' filters fill up)");
  long_docs.param = "bloom.sample_long";
  long_docs.kind = OptionKind::choice;
  long_docs.set = [](Config& c, const OptionValue& v) {
    GD_EXPECTS(v.text == "sample" || v.text == "full", "`bloom.sample_long` must be sample or full, got '" + v.text + "'");
    c.bloom.sample_long = v.text == "sample";
  };
  long_docs.get = [](const Config& c) { return std::string(c.bloom.sample_long ? "sample" : "full"); };
  return in_group(
      {bits,
       named(count_option("bloom.hashes", GD_OPTION_FIELD(bloom.hashes), 1, 32), "bloom-hashes", "bloom_hashes",
             "h: bits set per shingle, 1..32"),
       long_docs,
       named(choice_option<BloomMeasure>("bloom.measure", GD_OPTION_FIELD(bloom.measure)), "bloom-measure",
             "bloom_measure", "jaccard, cosine, overlap, dice or hamming (of the filters' popcounts)"),
       named(count_option("bloom.all_pairs_limit", GD_OPTION_FIELD(bloom.all_pairs_limit), 0, int64_t(1) << 32),
             "bloom-all-pairs-max", "bloom_all_pairs_limit",
             "compare all pairs up to this many documents (0..4294967296); bit-sampling LSH above"),
       named(count_option("bloom.lsh_bits", GD_OPTION_FIELD(bloom.lsh_bits), 1, 64), "bloom-lsh-bits",
             "bloom_lsh_bits", "bit-sampling LSH: sampled bits per table, 1..64"),
       named(count_option("bloom.lsh_tables", GD_OPTION_FIELD(bloom.lsh_tables), 1, 1024), "bloom-lsh-tables",
             "bloom_lsh_tables", "bit-sampling LSH: tables, 1..1024")},
      "bloom", "Bloom filters (--method bloom)");
}

std::vector<OptionRow> sampling_rows() {
  return in_group(
      {named(choice_option<SampleKind>("sampling.kind", GD_OPTION_FIELD(sampling.kind)), "sample", "sample",
             "none, minwise (s smallest under a seeded permutation), modm (hash % m == 0) or mins (s smallest "
             "hashes)"),
       named(count_option("sampling.size", GD_OPTION_FIELD(sampling.size), 1, 1 << 24), "sample-size", "sample_size",
             "s of minwise and mins, 1..16777216"),
       named(count_option("sampling.mod", GD_OPTION_FIELD(sampling.mod), 1, int64_t(1) << 40), "sample-mod",
             "sample_mod", "m of modm, 1..1099511627776")},
      "sampling", "Shingle sampling (minhash, exact, bloom)");
}

/// A row of bytes given as a size such as 512M (parse_byte_size), at least `least`;
/// `keyword`: its Python keyword ("" for none), which takes the same text.
OptionRow byte_size_row(const std::string& param, const std::string& flag, const std::string& keyword,
                        const std::string& help, uint64_t least, void (*store)(Config&, uint64_t),
                        uint64_t (*load)(const Config&)) {
  OptionRow r = named(OptionRow{}, flag, keyword, help);
  r.param = param;
  r.set = [param, least, store](Config& c, const OptionValue& v) {
    const auto bytes = parse_byte_size(v.text);
    GD_EXPECTS(bytes, "`" + param + "` takes a size: a number of bytes with an optional K, M, G or T suffix "
                      "(1024-based), such as 512M or 4G; got \"" + v.text + "\"");
    GD_EXPECTS(*bytes >= least, "`" + param + "` must be at least " + std::to_string(least / 1024) + "K, got \"" +
                                    v.text + "\"");
    store(c, *bytes);
  };
  r.get = [load](const Config& c) { return std::to_string(load(c)); };
  return r;
}

std::vector<OptionRow> memory_rows() {
  OptionRow limit = byte_size_row("memory_limit", "memory-limit", "",
                                  "bytes of signatures and band keys MinHash holds before it spills them to "
                                  "--temp-dir (same answer, slower): a size such as 512M or 4G (K, M, G, T: "
                                  "1024-based); default: half the physical memory; under mpirun a limit per rank, "
                                  "default half the physical memory divided by the ranks on the node",
                                  min_memory_limit, [](Config& c, uint64_t bytes) { c.memory_limit = bytes; },
                                  [](const Config& c) { return c.memory_limit; });
  limit.has_default = false;  // absent: half the physical memory
  OptionRow dir = named(OptionRow{}, "temp-dir", "",
                        "folder of the spill files (nameless: nothing is left behind, however the run ends); "
                        "default: $TMPDIR, else /tmp");
  dir.param = "temp_dir";
  dir.has_default = false;  // absent: $TMPDIR, else /tmp
  dir.set = [](Config& c, const OptionValue& v) {
    std::error_code ec;
    GD_EXPECTS(!v.text.empty() && std::filesystem::is_directory(v.text, ec),
               "`temp_dir` " + v.text + ": not a folder; give an existing folder for the spill files");
    GD_EXPECTS(::access(v.text.c_str(), W_OK | X_OK) == 0, "`temp_dir` " + v.text + ": cannot write there (" +
                                                               std::strerror(errno) + "); give a folder this user may write");
    c.temp_dir = v.text;
  };
  dir.get = [](const Config& c) { return c.temp_dir; };
  OptionRow kept = byte_size_row("verify_memory", "verify-memory", "verify_memory",
                                 "--verify auto: bytes of shingle sets kept from the first pass for the exact check "
                                 "of borderline pairs, a size such as 512M (K, M, G, T: 1024-based), at most a "
                                 "quarter of --memory-limit; kept only while every document's set fits, else dropped "
                                 "and the documents read again (same answer); 0: always read again",
                                 0, [](Config& c, uint64_t bytes) { c.verify_memory = bytes; },
                                 [](const Config& c) { return c.verify_memory; });
  return in_group({limit, dir, kept}, "memory", "Memory");
}

}  // namespace

std::optional<uint64_t> parse_byte_size(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 19 || text.size() > digits + 1) return std::nullopt;
  unsigned shift = 0;
  if (text.size() == digits + 1) {
    switch (text.back()) {
      case 'k': case 'K': shift = 10; break;
      case 'm': case 'M': shift = 20; break;
      case 'g': case 'G': shift = 30; break;
      case 't': case 'T': shift = 40; break;
      default: return std::nullopt;
    }
  }
  const uint64_t n = std::stoull(text.substr(0, digits));
  if (n > (UINT64_MAX >> shift)) return std::nullopt;
  return n << shift;
}

std::vector<OptionRow> method_option_rows() {
  std::vector<OptionRow> rows;
  for (auto group : {lsh_rows(), verify_rows(), similarity_rows(), simhash_rows(), bloom_rows(), sampling_rows(),
                     memory_rows()}) {
    rows.insert(rows.end(), group.begin(), group.end());
  }
  return rows;
}

}  // namespace gpudedup::detail

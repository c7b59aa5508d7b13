#pragma once
/// @file config.hpp
/// Everything that decides a run's answer. Both backends read the same Config and must
/// give the same result bit for bit.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpudedup/document_number.hpp"
#include "gpudedup/lsh.hpp"

namespace gpudedup {

enum class Backend { automatic, cpu, cuda };
enum class ShingleKind { chars, words };
/// How MinHash candidates are verified: estimate (signature agreement), exact (every
/// shingle set kept), automatic ("auto": the estimate, except that a pair whose estimate lies
/// within the borderline margin of the threshold is decided by the exact similarity of the
/// two documents' shingle sets, recomputed from texts read again; host/minhash/
/// borderline_verify.hpp) or none.
enum class VerifyMode { estimate, exact, none, automatic };
/// containment: |A∩B| / min(|A|, |B|) (either document in the other); containment_a and
/// containment_b one direction of a pair a < b (a first in input order): |A∩B| / |A|
/// (the earlier document in the later) and |A∩B| / |B| (the later in the earlier).
enum class Similarity { jaccard, containment, containment_a, containment_b };
/// Similarity of two Bloom filters from popcounts (detail/bloom.hpp, docs/sketches.md);
/// hamming is the normalized Hamming similarity 1 - |x XOR y| / m.
enum class BloomMeasure { cosine, overlap, dice, jaccard, hamming };
/// Shingle sampling before any method (docs/sketches.md): Broder's MIN_s and MOD_m.
enum class SampleKind { none, minwise, modm, mins };
/// Which member of each cluster of near-duplicates the dedup job keeps (Config::keep).
/// Length is the byte length of the document's text (the decoded text field, or the line
/// or file of a text input). Ties go to the first in input order.
enum class KeepPolicy {
  first,     ///< the first member in input order
  longest,   ///< the member with the most text bytes
  shortest,  ///< the member with the fewest text bytes
  none,      ///< no member: every document of a cluster of two or more is removed
};

/// Case in normalized text: none kept, ASCII A-Z only (the rule before 0.2), or simple
/// case folding of every script (CaseFolding.txt C+S).
enum class CaseFold { none, ascii, simple };
/// Word tokens: `simple` = runs of non-space with each CJK ideograph, kana or hangul
/// syllable a token of its own; `icu` = ICU's word break iterator (dictionary-based for
/// Chinese, Japanese, Thai), a host stage (docs/architecture.md).
enum class Tokenizer { simple, icu };

/// How text is normalized before shingling (detail/normalize.hpp, docs/architecture.md).
/// White space is always collapsed; the CLI spells it `--normalize fold,nfkc,punct`.
struct NormalizeConfig {
  CaseFold case_fold = CaseFold::simple;
  bool nfkc = false;                ///< Unicode NFKC first (host stage, ICU)
  bool remove_punctuation = false;  ///< drop general category P* (punctuation)

  bool operator==(const NormalizeConfig& o) const {
    return case_fold == o.case_fold && nfkc == o.nfkc && remove_punctuation == o.remove_punctuation;
  }
  bool operator!=(const NormalizeConfig& o) const { return !(*this == o); }
};

/// "fold", "ascii,nfkc,punct", "none": the items of `--normalize`, comma-separated.
std::string to_string(const NormalizeConfig&);
/// Parses a `--normalize` list (items fold, ascii, nfkc, punct, or none alone); nullopt
/// for an unknown item or a contradiction (fold with ascii, none with others).
std::optional<NormalizeConfig> parse_normalize(std::string_view list);

/// How text becomes a set of 64-bit shingle hashes (detail/shingle.hpp).
struct ShingleConfig {
  ShingleKind kind = ShingleKind::chars;
  uint32_t ngram = 5;                  ///< k: code points (chars) or tokens (words), 1..64
  std::vector<std::string> stop_words; ///< raw words; normalized like text before use
  bool remove_stop_words = false;      ///< words only: drop stop words before shingling
  bool stop_word_anchored = false;     ///< words only: shingles = stop word + next two words
  NormalizeConfig normalize;           ///< before shingling; also SimHash features
  Tokenizer tokenizer = Tokenizer::simple;  ///< word shingles, SimHash tokens
};

/// How a MinHash signature's P values are made (docs/sketches.md): classic, P permutations
/// of every shingle (shingles x P work); oph, one permutation hashing into P bins with
/// optimal densification (shingles + P work, detail/oph_minhash.hpp); fss, OPH's bins with
/// each bin no shingle reached given its own permutation (shingles + unreached bins x
/// shingles work, detail/fss_minhash.hpp).
enum class SketchFamily { classic, oph, fss };

struct MinHashConfig {
  uint32_t num_perm = 256;  ///< P
  /// fss by default: the classic family's recall and precision at a fraction of its work on
  /// texts of more than a few hundred shingles (docs/benchmarks.md, "MinHash families").
  SketchFamily family = SketchFamily::fss;
};

struct LshConfig {
  uint32_t bands = 0;       ///< b; 0 with rows 0 = choose automatically for the threshold
  uint32_t rows = 0;        ///< r
  /// Weights of the automatic choice (lsh.hpp's defaults and their reason: a candidate
  /// is verified, a missed pair is lost).
  double false_positive_weight = default_false_positive_weight;
  double false_negative_weight = default_false_negative_weight;

  /// @throws usage_error for bands without rows, b x r > num_perm or bad weights.
  void validate(uint32_t num_perm) const;
};

/// `--method bloom`: each shingle set becomes an m-bit Bloom filter with h bits per shingle.
struct BloomConfig {
  /// m, a multiple of 64 in 64..65536; 0 = sized to the documents: a first pass counts
  /// each document's shingles and m is the least multiple of 64 that keeps a filter of the
  /// 90th-percentile document at a 5% false-positive rate (docs/sketches.md).
  uint32_t bits = 0;
  uint32_t hashes = 2;   ///< h bit positions per shingle (double hashing), 1..32
  /// A document with more distinct shingles than a filter holds at the 5% false-positive
  /// rate (its capacity) keeps the capacity's smallest minwise values, so no filter
  /// saturates; the measure scales by the sampling rates (docs/sketches.md). Off, or with
  /// Config::sampling given, every shingle is inserted. (`--bloom-long`)
  bool sample_long = true;
  /// jaccard: the threshold means what it means for minhash and exact (cosine, dice and
  /// overlap of the same sets are higher than their Jaccard).
  BloomMeasure measure = BloomMeasure::jaccard;
  /// Up to this many non-empty documents every pair is compared (tiled popcounts);
  /// above it, bit-sampling LSH finds the candidates.
  uint64_t all_pairs_limit = 1000000;
  uint32_t lsh_bits = 24;    ///< bit-sampling LSH: sampled bits per table (1..64)
  uint32_t lsh_tables = 64;  ///< bit-sampling LSH: tables (1..1024)

  /// @throws usage_error naming the option when a value is out of range.
  void validate() const;
};

/// Keeps a sample of each document's shingle-hash set before sketching.
struct SamplingConfig {
  SampleKind kind = SampleKind::none;
  uint32_t size = 200;  ///< s of minwise and mins: the s smallest values are kept
  uint64_t mod = 25;    ///< m of modm: hashes with hash % m == 0 are kept
};

/// What a SimHash fingerprint is made of.
enum class SimHashFeatures {
  tokens,    ///< word tokens, each CJK character a token of its own (default)
  shingles,  ///< the k-grams of Config::shingle (char or word, --shingle/--ngram)
};

/// How a feature occurrence is weighted (detail/simhash.hpp gives the fixed-point rules).
enum class SimHashWeights {
  tf,         ///< count in the document
  tfidf,      ///< tf * ln(N/df); needs the df pass
  tfidf_len,  ///< tf * ln(N/df) * (1 + Gaussian of the term length); needs the df pass
};

/// `--method simhash` (docs/simhash.md).
struct SimHashConfig {
  SimHashFeatures features = SimHashFeatures::tokens;
  SimHashWeights weights = SimHashWeights::tf;
  double len_mu = 4.51;      ///< mean term length in code points (--len-mu)
  double len_sigma = 2.207;  ///< its standard deviation (--len-sigma)
  /// `hamming` left at this: k is chosen from Config::threshold by
  /// simhash_hamming_for_threshold() (simhash.hpp, docs/simhash.md).
  static constexpr uint32_t hamming_from_threshold = 0xFFFFFFFFu;
  /// k: pairs within this Hamming distance, 0..32 (--hamming); default: from the threshold.
  uint32_t hamming = hamming_from_threshold;
  uint32_t blocks = 0;       ///< m >= k+1 blocks; 0 = k+1 (--blocks)
  double split_factor = 2.0; ///< runs above (1+mu) x the mean run size are split (--split-factor)
  /// Combined score with metadata sets (--meta-field): add() then needs the sets.
  bool use_meta = false;
  std::string meta_field;    ///< the JSON array field run_dedup() reads the sets from (--meta-field)
  double meta_weight = 0.9;  ///< mu of score = mu/(1+d) + (1-mu) * J_meta (--meta-weight; the paper's 0.9)
  double min_score = 0;      ///< pairs pass when score >= this (--min-score)
  /// Candidates then pass only when the Jaccard of their Config::shingle sets reaches
  /// Config::threshold: exact (the sets are kept), estimate (Config::minhash.num_perm
  /// MinHash values seeded by Config::seed) or none (--verify; docs/simhash.md). The
  /// default, estimate, is what lets the wide k of the threshold rule stay precise.
  VerifyMode verify = VerifyMode::estimate;
  uint32_t meta_num_perm = 128;  ///< MinHash values per metadata set
  uint64_t meta_seed = 1;        ///< seeds the metadata MinHash family

  /// k: `hamming`, or the rule's k for `threshold` when left at hamming_from_threshold.
  uint32_t resolved_hamming(double threshold) const;
  /// m: `blocks`, or k+1 when 0 (after resolved_hamming(): the engine's copy has k set).
  uint32_t resolved_blocks() const { return blocks ? blocks : hamming + 1; }
  /// @throws usage_error naming the option when a value is out of range.
  void validate() const;
};

struct Config {
  Backend backend = Backend::automatic;
  /// A name from the method table (method.hpp): "minhash", "exact", "simhash", "bloom".
  std::string method = "minhash";
  /// Similarity threshold t in (0, 1]: the pairs a method reports reach it (MinHash and
  /// exact: Jaccard or containment; Bloom: the popcount measure).
  double threshold = 0.8;
  /// Seeds every random choice of a method: the MinHash permutation family, minwise
  /// sampling, Bloom's bit-sampling LSH.
  uint64_t seed = 1;
  ShingleConfig shingle;
  MinHashConfig minhash;
  LshConfig lsh;
  BloomConfig bloom;         ///< used by method "bloom"
  SimHashConfig simhash;     ///< used by method "simhash"
  SamplingConfig sampling;   ///< applies to minhash, exact and bloom
  /// MinHash's verification (VerifyMode); auto needs the texts again at finish() (a
  /// DedupMethod text replay, which run_dedup() gives): without one it is the estimate.
  VerifyMode verify = VerifyMode::automatic;
  Similarity similarity = Similarity::jaccard;
  /// Report every verified pair, not only the pairs that joined two clusters. Slower:
  /// pairs inside a cluster are verified too instead of being skipped.
  bool all_pairs = false;
  /// Which member of each cluster run_dedup() keeps and names as its representative.
  /// Methods always label a cluster by its first member; the job applies the policy after
  /// clustering. The index (index.hpp) keeps the first document it saw, whatever this says.
  KeepPolicy keep = KeepPolicy::first;
  int threads = 0;  ///< CPU threads; 0 = all cores
  int device = 0;   ///< CUDA device ordinal
  /// The number of the run's first document (document_number.hpp): a run that is one part
  /// of a larger numbering (an MPI rank, a shard of the staged route) starts there, and so
  /// do the ids run_dedup() gives records without one. Every number a method reports is
  /// this plus the document's place in the run; at most 2^64 - 2^32.
  doc_number first_document_number = 0;
  /// MinHash: bytes of signatures and band keys the engine may hold; past it they spill
  /// to `temp_dir` and the candidates are found one key-range partition at a time, with
  /// the same answer (docs/scaling.md, "Bounded memory"). 0 = half the physical memory.
  uint64_t memory_limit = 0;
  /// MinHash, --verify auto: bytes of shingle sets (8 per distinct shingle) kept from the
  /// sketch for the exact check of borderline pairs, which then reads no text again. All
  /// documents' or none: past it (or a quarter of memory_limit) the sets are dropped and
  /// the check reads the texts again, with the same answer. 0 = always read again.
  uint64_t verify_memory = uint64_t(512) << 20;
  /// MinHash: the folder of the spill files (nameless: removed however the run ends).
  /// Empty = $TMPDIR, or /tmp when it is not set.
  std::string temp_dir;

  /// Checks the shared values, then the method's own (its row of the method table).
  /// @throws usage_error naming the option when a value is out of range or the method
  /// is not in the table.
  void validate() const;
};

/// The name of each value, as options and files spell it ("auto", "char", "tfidf-len").
const char* to_string(Backend);
const char* to_string(ShingleKind);
const char* to_string(VerifyMode);
const char* to_string(Similarity);
const char* to_string(BloomMeasure);
const char* to_string(SampleKind);
const char* to_string(SimHashWeights);
const char* to_string(SimHashFeatures);
const char* to_string(KeepPolicy);
const char* to_string(CaseFold);
const char* to_string(Tokenizer);
const char* to_string(SketchFamily);

/// The value whose to_string() is `name`; nullopt for any other name. Defined for every
/// enum with a to_string (the same table gives both directions).
template <class Enum>
std::optional<Enum> from_string(std::string_view name);
/// Every name of an enum, for messages: "auto, cpu or cuda".
template <class Enum>
std::string names_of();

}  // namespace gpudedup

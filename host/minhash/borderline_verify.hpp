#pragma once
// --verify auto: the MinHash estimate decides a candidate pair unless it lies within a
// margin of the threshold; such a borderline pair is decided by the exact similarity of
// the two documents' shingle sets, recomputed from their texts, which a text replay
// (method.hpp) reads again in sequential passes over the input once every band is done.
// The corpus is never held: only the borderline pairs, and their documents' texts up to
// a byte budget per pass.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "gpudedup/method.hpp"
#include "gpudedup/result.hpp"
#include "host/core/union_find.hpp"
#include "host/minhash/compute_backend.hpp"
#include "host/minhash/set_cache.hpp"

namespace gpudedup::detail {

class ReplayedTexts;

/// Standard deviations of the estimator on each side of the threshold that make a pair
/// borderline. The estimate of P values has sd sqrt(J(1-J)/P); a pair outside 3 sd of
/// the threshold is on the wrong side of it with probability about 0.1% (normal tail),
/// and such pairs are mostly far from it in truth (J 0.70 read as 0.80 is 3.5 sd at P=256).
constexpr double borderline_sigmas = 3.0;

/// Bytes of shingle sets (8 per distinct shingle) a rank of a distributed exact check
/// holds per round (distributed_borderline.hpp).
constexpr uint64_t borderline_set_budget = uint64_t(512) << 20;

/// Bytes of text one exact pass of a single process holds: the texts of the documents of
/// the pairs it verifies (a set takes ~8x its text, so sets are built from the texts as
/// checks need them, component_pair_checks.cpp). Pairs beyond it go to further passes.
constexpr uint64_t borderline_text_budget = uint64_t(512) << 20;

enum class Verdict { fail, borderline, pass };

/// A borderline pair a < b as it waits for decide(): local indices (a run holds < 2^32
/// documents) and the estimate, 16 bytes where a ScoredPair takes 24; the list holds
/// every band's copy of a pair until it is made distinct, millions on large corpora.
struct DeferredPair {
  uint32_t a = 0;
  uint32_t b = 0;
  double similarity = 0;
};

/// The serial order of the exact checks (one process's and each MPI rank's): the larger
/// estimate first, by its value rounded to a float (rounding keeps the order; a
/// similarity is never negative, so its bits order as it does), ties kept in (a, b) order
/// by a stable sort on this key, ascending. 32 bits, of which an estimate k/P (P a power
/// of two up to 512, the default 256) leaves the low 16 equal.
inline uint32_t most_similar_first_key(double similarity) {
  const float rounded = float(similarity);
  uint32_t bits;
  std::memcpy(&bits, &rounded, sizeof bits);
  return ~bits;
}

/// Sorts `pairs` by (a, b) and keeps each pair once (a pair's estimate is the same in
/// every band), on `threads` threads when there are many (0: all). A list already sorted
/// and distinct is only read.
void make_distinct(std::vector<DeferredPair>& pairs, int threads);

/// Where a pair's estimate lies. The margin is on the Jaccard estimate:
/// borderline_sigmas * sqrt(spread * t(1-t)/P) + 1/P (one signature value, the estimate's step),
/// with t the threshold; for the containments t is the Jaccard a pair of those set sizes
/// has at the threshold (pair_margin; `margin` is the widest, at min(1/2, t/(2-t))), and
/// both ends of the estimate +- margin are
/// mapped through the set sizes (a monotone map) and compared with the threshold.
struct BorderlineBand {
  double threshold = 0;
  double margin = 0;  ///< the widest margin (Jaccard: every pair's)
  Similarity similarity = Similarity::jaccard;
  uint32_t num_perm = 0;
  /// The estimate's variance over the binomial J(1-J)/P: 1 for the classic family, at
  /// most oph_variance_bound for --sketch oph (detail/oph_minhash.hpp).
  double spread = 1;

  /// Whether the exact similarity is the similarity of the two sets whose sizes the
  /// pairs carry (no bottom-s sample, whose estimator is not), so that the set sizes
  /// bound it (size_bound()).
  bool sizes_bound = true;

  /// The most the exact similarity of sets of these sizes can be: their intersection
  /// at most the smaller set (Jaccard min/max), by the arithmetic of the exact check,
  /// so a pair below the threshold here fails that check too. 1 when it bounds nothing
  /// (a size unknown: 0, or a bottom-s sample).
  double size_bound(uint64_t size_a, uint64_t size_b) const;

  /// The margin of a pair of these set sizes: for the containments the spread at the
  /// Jaccard their threshold means at these sizes (never above `margin`).
  double pair_margin(uint64_t size_a, uint64_t size_b) const;

  /// fail for a pair the set sizes bound below the threshold (size_bound(), whatever the
  /// estimate: the exact check could not pass it), else by the estimate +- the margin.
  Verdict classify(double jaccard, uint64_t size_a, uint64_t size_b) const;
  /// Whether classify() needs the pair's set sizes for the estimate's verdict (the
  /// containments); for Jaccard they only add the size bound.
  bool uses_set_sizes() const { return similarity != Similarity::jaccard; }
  /// The least estimated similarity a pass or borderline pair can have: the backends
  /// return every candidate at or above it (Jaccard), or every candidate (0, containments).
  double floor() const;
};

BorderlineBand make_borderline_band(const Config& config);

/// What the exact check of borderline pairs did (the stats file's verify_* entries).
/// Every borderline pair whose outcome still mattered is checked exactly, decided by the
/// estimate, or skipped because an earlier exact check joined its documents meanwhile:
/// pairs = verified + by_estimate + skipped_joined.
struct BorderlineStats {
  uint64_t skipped_joined = 0;  ///< of `pairs`, skipped: joined by earlier exact checks
  uint64_t pairs = 0;        ///< distinct borderline pairs whose outcome still mattered
  uint64_t verified = 0;     ///< of them, verified exactly
  uint64_t passed = 0;       ///< of those, passed
  uint64_t by_estimate = 0;  ///< decided by the estimate: no text replay was given
  uint64_t documents = 0;    ///< documents read again
  uint64_t documents_kept = 0;  ///< documents whose sets were kept from the sketch (none read again)
  uint64_t passes = 0;       ///< passes over the input
};

/// The stats file's verify_* entries (docs/user-guide.md), and the summary's line.
std::vector<StatsField> borderline_stats_fields(const BorderlineBand& band, const BorderlineStats& stats);
std::string describe_borderline(const BorderlineBand& band, const BorderlineStats& stats);

class BorderlineVerifier {
 public:
  explicit BorderlineVerifier(const SketchSpec& spec, uint64_t text_budget = borderline_text_budget);

  const BorderlineBand& band() const { return band_; }
  /// The verdict of candidate (a, b), whose estimated similarity is `similarity`.
  Verdict classify(const CorpusView& corpus, uint32_t a, uint32_t b, double similarity) const;
  /// The same from two signature rows and set sizes wherever they are held (a spill file).
  Verdict classify(const uint32_t* row_a, const uint32_t* row_b, uint32_t size_a, uint32_t size_b,
                   double similarity) const;
  /// Keeps a borderline pair (a < b) for decide(). The same pair comes from several
  /// bands: the list is made distinct whenever it has doubled since it last was.
  void defer(uint32_t a, uint32_t b, double similarity);
  /// Keeps many borderline pairs at once (a < b each, repeats allowed), as the engine's
  /// store gives them back after the band walk (deferred_pair_store.hpp).
  void defer_all(std::vector<DeferredPair> pairs);

  /// Decides every deferred pair whose documents are not joined yet (all of them with
  /// Config::all_pairs): by exact similarity when `replay` is given, else by the estimate
  /// against the threshold (the answer of --verify estimate). Joins the passing pairs in
  /// `uf` and appends to `out` those that joined two clusters (every passing pair with
  /// all_pairs), in the serial order: by pass, then by descending estimate, then (a, b);
  /// the same for every backend.
  /// @throws data_error when the replay does not give a wanted document (input changed).
  /// `text_bytes(d)`: document d's text size as the first pass saw it (a pass's texts
  /// must fit the budget). `kept`: every document's distinct hashes, kept from the
  /// sketch in any order (the engine's set cache, set_cache.hpp), read instead of the
  /// replay's texts, each sorted in place before its first check; the checks of one
  /// pass in the same order, so the same answer as a replay of one pass.
  void decide(uint64_t documents, const std::function<uint64_t(uint32_t)>& text_bytes, const TextReplay& replay,
              UnionFind& uf, std::vector<ScoredPair>& out, SetCache* kept = nullptr);

  const BorderlineStats& stats() const { return stats_; }

 private:
  void decide_exactly(std::vector<DeferredPair> pairs, uint64_t documents,
                      const std::function<uint64_t(uint32_t)>& text_bytes, const TextReplay& replay, UnionFind& uf,
                      std::vector<ScoredPair>& out, SetCache* kept);
  /// The pairs [pairs, pairs + n) of one pass, in the serial order, checked from their
  /// texts, which it gathers (`wanted`, `bytes`) while another thread finds the pairs'
  /// components; then component by component on every thread: the serial order's answer,
  /// stats and output order.
  void check_replayed_pairs(const DeferredPair* pairs, size_t n, const TextReplay& replay,
                            const std::vector<uint8_t>& wanted, uint64_t bytes, ReplayedTexts& texts, UnionFind& uf,
                            std::vector<ScoredPair>& out);
  /// The pairs [pairs, pairs + n) of one group, in the serial order, checked from the kept
  /// sets, component by component on every thread: the serial order's answer, stats and
  /// output order. A set is sorted in place when a check first reads it
  /// (SetCache::sorted_set): a document whose pairs are all joined before their turn is
  /// never sorted.
  void check_kept_pairs(const DeferredPair* pairs, size_t n, SetCache& kept, UnionFind& uf,
                        std::vector<ScoredPair>& out);
  void join(const ScoredPair& p, UnionFind& uf, std::vector<ScoredPair>& out);

  SketchSpec spec_;
  BorderlineBand band_;
  uint64_t text_budget_;
  std::vector<DeferredPair> deferred_;
  size_t distinct_at_ = 0;  // deferred_.size() when last made distinct
  BorderlineStats stats_;
};

}  // namespace gpudedup::detail

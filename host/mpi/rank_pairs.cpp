// The --pairs --all-pairs file across ranks (rank_pairs.hpp).
#include "host/mpi/rank_pairs.hpp"

#include <algorithm>

#include "host/io/write/result_writers.hpp"
#include "host/mpi/owner_fetch.hpp"
#include "host/mpi/rank_outputs.hpp"

namespace gpudedup::mpi {
namespace {

/// Sorted by (a, b), each pair once: a pair found in several bands, or on several ranks,
/// has the same score wherever it was verified (the estimate of the same two signatures).
void sort_unique_pairs(std::vector<ScoredPair>& pairs) {
  std::sort(pairs.begin(), pairs.end(),
            [](const ScoredPair& x, const ScoredPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
  pairs.erase(std::unique(pairs.begin(), pairs.end(),
                          [](const ScoredPair& x, const ScoredPair& y) { return x.a == y.a && x.b == y.b; }),
              pairs.end());
}

/// The ids of the documents in `want` (ascending, unique), in that order: the numbers go
/// to their owners, and the ids come back as lengths and bytes (ids vary in length, so
/// fetch_from_owners' fixed-width rows do not fit).
detail::IdTable fetch_ids(Exchange& ex, const std::vector<uint64_t>& firsts, const RankInput& in,
                          uint64_t record_offset, const std::vector<uint64_t>& want) {
  std::vector<uint64_t> counts(ex.ranks(), 0);
  for (uint64_t d : want) ++counts[owner_of(firsts, d)];
  std::vector<uint64_t> asked_counts;
  const std::vector<uint64_t> asked = ex.all_to_all(want, counts, "pair ids", &asked_counts);
  std::vector<uint64_t> lengths(asked.size());
  std::vector<char> bytes;
  std::vector<uint64_t> byte_counts(ex.ranks(), 0);
  size_t at = 0;
  for (int r = 0; r < ex.ranks(); ++r) {
    for (uint64_t k = 0; k < asked_counts[r]; ++k, ++at) {
      const std::string id = in.id(size_t(asked[at] - in.corpus.first), record_offset);
      lengths[at] = id.size();
      bytes.insert(bytes.end(), id.begin(), id.end());
      byte_counts[r] += id.size();
    }
  }
  // Replies come back in rank order, and `want` is ascending: the order of `want`.
  const std::vector<uint64_t> got_lengths = ex.all_to_all(lengths, asked_counts, "pair ids");
  const std::vector<char> got = ex.all_to_all(bytes, byte_counts, "pair ids");
  detail::IdTable ids;
  size_t from = 0;
  for (uint64_t n : got_lengths) {
    ids.add(std::string_view(got.data() + from, n));
    from += n;
  }
  return ids;
}

}  // namespace

uint64_t write_rank_pairs(Exchange& ex, const std::vector<uint64_t>& firsts, const RankInput& in,
                          uint64_t record_offset, std::vector<ScoredPair> passing, const std::string& path,
                          std::ostream* output) {
  // To the owner of each pair's first document: sorted by (a, b), the pairs are grouped
  // by owner already, and the owners' shares of the whole list follow in rank order.
  sort_unique_pairs(passing);
  std::vector<uint64_t> counts(ex.ranks(), 0);
  for (const ScoredPair& p : passing) ++counts[owner_of(firsts, p.a)];
  std::vector<ScoredPair> mine = ex.all_to_all(passing, counts, "pairs");
  passing = {};
  sort_unique_pairs(mine);

  const std::vector<uint64_t> want = endpoints(mine);
  const detail::IdTable ids = fetch_ids(ex, firsts, in, record_offset, want);
  // The single-process writer, over this rank's pairs numbered by their place in `want`.
  DedupResult r;
  r.pairs = std::move(mine);
  for (ScoredPair& p : r.pairs) {
    p.a = doc_number(std::lower_bound(want.begin(), want.end(), p.a) - want.begin());
    p.b = doc_number(std::lower_bound(want.begin(), want.end(), p.b) - want.begin());
  }
  join_rank_parts(ex, path, "pairs", output, [&](std::ostream& out) { detail::write_pairs(out, r, ids); });
  return ex.sum(r.pairs.size());
}

}  // namespace gpudedup::mpi

#include "host/io/write/result_writers.hpp"

#include <cstdio>

#include "host/core/json_text.hpp"
#include "host/core/keep_policy.hpp"

namespace gpudedup::detail {

void write_tsv_field(std::ostream& out, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '\t': out << "\\t"; break;
      case '\n': out << "\\n"; break;
      case '\r': out << "\\r"; break;
      case '\\': out << "\\\\"; break;
      default: out.put(c);
    }
  }
}

void write_removed(std::ostream& out, const DedupResult& r, const IdTable& ids, const RemovedLineEnd& line_end) {
  for (const RemovedDocument& x : removed_documents(r)) {
    write_tsv_field(out, ids[x.document]);
    out.put('\t');
    write_tsv_field(out, ids[x.duplicate_of]);
    if (line_end) line_end(out, x.document);
    out.put('\n');
  }
}

void write_pairs(std::ostream& out, const DedupResult& r, const IdTable& ids) {
  const bool distances = !r.pair_distances.empty();
  char num[32];
  for (size_t i = 0; i < r.pairs.size(); ++i) {
    const auto& p = r.pairs[i];
    write_tsv_field(out, ids[p.a - r.first_document]);
    out.put('\t');
    write_tsv_field(out, ids[p.b - r.first_document]);
    if (distances) {
      std::snprintf(num, sizeof num, "\t%u\n", unsigned(r.pair_distances[i]));
    } else {
      std::snprintf(num, sizeof num, "\t%.6f\n", p.similarity);
    }
    out << num;
  }
}

void write_clusters(std::ostream& out, const DedupResult& r, const IdTable& ids) {
  const size_t n = r.representative.size();
  // The run's places (document number less the first), which index `ids`.
  auto rep_of = [&](size_t d) { return uint32_t(r.representative[d] - r.first_document); };
  // Counting sort of documents by representative keeps members in input order.
  std::vector<uint32_t> count(n + 1, 0);
  for (size_t d = 0; d < n; ++d) ++count[rep_of(d) + 1];
  for (size_t i = 0; i < n; ++i) count[i + 1] += count[i];
  std::vector<uint32_t> start(count.begin(), count.end() - 1);
  std::vector<uint32_t> members(n);
  for (uint32_t d = 0; d < n; ++d) members[start[rep_of(d)]++] = d;
  // Clusters are numbered in the order of their first members, whichever member the keep
  // policy made the representative.
  std::vector<uint8_t> seen(n, 0);
  uint64_t cluster = 0;
  for (uint32_t first = 0; first < n; ++first) {
    const uint32_t rep = rep_of(first);
    if (seen[rep]) continue;
    seen[rep] = 1;
    const uint32_t lo = count[rep], hi = count[rep + 1];
    if (hi - lo < 2) continue;
    out << "{\"cluster\": " << cluster++ << ", \"representative\": ";
    if (r.representatives_kept) write_json_string(out, ids[rep]);
    else out << "null";
    out << ", \"members\": [";
    for (uint32_t k = lo; k < hi; ++k) {
      if (k > lo) out << ", ";
      write_json_string(out, ids[members[k]]);
    }
    out << "]}\n";
  }
}

}  // namespace gpudedup::detail

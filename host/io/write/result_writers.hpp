#pragma once
// The --removed, --pairs and --clusters files.
#include <functional>
#include <ostream>

#include "gpudedup/result.hpp"
#include "host/core/id_table.hpp"

namespace gpudedup::detail {

/// Writes a TSV field: tab, newline, carriage return and backslash escaped as \t \n \r \\.
void write_tsv_field(std::ostream& out, std::string_view s);

/// Writes more columns of a removed document's line (a tab first), given its number.
using RemovedLineEnd = std::function<void(std::ostream&, uint32_t document)>;

/// id <TAB> duplicate_of, one line per document not kept, in input order (duplicate_of:
/// host/core/keep_policy.hpp), each line ended by `line_end` when given.
void write_removed(std::ostream& out, const DedupResult& r, const IdTable& ids, const RemovedLineEnd& line_end = {});
/// id_a <TAB> id_b <TAB> similarity (6 decimals), in the order the clustering used them;
/// when the result has pair_distances (SimHash), the third column is that distance.
void write_pairs(std::ostream& out, const DedupResult& r, const IdTable& ids);
/// One JSON line per cluster of two or more, numbered in the order of their first
/// members; members in input order; the representative null under keep none.
void write_clusters(std::ostream& out, const DedupResult& r, const IdTable& ids);

}  // namespace gpudedup::detail

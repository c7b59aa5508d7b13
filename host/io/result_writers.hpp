#pragma once
// The --removed, --pairs and --clusters files.
#include <ostream>

#include "gpudedup/result.hpp"
#include "host/core/id_table.hpp"

namespace gpudedup::detail {

/// Writes a TSV field: tab, newline, carriage return and backslash escaped as \t \n \r \\.
void write_tsv_field(std::ostream& out, std::string_view s);

/// id <TAB> duplicate_of, one line per removed document, in input order.
void write_removed(std::ostream& out, const DedupResult& r, const IdTable& ids);
/// id_a <TAB> id_b <TAB> similarity (6 decimals), in the order the clustering used them;
/// when the result has pair_distances (SimHash), the third column is that distance.
void write_pairs(std::ostream& out, const DedupResult& r, const IdTable& ids);
/// One JSON line per cluster of two or more, numbered by their representatives' order;
/// members in input order.
void write_clusters(std::ostream& out, const DedupResult& r, const IdTable& ids);

}  // namespace gpudedup::detail

#pragma once
// The --removed, --pairs and --clusters files.
#include <ostream>

#include "gpudedup/engine.hpp"
#include "host/core/id_table.hpp"

namespace gpudedup::detail {

/// Writes a TSV field: tab, newline, carriage return and backslash escaped as \t \n \r \\.
void write_tsv_field(std::ostream& out, std::string_view s);

/// id <TAB> duplicate_of, one line per removed document, in input order.
void write_removed(std::ostream& out, const DedupResult& r, const IdTable& ids);
/// id_a <TAB> id_b <TAB> similarity (6 decimals), in the order the clustering used them;
/// with `distances` (SimHash) the third column is the pair's Hamming distance.
void write_pairs(std::ostream& out, const DedupResult& r, const IdTable& ids,
                 const std::vector<uint8_t>* distances = nullptr);
/// One JSON line per cluster of two or more, numbered by their representatives' order;
/// members in input order.
void write_clusters(std::ostream& out, const DedupResult& r, const IdTable& ids);

}  // namespace gpudedup::detail

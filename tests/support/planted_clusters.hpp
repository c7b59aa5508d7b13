#pragma once
// Test helper: a corpus with planted clusters of near-duplicates whose members differ in
// length (ties included), and the outputs each keep policy must give for it.
#include <cstdint>
#include <string>
#include <vector>

#include "gpudedup/config.hpp"

namespace test_support {

struct PlantedDocument {
  std::string id;
  std::string text;
  int cluster = -1;  ///< the planted cluster, -1 for a document alone
};

/// `clusters` clusters of 2..5 members (a shared text of ~90 random words plus one word
/// of its own, whose length varies; in every other cluster the shortest members tie, and
/// in every fourth the longest too)
/// and `singles` unrelated documents, shuffled, ids "d0", "d1", ... in input order.
std::vector<PlantedDocument> planted_corpus(uint64_t seed, int clusters, int singles);

/// The documents as JSONL: {"id": ..., "text": ...} per line.
std::string planted_jsonl(const std::vector<PlantedDocument>& docs);

/// What `dedup` must write for the planted clusters under `keep`, ids as planted.
struct PlantedAnswer {
  std::vector<std::string> kept;  ///< ids, in input order
  std::string removed_tsv;        ///< the --removed file
  std::string clusters_jsonl;     ///< the --clusters file
};
PlantedAnswer planted_answer(const std::vector<PlantedDocument>& docs, gpudedup::KeepPolicy keep);

}  // namespace test_support

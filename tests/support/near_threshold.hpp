#pragma once
// Test helper: disjoint pairs of documents whose char 5-gram Jaccard straddles 0.8, for
// the checks of verification near the threshold (--verify auto).
#include <cstdint>
#include <string>
#include <vector>

namespace test_support {

/// 2 x `pairs` texts; texts 2k and 2k+1 are a pair: 300 random words and a copy with a
/// share of them replaced, the share growing with k (Jaccard from about 0.88 to 0.70).
std::vector<std::string> near_threshold_pairs(uint64_t seed, int pairs);

/// The texts as JSONL: {"id": "d<i>", "text": ...} per line (the texts need no escapes).
std::string near_threshold_jsonl(const std::vector<std::string>& texts);

}  // namespace test_support

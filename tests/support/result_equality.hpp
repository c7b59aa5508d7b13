#pragma once
// Test helper: two MinHash results are the same answer (counts, pairs in order with
// their similarities, representatives); the seconds are left out.
#include <gtest/gtest.h>

#include "gpudedup/result.hpp"

namespace test_support {

inline void expect_same_result(const gpudedup::DedupResult& a, const gpudedup::DedupResult& b) {
  EXPECT_EQ(a.documents, b.documents);
  EXPECT_EQ(a.empty, b.empty);
  EXPECT_EQ(a.candidate_pairs, b.candidate_pairs);
  EXPECT_TRUE(a.pairs == b.pairs) << a.pairs.size() << " and " << b.pairs.size() << " pairs";
  EXPECT_EQ(a.representative, b.representative);
  EXPECT_EQ(a.clusters, b.clusters);
  EXPECT_EQ(a.removed, b.removed);
}

}  // namespace test_support

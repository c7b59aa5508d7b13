// The union-find's roots are the smallest members, checked against a naive labelling (by
// find() and by the one-pass roots()).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "host/core/union_find.hpp"

using gpudedup::detail::UnionFind;

TEST(UnionFind, RootsAreMinimalMembersUnderRandomUnions) {
  std::mt19937_64 rng(17);
  for (uint32_t n : {1u, 2u, 10u, 500u, 5000u}) {
    UnionFind uf(n);
    std::vector<uint32_t> label(n);  // naive: every member carries its component's minimum
    for (uint32_t i = 0; i < n; ++i) label[i] = i;
    for (uint32_t step = 0; step < 2 * n; ++step) {
      const uint32_t a = uint32_t(rng() % n), b = uint32_t(rng() % n);
      const bool separate = label[a] != label[b];
      EXPECT_EQ(uf.unite(a, b), separate);
      if (separate) {
        const uint32_t from = std::max(label[a], label[b]), to = std::min(label[a], label[b]);
        for (auto& l : label)
          if (l == from) l = to;
      }
      if (step % 97 == 0) {
        // roots() first, over chains no find() has halved yet: the same labels (and
        // find() after it, over the flattened forest).
        std::vector<uint32_t> roots;
        uf.roots(roots);
        ASSERT_EQ(roots, label);
        for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(uf.find(i), label[i]);
      }
    }
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(uf.find(i), label[i]);
    EXPECT_EQ(uf.size(), n);
  }
}

TEST(UnionFind, ChainJoinsToTheFirst) {
  UnionFind uf(6);
  EXPECT_TRUE(uf.unite(5, 4));
  EXPECT_TRUE(uf.unite(4, 3));
  EXPECT_TRUE(uf.unite(2, 5));
  EXPECT_FALSE(uf.unite(3, 2));
  for (uint32_t i = 2; i < 6; ++i) EXPECT_EQ(uf.find(i), 2u);
  EXPECT_EQ(uf.find(0), 0u);
  EXPECT_EQ(uf.find(1), 1u);
}

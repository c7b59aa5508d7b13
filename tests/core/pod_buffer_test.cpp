// PodBuffer (include/gpudedup/pod_buffer.hpp): growth keeps the values, and the huge-page
// advice of a large array covers its whole mapping. Advice over only the 2 MiB-aligned
// middle split the mapping in three; realloc could then no longer move it with mremap and
// copied it at every growth (the faults of a Debian run went from 54,000 to 99,000).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "gpudedup/pod_buffer.hpp"

using namespace gpudedup;

namespace {

/// Whether [p, p + bytes) lies within one mapping of /proc/self/maps (false when no
/// mapping holds p; `readable` false where the file is missing).
bool within_one_mapping(const void* p, size_t bytes, bool& readable) {
  std::ifstream maps("/proc/self/maps");
  readable = bool(maps);
  const auto first = reinterpret_cast<uintptr_t>(p);
  const uintptr_t last = first + bytes;
  std::string line;
  while (std::getline(maps, line)) {
    unsigned long long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx", &lo, &hi) != 2) continue;
    if (first >= lo && first < hi) return last <= hi;
  }
  return false;
}

}  // namespace

TEST(PodBuffer, GrowthKeepsTheValues) {
  PodBuffer<uint32_t> b;
  for (uint32_t i = 0; i < 3'000'000; ++i) b.push_back(i * 7u);
  ASSERT_EQ(b.size(), 3'000'000u);
  for (uint32_t i = 0; i < b.size(); i += 9973) ASSERT_EQ(b[i], i * 7u);
  b.resize(10);
  b.append(b.data(), 5);
  EXPECT_EQ(b.size(), 15u);
  EXPECT_EQ(b[12], 14u);
}

TEST(PodBuffer, LargeArraysStayOneMappingAsTheyGrow) {
  PodBuffer<uint64_t> b;
  bool readable = false;
  // From 4 MiB (huge_page_advice_bytes) up, growing by realloc several times.
  for (size_t n : {size_t(1) << 19, size_t(3) << 19, size_t(5) << 20, size_t(11) << 20}) {
    const size_t old = b.size();
    b.resize(n);
    for (size_t i = old; i < n; i += 512) b[i] = i;
    const size_t bytes = n * sizeof(uint64_t);
    ASSERT_GE(bytes, detail::huge_page_advice_bytes);
    const bool one = within_one_mapping(b.data(), bytes, readable);
    if (!readable) GTEST_SKIP() << "no /proc/self/maps here";
    EXPECT_TRUE(one) << n << " values: the array's pages lie in more than one mapping";
  }
  for (size_t i = 0; i < b.size(); i += 512) ASSERT_EQ(b[i], i) << i;
}

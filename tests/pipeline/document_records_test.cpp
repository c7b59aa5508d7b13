// DocumentRecords (host/pipeline/document_records.hpp) against the plain list of every
// document's record number it replaces: record_of, document_of and for_each agree for
// corpora that skip nothing, skip at the start, skip runs, and skip at random.
#include "host/pipeline/document_records.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace {

using gpudedup::detail::DocumentRecords;

/// Checks `documents` against `record_of` (ascending), records 0..records-1.
void expect_same(const DocumentRecords& documents, const std::vector<uint64_t>& record_of, uint64_t records) {
  ASSERT_EQ(documents.size(), record_of.size());
  for (uint64_t d = 0; d < record_of.size(); ++d) ASSERT_EQ(documents.record_of(d), record_of[d]) << "document " << d;
  size_t d = 0;
  for (uint64_t r = 0; r < records; ++r) {
    const auto found = documents.document_of(r);
    if (d < record_of.size() && record_of[d] == r) {
      ASSERT_TRUE(found.has_value()) << "record " << r;
      EXPECT_EQ(*found, d) << "record " << r;
      ++d;
    } else {
      EXPECT_FALSE(found.has_value()) << "record " << r << " was skipped";
    }
  }
  std::vector<uint64_t> walked;
  documents.for_each([&](uint64_t doc, uint64_t record) {
    EXPECT_EQ(doc, walked.size());
    walked.push_back(record);
  });
  EXPECT_EQ(walked, record_of);
}

DocumentRecords from(const std::vector<uint64_t>& record_of) {
  DocumentRecords documents;
  for (uint64_t r : record_of) documents.add(r);
  return documents;
}

TEST(DocumentRecords, DenseSkippedFirstRunsAndEnd) {
  expect_same(from({}), {}, 4);
  expect_same(from({0, 1, 2, 3, 4}), {0, 1, 2, 3, 4}, 7);
  expect_same(from({3, 4, 5}), {3, 4, 5}, 8);
  expect_same(from({0, 5, 6, 9, 10, 11, 20}), {0, 5, 6, 9, 10, 11, 20}, 25);
  expect_same(from({1, 3, 5, 7}), {1, 3, 5, 7}, 9);
}

TEST(DocumentRecords, RandomSkipsEqualTheListOfRecordNumbers) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const double skip = (trial % 5) * 0.2;  // 0 (nothing skipped) .. 0.8 of the records
    std::vector<uint64_t> record_of;
    const uint64_t records = 1 + rng() % 300;
    for (uint64_t r = 0; r < records; ++r) {
      if (std::uniform_real_distribution<double>(0, 1)(rng) >= skip) record_of.push_back(r);
    }
    expect_same(from(record_of), record_of, records + 2);
  }
}

}  // namespace

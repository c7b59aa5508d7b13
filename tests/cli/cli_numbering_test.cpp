// --first-document-number: the program numbered from 2^32 - 5 writes the removed list,
// pairs, clusters and stats of the run from 0 with every record-number id shifted by it,
// past 2^32; `sketch` writes those ids into its sketch files, and the staged route
// numbered so gives the one-run answer. A bad value is a usage error naming the option.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gpudedup/sketch_file.hpp"
#include "support/files.hpp"
#include "support/planted_clusters.hpp"
#include "support/program.hpp"

namespace gpudedup {
namespace {

using test_support::read_file;
using test_support::run_cli;

const std::string offset = "4294967291";  // 2^32 - 5
constexpr uint64_t offset_value = 4294967291u;

/// The planted corpus without ids: each document's id is its record number.
std::string corpus_jsonl() {
  std::string out;
  for (const auto& d : test_support::planted_corpus(5, 9, 12)) out += "{\"text\": \"" + d.text + "\"}\n";
  return out;
}

/// `text` with every whole TSV field or quoted string of digits shifted by `by`.
std::string shift_ids(const std::string& text, uint64_t by) {
  static const std::regex number("(?:^|\\t|\\n|\")(\\d+)(?=\\t|\\n|\"|$)");
  std::string out;
  size_t last = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number); it != std::sregex_iterator(); ++it) {
    out += text.substr(last, size_t(it->position(1)) - last) + std::to_string(std::stoull(it->str(1)) + by);
    last = size_t(it->position(1) + it->length(1));
  }
  return out + text.substr(last);
}

TEST(CliNumbering, DedupFromAnOffsetIsTheRunFromZeroShifted) {
  test_support::TempDir dir;
  const std::string corpus = dir.write("corpus.jsonl", corpus_jsonl());
  auto run = [&](const std::string& tag, const std::string& extra) {
    const auto r = run_cli("dedup -q --all-pairs " + extra + " " + corpus + " -o " + dir.path(tag + ".jsonl") +
                           " --removed " + dir.path(tag + ".removed") + " --pairs " + dir.path(tag + ".pairs") +
                           " --clusters " + dir.path(tag + ".clusters") + " --stats " + dir.path(tag + ".stats"));
    EXPECT_EQ(r.code, 0) << r.err;
  };
  run("zero", "");
  run("offset", "--first-document-number " + offset);
  EXPECT_EQ(read_file(dir.path("offset.jsonl")), read_file(dir.path("zero.jsonl")));
  for (const char* file : {".removed", ".pairs", ".clusters"}) {
    SCOPED_TRACE(file);
    const std::string got = read_file(dir.path(std::string("offset") + file));
    ASSERT_FALSE(got.empty());
    EXPECT_NE(got.find("42949673"), std::string::npos);  // past 2^32 = 4294967296
    EXPECT_EQ(got, shift_ids(read_file(dir.path(std::string("zero") + file)), offset_value));
  }
  const std::string stats = read_file(dir.path("offset.stats"));
  EXPECT_NE(stats.find("\"first_document_number\": " + offset + ","), std::string::npos) << stats;
}

TEST(CliNumbering, SketchFilesAndTheStagedRouteCarryTheNumbers) {
  test_support::TempDir dir;
  std::vector<std::string> lines;
  std::istringstream in(corpus_jsonl());
  for (std::string line; std::getline(in, line);) lines.push_back(line + "\n");
  std::string whole, a, b;
  for (size_t i = 0; i < lines.size(); ++i) {
    whole += lines[i];
    (i < lines.size() / 2 ? a : b) += lines[i];
  }
  const std::string corpus = dir.write("whole.jsonl", whole);
  const std::string shard_a = dir.write("a.jsonl", a), shard_b = dir.write("b.jsonl", b);
  for (const auto& [shard, sketch] : {std::pair{shard_a, "a.sketch"}, std::pair{shard_b, "b.sketch"}}) {
    const auto r = run_cli("sketch -q --first-document-number " + offset + " " + shard + " -o " + dir.path(sketch));
    ASSERT_EQ(r.code, 0) << r.err;
  }
  std::vector<SketchRecord> records;
  const SketchHeader h = read_sketch_file(dir.path("a.sketch"), &records);
  EXPECT_TRUE(h.ids_are_record_numbers);
  ASSERT_GT(records.size(), 6u);
  for (const auto& rec : records) EXPECT_EQ(rec.id, std::to_string(offset_value + rec.record));  // 0-based record
  EXPECT_EQ(records.back().id, std::to_string(offset_value + records.size() - 1));  // past 2^32

  auto r = run_cli("dedup -q --first-document-number " + offset + " " + corpus + " --removed " +
                   dir.path("one.removed") + " --clusters " + dir.path("one.clusters"));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("dedup -q --from-sketches --first-document-number " + offset + " " + dir.path("a.sketch") + " " +
              dir.path("b.sketch") + " --removed " + dir.path("staged.removed") + " --clusters " +
              dir.path("staged.clusters"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir.path("staged.clusters")), read_file(dir.path("one.clusters")));
  // The staged removed list adds the shards' input tables (#input lines) and the shard and
  // the record of each document: compare the id columns.
  std::istringstream staged(read_file(dir.path("staged.removed")));
  std::string ids;
  for (std::string line; std::getline(staged, line);)
    if (line.rfind("#input\t", 0) != 0) ids += line.substr(0, line.find('\t', line.find('\t') + 1)) + "\n";
  EXPECT_EQ(ids, read_file(dir.path("one.removed")));
  EXPECT_NE(ids.find("42949673"), std::string::npos);
}

TEST(CliNumbering, AValueWithoutRoomForARunIsAUsageError) {
  test_support::TempDir dir;
  const std::string corpus = dir.write("c.jsonl", "{\"text\": \"a b c\"}\n");
  const auto r = run_cli("dedup -q --first-document-number 18446744073709551615 " + corpus + " -o " +
                         dir.path("out.jsonl"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--first-document-number must be at most 2^64 - 2^32"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gpudedup

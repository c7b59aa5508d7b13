// Metadata sets for the SimHash combined score: the JSON array field in both JSONL parsers,
// the reader's handling of missing, null and non-array fields, and the score by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/xxhash64.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/simhash.hpp"
#include "host/io/read/json_fallback.hpp"
#include "host/io/read/jsonl_parser.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::TempDir;

namespace {

struct Parsed {
  bool ok = false;
  std::string problem;
  io::JsonKind meta_kind = io::JsonKind::missing;
  std::vector<std::string> meta;
  std::string text;
};

Parsed copy(bool ok, const io::RecordFields& f, const std::string& problem) {
  Parsed p;
  p.ok = ok;
  p.problem = problem;
  p.meta_kind = f.meta_kind;
  p.text = std::string(f.text);
  if (f.meta)
    for (size_t i = 0; i < f.meta->size(); ++i) p.meta.emplace_back((*f.meta)[i]);
  return p;
}

const io::FieldNames kNames{"text", "", "tags"};

/// The production path: simdjson, with the fallback for what simdjson refuses.
Parsed parse_main(const std::string& line) {
  static io::JsonlParser parser(kNames);
  io::RecordFields f;
  std::string problem;
  const bool ok = parser.parse(line, f, problem);
  return copy(ok, f, problem);
}

/// The fallback parser alone (plus the same field check as the production path).
Parsed parse_fallback(const std::string& line) {
  static io::FallbackJsonParser parser;
  io::RecordFields f;
  std::string problem;
  bool ok = parser.parse(line, kNames, f, problem);
  if (ok) {
    problem = io::field_problem(f, kNames);
    ok = problem.empty();
  }
  return copy(ok, f, problem);
}

using Strings = std::vector<std::string>;

std::string line_with(const std::string& tags) { return "{\"text\": \"t\", \"tags\": " + tags + "}"; }

}  // namespace

TEST(MetaField, BothParsersExtractTheSameElements) {
  struct Case {
    std::string tags;   // the JSON value of "tags"
    Strings expected;   // elements; ignored when the record is bad
    bool ok;
  };
  const std::vector<Case> cases = {
      {"[\"news\", \"Sports\", \"news\"]", {"news", "Sports", "news"}, true},
      {"[]", {}, true},
      {"[ ]", {}, true},
      {"[17, -3, 18446744073709551615, 1.50, 1e3, -0, 0, 2E-2]",
       {"17", "-3", "18446744073709551615", "1.50", "1e3", "-0", "0", "2E-2"}, true},
      {"[123456789012345678901234567890]", {"123456789012345678901234567890"}, true},
      {"[\"a\\\"b\", \"caf\\u00e9\", \"\\ud83d\\ude00\", \"tab\\there\", \"back\\\\slash\", \"\\/\"]",
       {"a\"b", "caf\xC3\xA9", "\xF0\x9F\x98\x80", "tab\there", "back\\slash", "/"}, true},
      {"[true, false, null, [\"nested\"], {\"k\": \"v\"}, \"kept\"]", {"kept"}, true},
      {"[\"\"]", {""}, true},
      {"null", {}, true},
      {"\"news, sports\"", {}, false},
      {"{\"a\": 1}", {}, false},
      {"42", {}, false},
      {"true", {}, false},
  };
  for (const auto& c : cases) {
    const std::string line = line_with(c.tags);
    const Parsed main = parse_main(line), fallback = parse_fallback(line);
    EXPECT_EQ(main.ok, c.ok) << line << ": " << main.problem;
    EXPECT_EQ(fallback.ok, c.ok) << line << ": " << fallback.problem;
    EXPECT_EQ(main.problem, fallback.problem) << line;
    EXPECT_EQ(main.meta_kind, fallback.meta_kind) << line;
    if (!c.ok) {
      EXPECT_NE(main.problem.find("metadata field \"tags\" is"), std::string::npos) << main.problem;
      EXPECT_NE(main.problem.find("not an array"), std::string::npos) << main.problem;
      continue;
    }
    EXPECT_EQ(main.meta, c.expected) << line;
    EXPECT_EQ(fallback.meta, c.expected) << line;
  }
}

TEST(MetaField, MissingFieldFirstKeyWinsAndInvalidUtf8) {
  // Missing: an empty set, the record is fine.
  for (auto parse : {parse_main, parse_fallback}) {
    const Parsed p = parse("{\"text\": \"t\"}");
    EXPECT_TRUE(p.ok) << p.problem;
    EXPECT_EQ(p.meta_kind, io::JsonKind::missing);
    EXPECT_TRUE(p.meta.empty());
    // The first "tags" wins, as for the text field; the field may come before the text.
    const Parsed q = parse("{\"tags\": [\"x\"], \"text\": \"t\", \"tags\": \"bad\"}");
    EXPECT_TRUE(q.ok) << q.problem;
    EXPECT_EQ(q.meta, Strings{"x"});
    EXPECT_EQ(q.text, "t");
    // Invalid UTF-8 in an element (simdjson refuses the line): kept byte for byte.
    const Parsed r = parse(line_with("[\"ok\", \"bad\xFF\"]"));
    EXPECT_TRUE(r.ok) << r.problem;
    EXPECT_EQ(r.meta, (Strings{"ok", "bad\xFF"}));
    // A malformed array is malformed JSON, not a metadata problem.
    const Parsed m = parse(line_with("[\"a\",]"));
    EXPECT_FALSE(m.ok);
    EXPECT_NE(m.problem.find("malformed JSON"), std::string::npos) << m.problem;
  }
}

TEST(MetaField, WithoutAMetaFieldNothingIsRead) {
  io::JsonlParser parser(io::FieldNames{"text", "", ""});
  io::RecordFields f;
  std::string problem;
  ASSERT_TRUE(parser.parse(line_with("\"not an array\""), f, problem)) << problem;
  EXPECT_EQ(f.meta, nullptr);
  EXPECT_EQ(f.meta_kind, io::JsonKind::missing);
}

TEST(MetaField, MustDifferFromTextAndIdFields) {
  EXPECT_THROW(io::JsonlParser(io::FieldNames{"text", "", "text"}), usage_error);
  EXPECT_THROW(io::JsonlParser(io::FieldNames{"text", "id", "id"}), usage_error);
}

TEST(MetaField, ReaderFillsSetsSkipsNonArraysAndRefusesText) {
  TempDir dir;
  const auto p = dir.write("m.jsonl",
                           "{\"text\": \"a\", \"tags\": [\"x\", \"y\"]}\n"
                           "{\"text\": \"b\"}\n"
                           "{\"text\": \"c\", \"tags\": \"x, y\"}\n"
                           "{\"text\": \"d\", \"tags\": null}\n"
                           "{\"text\": \"e\", \"tags\": [3, \"z\"]}\n");
  auto o = io_test::options_for({p});
  o.meta_field = "tags";
  RecordReader reader(o);
  InputBatch batch;
  ASSERT_TRUE(reader.next(batch, 100, 0));
  ASSERT_EQ(batch.size(), 4u);
  ASSERT_EQ(batch.meta.size(), 4u);
  EXPECT_EQ(batch.meta.set_size(0), 2u);
  EXPECT_EQ(batch.meta.element(0, 1), "y");
  EXPECT_EQ(batch.meta.set_size(1), 0u);  // missing
  EXPECT_EQ(batch.meta.set_size(2), 0u);  // null
  EXPECT_EQ(batch.meta.set_size(3), 2u);
  EXPECT_EQ(batch.meta.element(3, 0), "3");
  EXPECT_EQ(batch.records, (std::vector<uint64_t>{0, 1, 3, 4}));
  const auto& st = reader.stats();
  EXPECT_EQ(st.skipped, 1u);
  ASSERT_EQ(st.reports.size(), 1u);
  EXPECT_EQ(st.reports[0].rfind(p + ":3: metadata field \"tags\" is a string, not an array", 0), 0u)
      << st.reports[0];

  // --strict: the bad record is fatal, naming file:line.
  o.strict = true;
  RecordReader strict(o);
  try {
    while (strict.next(batch, 100, 0)) {
    }
    FAIL() << "no error";
  } catch (const data_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(p + ":3: metadata field", 0), 0u) << e.what();
  }

  // Text input: a usage error naming the option.
  const auto t = dir.write("plain.txt", "one line\n");
  auto text = io_test::options_for({t});
  text.meta_field = "tags";
  try {
    RecordReader r(text);
    FAIL() << "text input accepted";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("`input.meta_field`"), std::string::npos) << e.what();
  }
  // Without a meta field every document has an empty set.
  RecordReader plain(io_test::options_for({t}));
  ASSERT_TRUE(plain.next(batch, 100, 0));
  ASSERT_EQ(batch.meta.size(), 1u);
  EXPECT_EQ(batch.meta.set_size(0), 0u);
}

namespace {

/// MinHash of a metadata set written from the definition, apart from the library's code:
/// value i = min over elements of ((a_i * fold(XXH64(normalized element)) + b_i) mod 2^64) >> 32.
std::vector<uint32_t> hand_signature(const Strings& normalized_set, uint32_t P, uint64_t seed) {
  std::vector<uint64_t> a(P), b(P);
  detail::make_permutations(seed, P, a.data(), b.data());
  std::vector<uint32_t> sig(P, 0xFFFFFFFFu);
  for (const auto& e : normalized_set) {
    const uint64_t h = detail::xxhash64(reinterpret_cast<const uint8_t*>(e.data()), e.size());
    const uint64_t key = uint32_t(h ^ (h >> 32));
    for (uint32_t i = 0; i < P; ++i) sig[i] = std::min(sig[i], uint32_t((a[i] * key + b[i]) >> 32));
  }
  return sig;
}

double hand_jaccard(const std::vector<uint32_t>& x, const std::vector<uint32_t>& y) {
  size_t eq = 0;
  for (size_t i = 0; i < x.size(); ++i) eq += x[i] == y[i];
  return double(eq) / double(x.size());
}

}  // namespace

TEST(MetaScore, EngineScoreMatchesAHandComputation) {
  // Two documents at a small Hamming distance, tags overlapping in 2 of 4 distinct values.
  const std::string base =
      "the committee approved the new budget for public libraries after a long debate about funding "
      "schools roads and hospitals in the northern district during the winter session";
  DocumentBatch docs;
  docs.add(base);
  docs.add(base + " today");
  MetadataBatch meta;
  for (const char* e : {"Budget", "Libraries", "  schools "}) meta.add_element(e);
  meta.end_set();
  for (const char* e : {"budget", "libraries", "roads", "BUDGET"}) meta.add_element(e);
  meta.end_set();

  SimHashConfig s;
  s.hamming = 32;  // the pair is found whatever its distance
  s.use_meta = true;
  s.meta_weight = 0.6;
  s.meta_num_perm = 64;
  s.meta_seed = 7;
  Config c;
  c.backend = Backend::cpu;
  SimHashEngine engine(c, s);
  engine.add(docs, meta);
  const auto fps = engine.corpus_fingerprints();
  const DedupResult r = engine.finish();
  const SimHashPairInfo info = engine.pair_info();
  ASSERT_EQ(r.pairs.size(), 1u);
  ASSERT_EQ(info.score.size(), 1u);

  const uint32_t d = uint32_t(__builtin_popcountll(fps[0] ^ fps[1]));
  EXPECT_EQ(info.distance[0], d);
  // Normalized: ASCII lowercase, surrounding white space removed.
  const double j = hand_jaccard(hand_signature({"budget", "libraries", "schools"}, 64, 7),
                                hand_signature({"budget", "libraries", "roads", "budget"}, 64, 7));
  EXPECT_GT(j, 0.0);
  EXPECT_LT(j, 1.0);
  EXPECT_DOUBLE_EQ(info.score[0], 0.6 / (1.0 + d) + 0.4 * j);

  // --min-score just above the pair's score removes it; at the score it passes.
  s.min_score = info.score[0];
  SimHashEngine at(c, s);
  at.add(docs, meta);
  EXPECT_EQ(at.finish().pairs.size(), 1u);
  s.min_score = std::nextafter(info.score[0], 2.0);
  SimHashEngine above(c, s);
  above.add(docs, meta);
  EXPECT_EQ(above.finish().pairs.size(), 0u);

  // The MetadataSets overload gives the same scores.
  s.min_score = 0;
  SimHashEngine sets(c, s);
  const MetadataSets m = {{"Budget", "Libraries", "  schools "}, {"budget", "libraries", "roads", "BUDGET"}};
  sets.add(docs, &m);
  sets.finish();
  const SimHashPairInfo& info2 = sets.pair_info();
  EXPECT_EQ(info2.score, info.score);
  // Wrong number of sets: a usage error.
  MetadataBatch one;
  one.end_set();
  EXPECT_THROW(sets.add(docs, one), usage_error);
}

// JSONL input: fields, ids, escapes, invalid UTF-8, and every kind of bad record.
#include <gtest/gtest.h>

#include "gpudedup/errors.hpp"
#include "host/io/read/jsonl_parser.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::Doc;
using io_test::options_for;
using io_test::read_all;
using io_test::TempDir;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(IoJsonl, ReadsTextAndDefaultIds) {
  TempDir dir;
  const auto p = dir.write("a.jsonl", "{\"text\": \"hello\", \"n\": [1, {\"x\": null}]}\n{\"text\": \"\"}\n");
  InputStats st;
  const auto docs = read_all(options_for({p}), &st);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].text, "hello");
  EXPECT_EQ(docs[0].id, "0");
  EXPECT_EQ(docs[1].text, "");  // an empty text is a document
  EXPECT_EQ(docs[1].id, "1");
  EXPECT_EQ(st.records, 2u);
  EXPECT_EQ(st.documents, 2u);
  EXPECT_EQ(st.bytes, io_test::read_file(p).size());
}

TEST(IoJsonl, CustomTextFieldAndStringOrNumberIds) {
  TempDir dir;
  const auto p = dir.write("ids.ndjson",
                           "{\"id\": \"doc-a\", \"body\": \"one\"}\n"
                           "{\"body\": \"two\", \"id\": 17}\n"
                           "{\"body\": \"three\", \"id\": -1.50e3}\n"
                           "{\"body\": \"four\", \"id\": 18446744073709551615}\n"
                           "{\"body\": \"five\", \"id\": 123456789012345678901234567890}\n"
                           "{\"body\": \"six\", \"id\": \"caf\\u00e9\"}\n");
  auto o = options_for({p});
  o.text_field = "body";
  o.id_field = "id";
  InputStats st;
  const auto docs = read_all(o, &st);
  ASSERT_EQ(docs.size(), 6u) << (st.reports.empty() ? "" : st.reports[0]);
  EXPECT_EQ(docs[0].id, "doc-a");
  EXPECT_EQ(docs[1].id, "17");
  EXPECT_EQ(docs[2].id, "-1.50e3");  // numbers keep their JSON spelling
  EXPECT_EQ(docs[3].id, "18446744073709551615");
  EXPECT_EQ(docs[4].id, "123456789012345678901234567890");
  EXPECT_EQ(docs[5].id, "caf\xC3\xA9");
  EXPECT_EQ(docs[2].text, "three");
}

TEST(IoJsonl, BadIdsAreSkippedAndReported) {
  TempDir dir;
  const auto p = dir.write("ids.jsonl",
                           "{\"text\": \"a\"}\n"
                           "{\"text\": \"b\", \"id\": true}\n"
                           "{\"text\": \"c\", \"id\": 3}\n");
  auto o = options_for({p});
  o.id_field = "id";
  InputStats st;
  const auto docs = read_all(o, &st);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].record, 2u);
  ASSERT_EQ(st.reports.size(), 2u);
  EXPECT_TRUE(contains(st.reports[0], p + ":1: missing id field \"id\"")) << st.reports[0];
  EXPECT_TRUE(contains(st.reports[1], p + ":2: id field \"id\" is a boolean")) << st.reports[1];
}

TEST(IoJsonl, EscapesAreDecoded) {
  TempDir dir;
  const auto p = dir.write("e.jsonl",
                           R"({"text": "a\nb\t\"q\" \\ \/ \u00e9 \u4e2d \ud83d\ude00 \b\f\r"})"
                           "\n");
  const auto docs = read_all(options_for({p}));
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].text, "a\nb\t\"q\" \\ / \xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80 \b\f\r");
}

TEST(IoJsonl, InvalidUtf8IsKeptByteForByte) {
  TempDir dir;
  // Raw invalid bytes (a lone continuation byte, a truncated sequence, 0xFF) in the text,
  // in another field and in a key, plus an escape that must still be decoded.
  const std::string text = "ok \x80 bad \xE4\xB8 end \xFF";
  const auto p = dir.write("u.jsonl", "{\"k\xFE\": \"\xC0\", \"text\": \"" + text + " \\u00e9\\n\"}\n" +
                                          "{\"text\": \"fine\"}\n");
  InputStats st;
  const auto docs = read_all(options_for({p}), &st);
  ASSERT_EQ(docs.size(), 2u) << (st.reports.empty() ? "" : st.reports[0]);
  EXPECT_EQ(docs[0].text, text + " \xC3\xA9\n");
  EXPECT_EQ(st.skipped, 0u);
}

TEST(IoJsonl, UnpairedSurrogateEscapeIsKept) {
  TempDir dir;
  const auto p = dir.write("s.jsonl", R"({"text": "x\ud800y\udc00z"})" "\n");
  const auto docs = read_all(options_for({p}));
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].text, "x\xED\xA0\x80y\xED\xB0\x80z");
}

TEST(IoJsonl, MalformedRecordsAreSkippedCountedAndReported) {
  TempDir dir;
  const auto p = dir.write("bad.jsonl",
                           "{\"text\": \"good 0\"}\n"
                           "{\"text\": \"no closing brace\"\n"
                           "\n"
                           "   \t \n"
                           "{\"title\": \"no text field\"}\n"
                           "{\"text\": 42}\n"
                           "[\"not\", \"an object\"]\n"
                           "{\"text\": \"x\", \"other\": [1, 2,, 3]}\n"
                           "{\"text\": \"trailing\"} junk\n"
                           "{\"text\": \"bad \\q escape\"}\n"
                           "{\"text\": \"good 1\"}\n");
  auto o = options_for({p});
  o.report_limit = 3;
  InputStats st;
  const auto docs = read_all(o, &st);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].text, "good 0");
  EXPECT_EQ(docs[1].text, "good 1");
  EXPECT_EQ(docs[1].record, 8u);  // skipped records still take a number; blank lines do not
  EXPECT_EQ(docs[1].id, "8");
  EXPECT_EQ(st.records, 9u);
  EXPECT_EQ(st.skipped, 7u);
  EXPECT_EQ(st.blank_lines, 2u);
  EXPECT_EQ(st.documents + st.skipped, st.records);
  ASSERT_EQ(st.reports.size(), 3u);  // report_limit
  EXPECT_TRUE(contains(st.reports[0], p + ":2: malformed JSON")) << st.reports[0];
  EXPECT_TRUE(contains(st.reports[1], p + ":5: missing field \"text\"")) << st.reports[1];
  EXPECT_TRUE(contains(st.reports[2], p + ":6: field \"text\" is a number, not a string")) << st.reports[2];
}

TEST(IoJsonl, EachMalformedShapeIsRefused) {
  io::JsonlParser parser(io::FieldNames{"text", ""});
  io::RecordFields f;
  std::string problem;
  for (const char* bad : {"{", "{\"text\": \"a\"", "{\"text\" \"a\"}", "{text: \"a\"}", "{\"text\": 'a'}",
                          "{\"text\": \"a\",}", "{\"text\": \"a\"}}", "{\"text\": \"a\", \"n\": 01}",
                          "{\"text\": \"a\", \"n\": 1.}", "{\"text\": \"a\", \"n\": tru}", "{\"text\": \"a\tb\"}",
                          "{\"text\": \"\\u12\"}", "\"just a string\"", "{\"text\": \"a\"} {\"text\": \"b\"}"}) {
    EXPECT_FALSE(parser.parse(bad, f, problem)) << bad;
    EXPECT_FALSE(problem.empty()) << bad;
  }
  EXPECT_TRUE(parser.parse(" {\"text\" : \"a\" , \"n\": -0.5E+2, \"b\": [true, false, null, {}, []]} ", f, problem))
      << problem;
  // The same verdicts on lines that also hold invalid UTF-8 (the fallback parser's path).
  EXPECT_FALSE(parser.parse("{\"text\": \"\xFF\"", f, problem));
  EXPECT_TRUE(contains(problem, "malformed JSON at byte")) << problem;
  EXPECT_FALSE(parser.parse("{\"x\": \"\xFF\"}", f, problem));
  EXPECT_TRUE(contains(problem, "missing field \"text\"")) << problem;
  EXPECT_FALSE(parser.parse("[\"\xFF\"]", f, problem));
  EXPECT_TRUE(contains(problem, "not a JSON object")) << problem;
}

TEST(IoJsonl, FirstFieldWinsWhenDuplicated) {
  io::JsonlParser parser(io::FieldNames{"text", ""});
  io::RecordFields f;
  std::string problem;
  ASSERT_TRUE(parser.parse("{\"text\": \"first\", \"text\": \"second\"}", f, problem));
  EXPECT_EQ(f.text, "first");
  ASSERT_TRUE(parser.parse("{\"text\": \"first\xFF\", \"text\": \"second\"}", f, problem));
  EXPECT_EQ(f.text, "first\xFF");
}

TEST(IoJsonl, StrictStopsAtTheFirstBadRecordNamingFileAndLine) {
  TempDir dir;
  const auto p = dir.write("strict.jsonl", "{\"text\": \"ok\"}\n\n{\"body\": \"x\"}\n{\"text\": 1}\n");
  auto o = options_for({p});
  o.strict = true;
  RecordReader reader(o);
  InputBatch batch;
  try {
    while (reader.next(batch, 10, 0)) {
    }
    FAIL() << "no error";
  } catch (const data_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(p + ":3: missing field \"text\"", 0), 0u) << e.what();
  }
}

TEST(IoJsonl, CrlfLinesAndBlankCrlfLines) {
  TempDir dir;
  const auto p = dir.write("crlf.jsonl", "{\"text\": \"a\"}\r\n\r\n{\"text\": \"b\"}\r\n");
  InputStats st;
  const auto docs = read_all(options_for({p}), &st);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[1].text, "b");
  EXPECT_EQ(st.blank_lines, 1u);
  EXPECT_EQ(st.skipped, 0u);
}

// Both parsers (simdjson, and the fallback that also reads invalid UTF-8) refuse the same
// nesting depth, so whether a deep record is kept does not depend on its text's bytes.
TEST(IoJsonl, BothParsersRefuseTheSameDepth) {
  io::JsonlParser parser(io::FieldNames{"text", ""});
  io::RecordFields f;
  std::string problem;
  auto nested = [](int depth) { return std::string(size_t(depth), '[') + std::string(size_t(depth), ']'); };
  for (const std::string text : {"plain text", "bad \xFF byte"}) {
    const std::string head = "{\"text\": \"" + text + "\", \"x\": ";
    EXPECT_TRUE(parser.parse(head + nested(io::max_json_depth - 1) + "}", f, problem)) << text << ": " << problem;
    EXPECT_FALSE(parser.parse(head + nested(io::max_json_depth + 1) + "}", f, problem)) << text;
    EXPECT_NE(problem.find("nested too deeply"), std::string::npos) << text << ": " << problem;
  }
}

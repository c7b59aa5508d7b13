// Every row of the option table (gpudedup/options.hpp) that has a flag is an option of
// `gpudedup dedup`: listed by --help with its kind and the Config's default, its help
// text the row's (dedup, sketch, index: the shared rows too), and refused for a method
// that does not read its group; every option --help lists in a method's section is a row.
// The rows read when sketching are the options of sketch's shingle section, refused by
// dedup --from-sketches and compared by an index, all from the mark on the row.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/options.hpp"
#include "support/files.hpp"
#include "support/program.hpp"

namespace gpudedup {
namespace {

bool reads(const MethodEntry& m, const std::string& group) {
  return std::find(m.reads.begin(), m.reads.end(), group) != m.reads.end();
}

/// The help text of `dedup` by section heading: each section's lines.
std::map<std::string, std::string> help_sections() {
  const auto r = test_support::run_cli("dedup --help");
  EXPECT_EQ(r.code, 0) << r.err;
  std::map<std::string, std::string> sections;
  std::istringstream in(r.out);
  static const std::regex section(R"(^ (\S.*) options:$)");  // " Memory options:"
  std::string heading;
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, m, section)) heading = m[1];
    sections[heading] += line + "\n";
  }
  return sections;
}

TEST(CliOptionTable, EveryRowWithAFlagIsListedWithItsKindAndDefault) {
  const auto r = test_support::run_cli("dedup --help");
  ASSERT_EQ(r.code, 0) << r.err;
  size_t rows = 0;
  for (const OptionRow& row : option_table()) {
    if (row.flag.empty()) continue;
    ++rows;
    const char* value = row.kind == OptionKind::count ? " INT" : row.kind == OptionKind::real ? " NUM"
                        : row.kind == OptionKind::flag ? "" : " arg";
    const std::regex listed("\n  +--" + row.flag + value + "(  |\n)");
    EXPECT_TRUE(std::regex_search(r.out, listed)) << "--" << row.flag << " not listed as a " << value;
    if (row.has_default) {
      // The option's entry: up to the next option's line; cxxopts wraps it, so compare
      // without line breaks and indentation.
      std::smatch at;
      ASSERT_TRUE(std::regex_search(r.out, at, listed)) << row.flag;
      const std::string rest = at.suffix();
      std::smatch next;
      const std::string entry =
          std::regex_search(rest, next, std::regex("\n  (-\\w,|   ) --")) ? next.prefix().str() : rest;
      const std::string flat = std::regex_replace(entry, std::regex("\\s+"), " ");
      EXPECT_NE(flat.find("(default: " + row.get(Config{}) + ")"), std::string::npos) << "--" << row.flag << ": " << flat;
    }
  }
  EXPECT_GE(rows, 25u) << "the table has the methods' options";
}

/// The entry of --FLAG in a help text, its lines joined with single spaces: the help and
/// the default, without the flag and its value; empty when --FLAG is not listed.
std::string help_entry(const std::string& help, const std::string& flag) {
  std::smatch at;
  if (!std::regex_search(help, at, std::regex("\n  (-\\w, |    )--" + flag + "( \\w+)?(  |\n)"))) return "";
  const std::string rest = at.suffix();
  // Up to the next option's line or the end of the section (a blank line).
  std::smatch next;
  const std::string entry =
      std::regex_search(rest, next, std::regex("\n(  (-\\w,|   ) --|\n)")) ? next.prefix().str() : rest;
  const std::string flat = std::regex_replace(entry, std::regex("\\s+"), " ");
  const size_t first = flat.find_first_not_of(' '), last = flat.find_last_not_of(' ');
  return first == std::string::npos ? "" : flat.substr(first, last - first + 1);
}

std::string flattened(const std::string& text) { return std::regex_replace(text, std::regex("\\s+"), " "); }

// The program shows each row's own help and default: the row is the one declaration of the
// flag, so its help cannot drift from the program's. dedup takes every row; sketch and index
// the shingle, sketch and backend rows (their --method and LSH flags are their own).
TEST(CliOptionTable, EveryRowsHelpIsTheRowsText) {
  const std::set<std::string> sketch_headings = {"Shingles and sketches", "Backend"};
  const std::vector<std::pair<std::string, std::set<std::string>>> commands = {
      {"dedup", {}}, {"sketch", {"Input", "Shingles and sketches", "Backend"}}, {"index create", sketch_headings},
      {"index add", sketch_headings}, {"index query", sketch_headings}};
  size_t compared = 0;
  for (const auto& [command, headings] : commands) {
    const auto r = test_support::run_cli(command + " --help");
    ASSERT_EQ(r.code, 0) << command << ": " << r.err;
    for (const OptionRow& row : option_table()) {
      if (row.flag.empty()) continue;
      if (!headings.empty() && !headings.count(row.heading)) continue;
      // A list's flag names a FILE of its strings (--stopwords): the row's help of that file.
      const std::string help = row.kind == OptionKind::list ? row.file_help : row.help;
      const std::string want = flattened(help) + (row.has_default ? " (default: " + row.get(Config{}) + ")" : "");
      EXPECT_EQ(help_entry(r.out, row.flag), want) << command << " --" << row.flag;
      ++compared;
    }
  }
  EXPECT_GE(compared, 40u) << "dedup's rows and the shared rows of sketch and index";
}

TEST(CliOptionTable, EveryMethodSectionOptionIsARow) {
  std::set<std::string> flags;
  std::set<std::string> headings;
  for (const OptionRow& row : option_table()) {
    if (!row.flag.empty()) flags.insert(row.flag);
    if (!row.group.empty() && row.heading != "Method") headings.insert(row.heading);
  }
  ASSERT_FALSE(headings.empty());
  const std::regex option("\n  +--([a-z0-9-]+)");
  const auto sections = help_sections();
  for (const std::string& heading : headings) {
    bool found = false;
    for (const auto& [name, text] : sections) {
      if (name != heading) continue;
      found = true;
      const std::string body = "\n" + text;
      for (std::sregex_iterator it(body.begin(), body.end(), option), end; it != end; ++it) {
        EXPECT_TRUE(flags.count((*it)[1])) << "--" << (*it)[1] << " of section " << heading << " is no row";
      }
    }
    EXPECT_TRUE(found) << "no help section " << heading;
  }
}

TEST(CliOptionTable, EveryGroupIsRefusedForAMethodThatDoesNotReadIt) {
  test_support::TempDir dir;
  const std::string in = dir.write("in.jsonl", "{\"text\": \"a b c\"}\n");
  std::map<std::string, std::vector<OptionRow>> groups;
  for (OptionRow& row : option_table()) {
    if (!row.group.empty() && !row.flag.empty()) groups[row.group].push_back(row);
  }
  ASSERT_GE(groups.size(), 7u);
  const std::vector<MethodEntry> methods = method_table();
  for (const auto& [group, rows] : groups) {
    std::vector<std::string> readers;
    const MethodEntry* other = nullptr;
    for (const MethodEntry& m : methods) {
      if (reads(m, group)) readers.push_back(m.name);
      else if (!other) other = &m;
    }
    if (!other) continue;  // every method reads it
    // Every option of the group, each with a value its check takes (the group's first is named).
    std::string args;
    for (const OptionRow& row : rows) {
      if (row.kind == OptionKind::flag) { args += " --" + row.flag; continue; }
      const std::string value = row.has_default ? row.get(Config{})
                                : row.kind == OptionKind::count ? std::to_string(row.min) : "x";
      args += " --" + row.flag + " " + value;
    }
    const auto r = test_support::run_cli("dedup " + in + " -o " + dir.path("k") + " --method " + other->name + args);
    const std::string why = readers.size() == 1 ? " applies to --method " + readers[0] + " only"
                                                 : " does not apply to --method " + other->name;
    EXPECT_EQ(r.code, 2) << group << ": " << r.err;
    EXPECT_EQ(r.err, "gpudedup dedup: --" + rows.front().flag + why + "\n") << args;
  }
}

/// The options of one section of a command's --help ("Shingles and sketches").
std::set<std::string> section_flags(const std::string& command, const std::string& heading) {
  const auto r = test_support::run_cli(command + " --help");
  EXPECT_EQ(r.code, 0) << r.err;
  std::set<std::string> flags;
  std::istringstream in(r.out);
  static const std::regex section(R"(^ (\S.*) options:$)"), option(R"(^  +(-\w, )?--([a-z0-9-]+))");
  std::string at;
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, m, section)) at = m[1];
    else if (at == heading && std::regex_search(line, m, option)) flags.insert(m[2]);
  }
  return flags;
}

/// A value of `row` other than a default Config's, as the program's flag takes it: the
/// default count plus one, a flag given, a list FILE, or the first word of the row's help
/// that the row takes as another choice ("char or word": word).
std::string other_value(const OptionRow& row, const std::string& list_file) {
  const std::string given = row.has_default ? row.get(Config{}) : "";
  switch (row.kind) {
    case OptionKind::flag: return "";
    case OptionKind::list: return list_file;
    case OptionKind::count: return std::to_string(std::stoull(given) + 1);
    case OptionKind::real: return given == "0.5" ? "0.25" : "0.5";
    default: break;
  }
  std::istringstream words(std::regex_replace(row.help, std::regex("[^a-z0-9-]+"), " "));
  for (std::string w; words >> w;) {
    Config c;
    try {
      row.set(c, OptionValue{0, 0, false, w, {}});
    } catch (const usage_error&) {
      continue;
    }
    if (row.get(c) != given) return w;
  }
  ADD_FAILURE() << "--" << row.flag << ": no other value found in its help";
  return given;
}

// Adding a row read when sketching is all it takes: sketch shows it with the shingle
// options, dedup --from-sketches refuses it (the sketch files hold it), and index add and
// query compare it with the index's (a value other than the index's is refused).
TEST(CliOptionTable, EverySketchingRowIsRecordedBySketchesAndTheIndex) {
  std::set<std::string> sketching;
  for (const OptionRow& row : option_table()) {
    if (row.sketching && !row.flag.empty()) sketching.insert(row.flag);
  }
  EXPECT_EQ(section_flags("sketch", "Shingles and sketches"), sketching);
  EXPECT_EQ(section_flags("index add", "Shingles and sketches"), sketching);
  EXPECT_GE(sketching.size(), 9u) << "shingles, n-gram, stop words, normalization, tokenizer, P, family, seed";

  test_support::TempDir dir;
  const std::string in = dir.write("in.jsonl", "{\"text\": \"the one and the other\"}\n");
  const std::string words = dir.write("stop.txt", "the\n");
  const std::string index = dir.path("idx");
  ASSERT_EQ(test_support::run_cli("index create " + index).code, 0);
  const std::string why = " does not apply to --from-sketches: the sketch files hold what gpudedup sketch read and how\n";
  for (const OptionRow& row : option_table()) {
    if (!row.sketching || row.flag.empty()) continue;
    const std::string arg = " --" + row.flag + (row.kind == OptionKind::flag ? "" : " " + other_value(row, words));
    const auto staged = test_support::run_cli("dedup --from-sketches " + dir.path("a.sketch") + arg);
    EXPECT_EQ(staged.code, 2) << arg;
    EXPECT_EQ(staged.err, "gpudedup dedup: --" + row.flag + why) << arg;
    for (const char* command : {"index query ", "index add -q "}) {
      const auto other = test_support::run_cli(command + index + " " + in + arg);
      EXPECT_EQ(other.code, 2) << command << arg << ": " << other.err;
      EXPECT_NE(other.err.find("was built with other parameters"), std::string::npos) << command << arg << ": " << other.err;
      EXPECT_NE(other.err.find("--" + row.flag), std::string::npos) << command << arg << ": " << other.err;
    }
  }
  // The index's own values are taken.
  EXPECT_EQ(test_support::run_cli("index query -o " + dir.path("a.tsv") + " " + index + " " + in + " --ngram 5").code, 0);
}

// index's LSH section is the table's rows in the index's words: a value dedup refuses for
// --threshold, --bands, --rows or --similarity, index create refuses with dedup's message
// (--bands 0 --rows 0 was taken as "chosen for the threshold").
TEST(CliOptionTable, IndexLshOptionsAreCheckedAsDedupChecksThem) {
  test_support::TempDir dir;
  const std::string in = dir.write("in.jsonl", "{\"text\": \"a b c\"}\n");
  EXPECT_EQ(section_flags("index create", "LSH"), (std::set<std::string>{"threshold", "bands", "rows", "similarity"}));
  for (const std::string args : {"--threshold 1.5", "--threshold 0", "--bands 0 --rows 0", "--bands -1 --rows 4",
                                 "--bands 300 --rows 1", "--bands 16 --rows 32", "--bands 4", "--similarity cosine"}) {
    const auto dedup = test_support::run_cli("dedup " + in + " -o " + dir.path("k") + " " + args);
    const auto index = test_support::run_cli("index create " + dir.path("idx") + " " + args);
    EXPECT_EQ(dedup.code, 2) << args << ": " << dedup.err;
    EXPECT_EQ(index.code, 2) << args << ": " << index.err;
    const std::string why = dedup.err.substr(dedup.err.find(": ") + 2);
    EXPECT_EQ(index.err, "gpudedup index: " + why) << args;
  }
}

}  // namespace
}  // namespace gpudedup

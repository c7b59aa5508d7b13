// The method table is the seam for new methods: a toy method registered here, in the
// tests only, runs through make_method() and the whole dedup job (run_dedup) without any
// other change to the library, and its one option, declared in its row, is a flag of
// `gpudedup dedup` (help, parsing, refused for other methods) with no other change; a
// second, marked read when sketching, is refused by dedup --from-sketches and compared by
// the index by that mark alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/options.hpp"
#include "gpudedup/pipeline.hpp"
#include "host/cli/flag_names.cpp"  // CLI sources live in the program, not the library
#include "host/cli/method_options.cpp"
#include "host/cli/options.cpp"
#include "host/cli/sketching_options.cpp"
#include "host/cli/strict_options.cpp"
#include "host/cli/table_options.cpp"

namespace gpudedup {
namespace {

/// Toy method: documents with the same length are duplicates. It reads a metadata field
/// and wants a first pass, to show that both needs reach it through the table alone.
class SameLength final : public DedupMethod {
 public:
  explicit SameLength(const Config&) {}
  Backend backend() const override { return Backend::cpu; }
  MethodNeeds needs() const override { return {true, meta_}; }
  void prepass(const DocumentBatch& docs) override { prepassed_ += docs.size(); }
  uint64_t add(const DocumentBatch& docs, const MetadataBatch& meta) override {
    EXPECT_GT(prepassed_, 0u) << "prepass() comes before add()";
    EXPECT_EQ(meta.size(), docs.size());
    const uint64_t first = lengths_.size();
    for (size_t i = 0; i < docs.size(); ++i) {
      lengths_.push_back(docs.text(i).size());
      meta_elements_ += meta.size() ? meta.set_size(i) : 0;
    }
    return first;
  }
  uint64_t size() const override { return lengths_.size(); }
  DedupResult finish() override {
    DedupResult r;
    r.documents = size();
    r.representative.resize(size());
    std::map<size_t, uint32_t> first_of;
    for (uint32_t d = 0; d < size(); ++d) {
      const auto [it, fresh] = first_of.emplace(lengths_[d], d);
      r.representative[d] = it->second;
      if (!fresh) {
        r.pairs.push_back({it->second, d, 1.0});
        ++r.removed;
      }
    }
    for (const auto& [len, d] : first_of) {
      (void)len;
      for (uint32_t x = 0; x < size(); ++x) {
        if (x != d && r.representative[x] == d) {
          ++r.clusters;
          break;
        }
      }
    }
    return r;
  }
  std::vector<StatsField> stats_fields(const DedupResult&) const override {
    return {{"prepassed", std::to_string(prepassed_)}, {"meta_elements", std::to_string(meta_elements_)}};
  }
  std::vector<std::string> describe(const DedupResult& r) const override {
    return {"same-length toy, " + std::to_string(r.removed) + " removed"};
  }

 private:
  std::string meta_ = "tags";
  std::vector<size_t> lengths_;
  uint64_t prepassed_ = 0;
  uint64_t meta_elements_ = 0;
};

/// Where the toy's option lands: a method registered at run time has no group of Config.
uint64_t toy_min_length = 0;

/// The toy's one option, declared once, in its row of the method table.
OptionRow toy_option() {
  OptionRow r;
  r.param = "toy.min_length";
  r.flag = "toy-min-length";
  r.keyword = "toy_min_length";
  r.group = "toy";
  r.heading = "Same length (--method same-length)";
  r.kind = OptionKind::count;
  r.min = 0;
  r.max = 1000;
  r.type_max = 1000000;
  r.help = "texts shorter than this many bytes are never duplicates, 0..1000";
  r.set = [](Config&, const OptionValue& v) { toy_min_length = v.count; };
  r.get = [](const Config&) { return std::string("0"); };
  return r;
}

/// Set when the toy's sketching option is copied from one Config to another.
bool toy_salt_copied = false;

/// The toy's option read when sketching (OptionRow::sketching): as if it decided a signature.
OptionRow toy_sketching_option() {
  OptionRow r = toy_option();
  r.param = "toy.salt";
  r.flag = "toy-salt";
  r.keyword = "toy_salt";
  r.help = "salt of the toy's sketch, 0..1000";
  r.sketching = true;
  r.set = [](Config&, const OptionValue&) {};
  r.copy = [](Config&, const Config&) { toy_salt_copied = true; };
  return r;
}

void register_toy() {
  static const bool once = [] {
    MethodEntry e;
    e.name = "same-length";
    e.description = "toy: equal text lengths are duplicates";
    e.reads = {"toy"};
    e.options = {toy_option(), toy_sketching_option()};
    e.validate = [](const Config& c) {
      GD_EXPECTS(c.threshold == 1.0, "--threshold must be 1 for same-length");
    };
    e.make = [](const Config& c) { return std::make_unique<SameLength>(c); };
    register_method(e);
    return true;
  }();
  (void)once;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(MethodTable, BuiltInMethodsAreRows) {
  std::vector<std::string> names;
  for (const auto& m : method_table()) names.push_back(m.name);
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 4),
            (std::vector<std::string>{"minhash", "exact", "simhash", "bloom"}));
  for (const auto& name : {"minhash", "exact", "simhash", "bloom"}) {
    Config c;
    c.method = name;
    c.backend = Backend::cpu;
    const auto m = make_method(c);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->backend(), Backend::cpu);
    DocumentBatch b;
    b.add("the same text, twice over");
    b.add("the same text, twice over");
    b.add("something else entirely");
    if (m->needs().prepass) m->prepass(b);  // the protocol of method.hpp (bloom sizes its filters)
    m->add(b);
    EXPECT_EQ(m->size(), 3u);
    const DedupResult r = m->finish();
    EXPECT_EQ(r.representative, (std::vector<doc_number>{0, 0, 2})) << name;
    EXPECT_FALSE(m->describe(r).empty());
  }
}

TEST(MethodTable, UnknownAndDuplicateNamesAreRefused) {
  Config c;
  c.method = "no-such-method";
  try {
    make_method(c);
    ADD_FAILURE();
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("minhash, exact, simhash, bloom"), std::string::npos) << e.what();
  }
  MethodEntry again;
  again.name = "minhash";
  again.make = [](const Config& c) { return make_method(c); };
  EXPECT_THROW(register_method(again), usage_error);
  EXPECT_THROW(register_method(MethodEntry{}), usage_error);
}

TEST(MethodTable, ToyMethodRunsThroughTheTableAlone) {
  register_toy();
  Config c;
  c.method = "same-length";
  EXPECT_THROW(make_method(c), usage_error) << "the row's own checks run";
  c.threshold = 1.0;
  EXPECT_TRUE(make_method(c));
}

TEST(MethodTable, ToyMethodRunsTheWholeDedupJob) {
  register_toy();
  const auto dir = std::filesystem::temp_directory_path() / ("gpudedup_toy_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto in = dir / "in.jsonl";
  std::ofstream(in) << R"({"id": "a", "text": "abc", "tags": ["x", "y"]})" "\n"
                    << R"({"id": "b", "text": "defg", "tags": []})" "\n"
                    << R"({"id": "c", "text": "xyz", "tags": ["z"]})" "\n";
  DedupJob job;
  job.input.paths = {in.string()};
  job.input.id_field = "id";
  job.config.method = "same-length";
  job.config.threshold = 1.0;
  job.outputs.output = (dir / "kept.jsonl").string();
  job.outputs.removed = (dir / "removed.tsv").string();
  job.outputs.stats = (dir / "stats.json").string();
  const DedupSummary s = run_dedup(job);
  EXPECT_EQ(s.kept, 2u);
  EXPECT_EQ(read_file(dir / "removed.tsv"), "c\ta\n");
  EXPECT_EQ(read_file(dir / "kept.jsonl"),
            std::string(R"({"id": "a", "text": "abc", "tags": ["x", "y"]})" "\n") +
                R"({"id": "b", "text": "defg", "tags": []})" "\n");
  const std::string stats = read_file(dir / "stats.json");
  EXPECT_NE(stats.find("\"method\": \"same-length\""), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"prepassed\": 3"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"meta_elements\": 3"), std::string::npos) << stats;
  ASSERT_EQ(s.description.size(), 1u);
  EXPECT_EQ(s.description[0], "same-length toy, 1 removed");
  std::filesystem::remove_all(dir);
}

/// `gpudedup dedup`'s method options, registered as the program registers them.
cxxopts::Options dedup_options() {
  cxxopts::Options o("gpudedup dedup");
  cli::add_method_options(o, cli::MethodSection::method);
  cli::add_method_options(o, cli::MethodSection::own);
  return o;
}

/// `args` parsed as the program parses them and read into a Config for `method`: "" when
/// taken, else the program's message.
std::string dedup_run(const std::string& method, std::vector<std::string> args) {
  args.insert(args.begin(), "gpudedup dedup");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  try {
    cxxopts::Options o = dedup_options();
    cxxopts::ParseResult r;
    cli::parse_or_help(o, int(argv.size()), argv.data(), r);
    cli::refuse_other_methods_options(r, find_method(method));
    Config c;
    cli::read_method_options(r, cli::MethodSection::own, c);
    return "";
  } catch (const usage_error& e) {
    return cli::with_flags(e.what());
  }
}

TEST(MethodTable, ToyOptionIsAFlagOfDedup) {
  register_toy();
  cxxopts::Options o = dedup_options();
  const std::string help = cli::help_with_kinds(o.help(), cli::option_shapes(o));
  EXPECT_NE(help.find("Same length (--method same-length) options:"), std::string::npos) << help;
  EXPECT_NE(help.find("--toy-min-length INT"), std::string::npos) << help;
  std::string flat;  // cxxopts wraps the help: words with single spaces
  for (std::istringstream words(help); words >> std::ws && !words.eof();) {
    std::string w;
    words >> w;
    flat += w + " ";
  }
  EXPECT_NE(flat.find("texts shorter than this many bytes are never duplicates, 0..1000 (default: 0)"),
            std::string::npos) << help;
  toy_min_length = 0;
  EXPECT_EQ(dedup_run("same-length", {"--toy-min-length", "7"}), "");
  EXPECT_EQ(toy_min_length, 7u);
  EXPECT_EQ(dedup_run("same-length", {"--toy-min-length", "1001"}), "--toy-min-length must be in 0..1000, got 1001");
  EXPECT_EQ(dedup_run("same-length", {"--toy-min-length", "1.5"}),
            "--toy-min-length takes a whole number in decimal digits, got '1.5'");
  EXPECT_EQ(dedup_run("minhash", {"--toy-min-length", "7"}), "--toy-min-length applies to --method same-length only");
  EXPECT_EQ(dedup_run("same-length", {"--hamming", "3"}), "--hamming applies to --method simhash only");
  EXPECT_EQ(cli::with_flags("`toy.min_length` is what the program calls --toy-min-length"),
            "--toy-min-length is what the program calls --toy-min-length");
}

/// `args` parsed as dedup parses them.
cxxopts::ParseResult dedup_parse(std::vector<std::string> args) {
  args.insert(args.begin(), "gpudedup dedup");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  cxxopts::Options o = dedup_options();
  cxxopts::ParseResult r;
  cli::parse_or_help(o, int(argv.size()), argv.data(), r);
  return r;
}

TEST(MethodTable, ToySketchingOptionIsRefusedWithSketchFilesAndComparedByTheIndex) {
  register_toy();
  const auto salted = dedup_parse({"--toy-salt", "3"});
  try {
    cli::refuse_with_sketch_files(salted);
    ADD_FAILURE() << "--from-sketches takes --toy-salt";
  } catch (const usage_error& e) {
    EXPECT_STREQ(e.what(), "--toy-salt does not apply to --from-sketches: the sketch files hold what gpudedup sketch "
                           "read and how");
  }
  EXPECT_TRUE(cli::sketching_option_given(salted)) << "the index compares it";
  toy_salt_copied = false;
  cli::with_given_sketching_options(salted, Config{}, Config{});
  EXPECT_TRUE(toy_salt_copied) << "laid over the index's settings";
  // The toy's other option does not decide a sketch.
  const auto plain = dedup_parse({"--toy-min-length", "3"});
  EXPECT_NO_THROW(cli::refuse_with_sketch_files(plain));
  EXPECT_FALSE(cli::sketching_option_given(plain));
  toy_salt_copied = false;
  cli::with_given_sketching_options(plain, Config{}, Config{});
  EXPECT_FALSE(toy_salt_copied);
}

TEST(MethodTable, ToyOptionIsRefusedOutsideTheToyByTheLibrary) {
  register_toy();
  EXPECT_NO_THROW(refuse_other_methods_options({"toy.min_length"}, "same-length"));
  try {
    refuse_other_methods_options({"threshold", "toy.min_length"}, "bloom");
    ADD_FAILURE();
  } catch (const usage_error& e) {
    EXPECT_STREQ(e.what(), "`toy.min_length` applies to `method` same-length only");
  }
}

}  // namespace
}  // namespace gpudedup

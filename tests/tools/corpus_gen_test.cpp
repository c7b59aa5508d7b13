// gen: determinism, cluster sizes, the truth file, and planted edit rates measured on the
// generated text within statistical bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <set>
#include <sstream>
#include <string>
#include <unordered_set>

#include "gpudedup/corpus_gen.hpp"
#include "gpudedup/errors.hpp"
#include "host/core/parallel_errors.hpp"

using namespace gpudedup;

namespace {

struct Output {
  std::string corpus, truth;
};

Output generate(const CorpusOptions& o) {
  std::ostringstream c, t;
  CorpusGenerator(o).write(c, t);
  return {c.str(), t.str()};
}

// Only the edits a test names.
CorpusOptions no_edits(uint64_t documents, uint64_t seed) {
  CorpusOptions o;
  o.documents = documents;
  o.seed = seed;
  o.cluster_fraction = 1;
  o.max_cluster_size = 2;  // base + one edited member per cluster
  o.edits = EditRates{0, 0, 0, 0, 0, 0, 0};
  return o;
}

// Words of a text, lowercased, without the sentence periods the built-in model adds.
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string w;
  while (in >> w) {
    if (!w.empty() && w.back() == '.') w.pop_back();
    std::transform(w.begin(), w.end(), w.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    out.push_back(w);
  }
  return out;
}

bool is_subsequence(const std::vector<std::string>& small, const std::vector<std::string>& big) {
  size_t i = 0;
  for (size_t j = 0; j < big.size() && i < small.size(); ++j) i += small[i] == big[j];
  return i == small.size();
}

// Measured share over all clusters, with the binomial sigma of the requested rate.
struct Measured {
  double events = 0, trials = 0;
  double rate() const { return events / trials; }
  double sigma(double p) const { return std::sqrt(p * (1 - p) / trials); }
};

// Reads {"id": "N", "text": "..."} as gen writes it (escapes: \" \\ \u00XX).
std::pair<std::string, std::string> parse_record(const std::string& line) {
  const std::string head = "{\"id\": \"";
  EXPECT_EQ(line.compare(0, head.size(), head), 0) << line;
  const size_t id_end = line.find('"', head.size());
  const std::string id = line.substr(head.size(), id_end - head.size());
  const std::string mid = "\", \"text\": \"";
  EXPECT_EQ(line.compare(id_end, mid.size(), mid), 0) << line;
  std::string text;
  size_t i = id_end + mid.size();
  for (; i < line.size() && line[i] != '"'; ++i) {
    if (line[i] != '\\') {
      text += line[i];
      continue;
    }
    const char e = line[++i];
    if (e == 'u') text += char(std::stoi(line.substr(i + 1, 4), nullptr, 16)), i += 4;
    else text += e;
  }
  EXPECT_EQ(line.substr(i), "\"}") << line;
  return {id, text};
}

}  // namespace

TEST(CorpusGen, SameSeedSameBytesOnAnyThreadCount) {
  CorpusOptions o;
  o.documents = 3000;
  o.seed = 11;
  o.threads = 1;
  const auto a = generate(o);
  o.threads = 2;
  const auto b = generate(o);
  o.threads = 3;
  const auto c = generate(o);
  EXPECT_EQ(a.corpus, b.corpus);
  EXPECT_EQ(a.truth, b.truth);
  EXPECT_EQ(a.corpus, c.corpus);
  o.seed = 12;
  const auto d = generate(o);
  EXPECT_NE(a.corpus, d.corpus);
  EXPECT_NE(a.truth, d.truth);
}

TEST(CorpusGen, ClusterSizesFollowTheOptions) {
  CorpusOptions o;
  o.documents = 100000;
  o.cluster_fraction = 0.3;
  o.max_cluster_size = 5000;
  const CorpusGenerator g(o);
  const auto& sizes = g.cluster_sizes();
  uint64_t total = 0, twos = 0, largest = 0;
  for (uint32_t s : sizes) {
    EXPECT_GE(s, 2u);
    EXPECT_LE(s, 5000u);
    total += s;
    twos += s == 2;
    largest = std::max<uint64_t>(largest, s);
  }
  EXPECT_GE(total, 29999u);  // round(0.3 N), or one less when a single document is left
  EXPECT_LE(total, 30000u);
  EXPECT_GE(largest, 500u);  // heavy tail: P(k >= 500) ~ 0.003 per cluster, ~2400 clusters
  // P(k = 2) = 2^-2 / sum_{k=2..5000} k^-2 = 0.25 / 0.64473 = 0.3878; 5 sigma around it.
  const double p2 = 0.25 / 0.644734, n = double(sizes.size());
  EXPECT_NEAR(double(twos) / n, p2, 5 * std::sqrt(p2 * (1 - p2) / n));

  o.documents = 1000;
  o.max_cluster_size = 4;
  o.cluster_fraction = 0.5;
  const CorpusGenerator small(o);  // named: cluster_sizes() refers into it
  for (uint32_t s : small.cluster_sizes()) EXPECT_LE(s, 4u);
  o.cluster_fraction = 0;
  EXPECT_TRUE(CorpusGenerator(o).cluster_sizes().empty());
}

TEST(CorpusGen, OutputAndTruthAreConsistent) {
  CorpusOptions o;
  o.documents = 2000;
  o.seed = 3;
  const CorpusGenerator g(o);
  std::ostringstream c, t;
  const auto summary = g.write(c, t);
  std::istringstream corpus(c.str());
  std::string line;
  uint64_t n = 0;
  while (std::getline(corpus, line)) {
    const auto [id, text] = parse_record(line);
    ASSERT_EQ(id, std::to_string(n));  // ids are output positions
    if (n % 97 == 0) EXPECT_EQ(text, g.text(n));
    ++n;
  }
  EXPECT_EQ(n, 2000u);
  EXPECT_EQ(summary.documents, 2000u);
  EXPECT_EQ(summary.bytes, c.str().size());

  std::istringstream truth(t.str());
  std::set<uint64_t> seen;
  uint64_t clusters = 0, adjacent = 0, members_total = 0;
  while (std::getline(truth, line)) {
    const std::string head = "{\"cluster\": " + std::to_string(clusters) + ", \"members\": [";
    ASSERT_EQ(line.compare(0, head.size(), head), 0) << line;
    const auto expected = g.cluster_members(clusters);
    std::string list;
    for (size_t i = 0; i < expected.size(); ++i) list += (i ? ", \"" : "\"") + std::to_string(expected[i]) + "\"";
    EXPECT_EQ(line, head + list + "]}");
    ASSERT_EQ(expected.size(), g.cluster_sizes()[clusters]);
    for (size_t m = 0; m < expected.size(); ++m) {
      EXPECT_LT(expected[m], 2000u);
      EXPECT_TRUE(seen.insert(expected[m]).second) << "id in two clusters: " << expected[m];
      if (m < 3) EXPECT_EQ(g.text(expected[m]), g.member_text(clusters, uint32_t(m)));
      if (m && expected[m] == expected[m - 1] + 1) ++adjacent;
    }
    members_total += expected.size();
    ++clusters;
  }
  EXPECT_EQ(clusters, g.cluster_sizes().size());
  EXPECT_EQ(members_total, summary.clustered_documents);
  EXPECT_LT(double(adjacent), 0.02 * double(members_total));  // shuffled: members rarely adjacent
}

TEST(CorpusGen, DeleteRateIsMeasured) {
  auto o = no_edits(800, 21);
  o.edits.remove = 0.1;
  const CorpusGenerator g(o);
  Measured m;
  for (uint64_t c = 0; c < g.cluster_sizes().size(); ++c) {
    const auto base = words(g.member_text(c, 0)), member = words(g.member_text(c, 1));
    ASSERT_TRUE(is_subsequence(member, base));  // only deletions
    m.events += double(base.size() - member.size());
    m.trials += double(base.size());
  }
  EXPECT_NEAR(m.rate(), 0.1, 5 * m.sigma(0.1)) << m.trials << " words";
}

TEST(CorpusGen, InsertRateIsMeasured) {
  auto o = no_edits(800, 22);
  o.edits.insert = 0.05;
  const CorpusGenerator g(o);
  Measured m;
  for (uint64_t c = 0; c < g.cluster_sizes().size(); ++c) {
    const auto base = words(g.member_text(c, 0)), member = words(g.member_text(c, 1));
    ASSERT_TRUE(is_subsequence(base, member));  // only insertions
    m.events += double(member.size() - base.size());
    m.trials += double(base.size());
  }
  EXPECT_NEAR(m.rate(), 0.05, 5 * m.sigma(0.05));
}

TEST(CorpusGen, SubstituteRateIsMeasured) {
  auto o = no_edits(800, 23);
  o.edits.substitute = 0.05;
  const CorpusGenerator g(o);
  Measured m;
  for (uint64_t c = 0; c < g.cluster_sizes().size(); ++c) {
    const auto base = words(g.member_text(c, 0)), member = words(g.member_text(c, 1));
    ASSERT_EQ(base.size(), member.size());
    for (size_t i = 0; i < base.size(); ++i) m.events += base[i] != member[i];
    m.trials += double(base.size());
  }
  EXPECT_NEAR(m.rate(), 0.05, 5 * m.sigma(0.05));
}

TEST(CorpusGen, TruncationCutsTheEnd) {
  auto o = no_edits(800, 24);
  o.edits.truncate = 1;
  o.edits.max_truncate = 0.2;
  const CorpusGenerator g(o);
  double cut_share = 0;
  const auto clusters = g.cluster_sizes().size();
  for (uint64_t c = 0; c < clusters; ++c) {
    const auto base = words(g.member_text(c, 0)), member = words(g.member_text(c, 1));
    ASSERT_LE(member.size(), base.size());
    ASSERT_TRUE(std::equal(member.begin(), member.end(), base.begin()));  // a prefix
    const double share = 1 - double(member.size()) / double(base.size());
    EXPECT_LE(share, 0.2 + 1e-9);
    cut_share += share;
  }
  // Cut = 1 + uniform{0..floor(0.2 n)-1} words: mean ~ 0.1 of the words; uniform sd 0.058.
  EXPECT_NEAR(cut_share / double(clusters), 0.1, 5 * 0.058 / std::sqrt(double(clusters)) + 0.01);
}

TEST(CorpusGen, ReorderKeepsSentencesAndBoilerplateWraps) {
  auto o = no_edits(400, 25);
  o.edits.reorder = 1;
  const CorpusGenerator g(o);
  uint64_t moved = 0;
  for (uint64_t c = 0; c < g.cluster_sizes().size(); ++c) {
    auto sentences = [](const std::string& text) {
      std::vector<std::string> s;
      std::istringstream in(text);
      std::string part;
      while (std::getline(in, part, '.')) {
        if (!part.empty() && part[0] == ' ') part.erase(0, 1);
        if (!part.empty()) s.push_back(part);
      }
      return s;
    };
    auto a = sentences(g.member_text(c, 0)), b = sentences(g.member_text(c, 1));
    moved += a != b;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b);
  }
  EXPECT_GT(moved, g.cluster_sizes().size() / 2);

  auto p = no_edits(200, 26);
  p.edits.boilerplate = 1;
  const CorpusGenerator h(p);
  for (uint64_t c = 0; c < h.cluster_sizes().size(); ++c) {
    const auto base = h.member_text(c, 0), member = h.member_text(c, 1);
    EXPECT_GT(member.size(), base.size());
    EXPECT_NE(member.find(base), std::string::npos);
  }
}

TEST(CorpusGen, DefaultEditsKeepMembersNearTheBase) {
  // Char 5-gram Jaccard of member vs base. Each word edit changes about one word plus the
  // 4 shingles across its boundaries (~1.7 words of shingles), so 3% word edits plus small
  // sentence/boilerplate/truncation changes leave J ~ 0.9; the mean must sit in [0.85, 0.97].
  CorpusOptions o;
  o.documents = 4000;
  o.seed = 27;
  const CorpusGenerator g(o);
  auto shingles = [](std::string t) {
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    std::unordered_set<std::string> s;
    for (size_t i = 0; i + 5 <= t.size(); ++i) s.insert(t.substr(i, 5));
    return s;
  };
  double sum = 0;
  uint64_t pairs = 0;
  for (uint64_t c = 0; c < g.cluster_sizes().size(); ++c) {
    const auto base = shingles(g.member_text(c, 0));
    for (uint32_t m = 1; m < std::min<uint32_t>(g.cluster_sizes()[c], 4); ++m) {
      const auto member = shingles(g.member_text(c, m));
      size_t common = 0;
      for (const auto& x : member) common += base.count(x);
      sum += double(common) / double(base.size() + member.size() - common);
      ++pairs;
    }
  }
  ASSERT_GT(pairs, 100u);
  EXPECT_GT(sum / double(pairs), 0.85);
  EXPECT_LT(sum / double(pairs), 0.97);
}

TEST(CorpusGen, TrainedMarkovModelUsesTheTrainingWords) {
  CorpusOptions o;
  o.documents = 300;
  o.train_text = "The cat sat on the \"mat\". A dog\tran to the cat! Was it \x01 fast? The end.\n";
  const CorpusGenerator g(o);
  const std::set<std::string> vocab = {"The", "cat", "sat", "on", "the", "\"mat\".", "A", "dog", "ran",
                                       "to", "cat!", "Was", "it", "\x01", "fast?", "end."};
  for (uint64_t id = 0; id < 300; id += 7) {
    std::istringstream in(g.text(id));
    std::string w;
    while (in >> w) EXPECT_TRUE(vocab.count(w)) << "'" << w << "'";
  }
  std::ostringstream c, t;
  g.write(c, t);
  std::istringstream corpus(c.str());
  std::string line;
  for (uint64_t n = 0; std::getline(corpus, line); ++n) EXPECT_EQ(parse_record(line).second, g.text(n));
  o.train_text = " \n\t ";
  EXPECT_THROW(CorpusGenerator{o}, data_error);
}

TEST(CorpusGen, BadOptionsAreUsageErrors) {
  CorpusOptions o;
  o.documents = 0;
  EXPECT_THROW(o.validate(), usage_error);
  o = CorpusOptions{};
  o.cluster_fraction = 1.5;
  EXPECT_THROW(o.validate(), usage_error);
  o = CorpusOptions{};
  o.edits.remove = 0.7;
  o.edits.substitute = 0.7;
  EXPECT_THROW(o.validate(), usage_error);
  o = CorpusOptions{};
  o.max_cluster_size = 1;
  EXPECT_THROW(CorpusGenerator{o}, usage_error);
}

TEST(CorpusGen, FailureInsideTheParallelWriteReachesTheCaller) {
  CorpusOptions o = no_edits(3000, 5);
  o.threads = 2;
  detail::inject_parallel_failure(2);  // the second block written in parallel fails
  std::ostringstream c, t;
  const CorpusGenerator g(o);
  EXPECT_THROW(g.write(c, t), std::bad_alloc);
  detail::inject_parallel_failure(0);
  EXPECT_EQ(generate(o).corpus, generate(o).corpus);
}

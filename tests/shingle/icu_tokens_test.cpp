// --tokenizer icu (host/shingle/text_stages.hpp) on a small Chinese near-duplicate set
// (tests/data/chinese_near_duplicates.tsv): ICU words make word shingles pair the
// near-duplicates and only them, stop words match whole words, and SimHash's length
// weight sees real word lengths.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "gpudedup/minhash.hpp"
#include "gpudedup/simhash.hpp"
#include "host/shingle/icu_text.hpp"
#include "host/shingle/shingling.hpp"
#include "gpudedup/detail/host_stages.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {

struct Doc {
  std::string group, text;
};

std::vector<Doc> chinese_set() {
  std::ifstream in(std::string(GPUDEDUP_TEST_DATA) + "/chinese_near_duplicates.tsv");
  std::vector<Doc> docs;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    docs.push_back({line.substr(0, tab), line.substr(tab + 1)});
  }
  return docs;
}

bool duplicates(const Doc& a, const Doc& b) { return a.group == b.group && a.group.rfind("solo", 0) != 0; }

ShingleConfig icu_words(uint32_t k) {
  ShingleConfig c;
  c.kind = ShingleKind::words;
  c.ngram = k;
  c.tokenizer = Tokenizer::icu;
  return c;
}

double jaccard(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  std::vector<uint64_t> both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  return double(both.size()) / double(a.size() + b.size() - both.size());
}

std::vector<std::string> icu_tokens(const std::string& text) {
  std::vector<std::string> out;
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  for_each_icu_token(s, text.size(), [&](size_t b, size_t e) { out.push_back(text.substr(b, e - b)); });
  return out;
}

}  // namespace

TEST(IcuTokens, SegmentsChineseJapaneseThaiIntoWords) {
  if (!gpudedup::detail::icu_available()) GTEST_SKIP() << "this build has no ICU (the GPU test bundle)";
  EXPECT_EQ(icu_tokens("我們是學生。"), (std::vector<std::string>{"我們", "是", "學生", "。"}));
  EXPECT_EQ(icu_tokens("東京は日本の首都です"),
            (std::vector<std::string>{"東京", "は", "日本", "の", "首都", "です"}));
  EXPECT_EQ(icu_tokens("ภาษาไทยง่าย"), (std::vector<std::string>{"ภาษา", "ไทย", "ง่าย"}));
  EXPECT_EQ(icu_tokens("hello, world \xFF!"), (std::vector<std::string>{"hello", ",", "world", "\xFF", "!"}));
}

TEST(IcuTokens, StagedTextIsTheWordsJoinedBySpaces) {
  if (!gpudedup::detail::icu_available()) GTEST_SKIP() << "this build has no ICU (the GPU test bundle)";
  ShingleSpec spec = make_shingle_spec(icu_words(3));
  std::string out;
  ASSERT_TRUE(apply_host_stages(spec, "  我們是學生。 ABC  ", out));
  EXPECT_EQ(out, "我們 是 學生 。 abc");
  std::vector<uint8_t> again(out.size());  // what the kernels' normalize_text leaves of it
  again.resize(normalize_text(reinterpret_cast<const uint8_t*>(out.data()), out.size(), again.data(), spec.normalize));
  EXPECT_EQ(std::string(again.begin(), again.end()), out);
}

TEST(IcuTokens, NearDuplicatesShareWordShinglesAndDistinctTextsDoNot) {
  if (!gpudedup::detail::icu_available()) GTEST_SKIP() << "this build has no ICU (the GPU test bundle)";
  const auto docs = chinese_set();
  ASSERT_GE(docs.size(), 30u);
  const ShingleSpec spec = make_shingle_spec(icu_words(3));
  std::vector<std::vector<uint64_t>> sets(docs.size());
  std::vector<uint8_t> scratch;
  for (size_t i = 0; i < docs.size(); ++i) shingle_set(spec, docs[i].text, scratch, sets[i]);
  // A word edit changes at most k = 3 of a set's ~n >= 35 word 3-grams (a little more
  // where ICU re-segments next to it): near-duplicates that differ by up to 3 edits keep
  // J >= (n - 3e) / (n + 3e) > 0.5; unrelated texts share no word 3-gram beyond chance.
  for (size_t i = 0; i < docs.size(); ++i) {
    for (size_t j = i + 1; j < docs.size(); ++j) {
      const double s = jaccard(sets[i], sets[j]);
      if (duplicates(docs[i], docs[j])) EXPECT_GT(s, 0.5) << i << " " << j;
      else EXPECT_LE(s, 0.05) << i << " " << j;
    }
  }
}

TEST(IcuTokens, EngineClustersAreTheGroups) {
  if (!gpudedup::detail::icu_available()) GTEST_SKIP() << "this build has no ICU (the GPU test bundle)";
  const auto docs = chinese_set();
  Config c;
  c.backend = Backend::cpu;
  c.shingle = icu_words(3);
  c.threshold = 0.5;
  c.verify = VerifyMode::exact;
  c.all_pairs = true;
  MinHashEngine engine(c);
  DocumentBatch b;
  for (const auto& d : docs) b.add(d.text);
  engine.add(b);
  const DedupResult r = engine.finish();
  std::set<std::pair<uint32_t, uint32_t>> got, want;
  for (const auto& p : r.pairs) got.insert({p.a, p.b});
  for (uint32_t i = 0; i < docs.size(); ++i)
    for (uint32_t j = i + 1; j < docs.size(); ++j)
      if (duplicates(docs[i], docs[j])) want.insert({i, j});
  EXPECT_EQ(got, want);
}

TEST(IcuTokens, MultiCharacterStopWordRemovesOnlyWholeWords) {
  if (!gpudedup::detail::icu_available()) GTEST_SKIP() << "this build has no ICU (the GPU test bundle)";
  const std::string text = "我們是學生 我喜歡讀書 我們在北京";
  auto unigrams = [&](Tokenizer t) {
    ShingleConfig c = icu_words(1);
    c.tokenizer = t;
    c.stop_words = {"我們"};
    c.remove_stop_words = true;
    std::vector<uint8_t> scratch;
    std::vector<uint64_t> set;
    shingle_set(make_shingle_spec(c), text, scratch, set);
    return set;
  };
  auto has = [](const std::vector<uint64_t>& set, const std::string& w) {
    const uint64_t h = word_shingle_hash(std::vector<uint64_t>{xxhash64(reinterpret_cast<const uint8_t*>(w.data()), w.size())}.data(), 1);
    return std::binary_search(set.begin(), set.end(), h);
  };
  const auto icu = unigrams(Tokenizer::icu);
  EXPECT_FALSE(has(icu, "我們"));
  EXPECT_TRUE(has(icu, "我"));  // the single-character word stays
  EXPECT_TRUE(has(icu, "學生"));
  const auto simple = unigrams(Tokenizer::simple);  // each ideograph a token: 我 goes too
  EXPECT_FALSE(has(simple, "我"));
  EXPECT_FALSE(has(simple, "們"));
}

TEST(IcuTokens, LengthWeightActsOnRealWords) {
  if (!gpudedup::detail::icu_available()) GTEST_SKIP() << "this build has no ICU (the GPU test bundle)";
  const auto docs = chinese_set();
  DocumentBatch b;
  for (const auto& d : docs) b.add(d.text);
  auto fingerprints = [&](Tokenizer t, SimHashWeights w) {
    Config c;
    c.backend = Backend::cpu;
    c.shingle.tokenizer = t;
    SimHashConfig s;
    s.weights = w;
    SimHashEngine e(c, s);
    if (e.needs_df_pass()) e.count_df(b);
    return e.fingerprints(b);
  };
  // Simple tokens are all one code point long, so the length weight is a constant factor.
  EXPECT_EQ(fingerprints(Tokenizer::simple, SimHashWeights::tfidf),
            fingerprints(Tokenizer::simple, SimHashWeights::tfidf_len));
  const auto a = fingerprints(Tokenizer::icu, SimHashWeights::tfidf);
  const auto l = fingerprints(Tokenizer::icu, SimHashWeights::tfidf_len);
  size_t differ = 0;
  for (size_t i = 0; i < a.size(); ++i) differ += a[i] != l[i];
  EXPECT_GE(differ, a.size() / 2) << "ICU words of 1 to 4 characters weigh differently";
}

// Near-duplicates across case in several scripts, end to end through the MinHash engine
// on the CPU oracle: with the default Unicode folding a text and its upper-case copy are
// the same set (similarity 1.0); under ASCII-only folding (the rule before) they are not.
#include <gtest/gtest.h>

#include <string>

#include "gpudedup/minhash.hpp"
#include "host/shingle/icu_text.hpp"

using namespace gpudedup;

namespace {

DedupResult run(const std::vector<std::string>& texts, const NormalizeConfig& n) {
  Config c;
  c.backend = Backend::cpu;
  c.verify = VerifyMode::exact;
  c.all_pairs = true;
  c.threshold = 0.1;
  c.shingle.normalize = n;
  MinHashEngine engine(c);
  DocumentBatch b;
  for (const auto& t : texts) b.add(t);
  engine.add(b);
  return engine.finish();
}

double similarity_of(const DedupResult& r, uint32_t a, uint32_t b) {
  for (const auto& p : r.pairs)
    if (p.a == a && p.b == b) return p.similarity;
  return 0;
}

}  // namespace

TEST(MultiscriptDedup, UpperCaseCopiesPairAtOne) {
  const std::vector<std::string> texts = {
      "Быстрая коричневая лиса перепрыгивает через ленивую собаку у реки",
      "БЫСТРАЯ КОРИЧНЕВАЯ ЛИСА ПЕРЕПРЫГИВАЕТ ЧЕРЕЗ ЛЕНИВУЮ СОБАКУ У РЕКИ",
      "Η γρήγορη καφέ αλεπού πηδάει πάνω από τον τεμπέλη σκύλο στον δρόμος",
      "Η ΓΡΉΓΟΡΗ ΚΑΦΈ ΑΛΕΠΟΎ ΠΗΔΆΕΙ ΠΆΝΩ ΑΠΌ ΤΟΝ ΤΕΜΠΈΛΗ ΣΚΎΛΟ ΣΤΟΝ ΔΡΌΜΟΣ",
      "Արագ շագանակագույն աղվեսը ցատկում է ծույլ շան վրայով գետի մոտ",
      "ԱՐԱԳ ՇԱԳԱՆԱԿԱԳՈՒՅՆ ԱՂՎԵՍԸ ՑԱՏԿՈՒՄ Է ԾՈՒՅԼ ՇԱՆ ՎՐԱՅՈՎ ԳԵՏԻ ՄՈՏ",
  };
  const DedupResult folded = run(texts, NormalizeConfig{});
  for (uint32_t d : {0u, 2u, 4u}) EXPECT_EQ(similarity_of(folded, d, d + 1), 1.0) << d;
  EXPECT_EQ(folded.pairs.size(), 3u) << "the three scripts stay apart";

  NormalizeConfig ascii;
  ascii.case_fold = CaseFold::ascii;
  const DedupResult before = run(texts, ascii);
  for (uint32_t d : {0u, 2u, 4u}) EXPECT_LT(similarity_of(before, d, d + 1), 0.1) << d;
}

TEST(MultiscriptDedup, FullWidthLatinPairsUnderNfkcOnly) {
  if (!gpudedup::detail::icu_available()) GTEST_SKIP() << "this build has no ICU (the GPU test bundle)";
  const std::vector<std::string> texts = {"The quick brown fox jumps over the lazy dog",
                                          "Ｔｈｅ ｑｕｉｃｋ ｂｒｏｗｎ ｆｏｘ ｊｕｍｐｓ ｏｖｅｒ ｔｈｅ ｌａｚｙ ｄｏｇ"};
  EXPECT_EQ(similarity_of(run(texts, *parse_normalize("fold,nfkc")), 0, 1), 1.0);
  EXPECT_EQ(similarity_of(run(texts, NormalizeConfig{}), 0, 1), 0.0);
}

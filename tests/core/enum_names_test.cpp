// to_string and from_string come from one table per enum: every name reads back as its
// value, and nothing else reads as a value.
#include <gtest/gtest.h>

#include "gpudedup/config.hpp"
#include "gpudedup/io.hpp"

namespace gpudedup {
namespace {

template <class Enum>
void expect_round_trip(std::initializer_list<Enum> values, const std::string& names) {
  for (Enum v : values) {
    const auto back = from_string<Enum>(to_string(v));
    ASSERT_TRUE(back.has_value()) << to_string(v);
    EXPECT_EQ(*back, v) << to_string(v);
  }
  EXPECT_FALSE(from_string<Enum>("").has_value());
  EXPECT_FALSE(from_string<Enum>("no-such-name").has_value());
  EXPECT_EQ(names_of<Enum>(), names);
}

TEST(EnumNames, EveryNameReadsBack) {
  expect_round_trip({Backend::automatic, Backend::cpu, Backend::cuda}, "auto, cpu or cuda");
  expect_round_trip({ShingleKind::chars, ShingleKind::words}, "char or word");
  expect_round_trip({VerifyMode::automatic, VerifyMode::estimate, VerifyMode::exact, VerifyMode::none},
                    "auto, estimate, exact or none");
  expect_round_trip({Similarity::jaccard, Similarity::containment, Similarity::containment_a,
                     Similarity::containment_b},
                    "jaccard, containment, containment-a or containment-b");
  expect_round_trip({BloomMeasure::cosine, BloomMeasure::overlap, BloomMeasure::dice, BloomMeasure::jaccard,
                     BloomMeasure::hamming},
                    "cosine, overlap, dice, jaccard or hamming");
  expect_round_trip({SampleKind::none, SampleKind::minwise, SampleKind::modm, SampleKind::mins},
                    "none, minwise, modm or mins");
  expect_round_trip({SimHashWeights::tf, SimHashWeights::tfidf, SimHashWeights::tfidf_len}, "tf, tfidf or tfidf-len");
  expect_round_trip({SimHashFeatures::tokens, SimHashFeatures::shingles}, "tokens or shingles");
  expect_round_trip({KeepPolicy::first, KeepPolicy::longest, KeepPolicy::shortest, KeepPolicy::none},
                    "first, longest, shortest or none");
  expect_round_trip({InputFormat::automatic, InputFormat::jsonl, InputFormat::text, InputFormat::directory,
                     InputFormat::parquet},
                    "auto, jsonl, text, dir or parquet");
}

TEST(EnumNames, NamesAreCaseSensitive) {
  EXPECT_FALSE(from_string<Backend>("CPU").has_value());
  EXPECT_EQ(from_string<SimHashWeights>("tfidf-len"), SimHashWeights::tfidf_len);
}

}  // namespace
}  // namespace gpudedup

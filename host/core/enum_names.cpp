// One table of names per enum gives both to_string() and from_string(), so the two
// directions cannot disagree and no option parser spells the names again.
#include <iterator>
#include <utility>

#include "gpudedup/config.hpp"
#include "gpudedup/io.hpp"

namespace gpudedup {
namespace detail {

/// Names<Enum>::table: each value and its name, in declaration order.
template <class Enum>
struct Names;

}  // namespace detail

namespace {

template <class Enum>
const char* name_in(Enum v) {
  for (const auto& [value, name] : detail::Names<Enum>::table) {
    if (value == v) return name;
  }
  return "?";
}

}  // namespace

template <class Enum>
std::optional<Enum> from_string(std::string_view name) {
  for (const auto& [value, n] : detail::Names<Enum>::table) {
    if (name == n) return value;
  }
  return std::nullopt;
}

template <class Enum>
std::string names_of() {
  std::string out;
  const size_t count = std::size(detail::Names<Enum>::table);
  for (size_t i = 0; i < count; ++i) {
    out += i == 0 ? "" : i + 1 == count ? " or " : ", ";
    out += detail::Names<Enum>::table[i].second;
  }
  return out;
}

// The table of an enum, its to_string(), and the instances of from_string and names_of.
#define GD_ENUM_NAMES(Enum, ...)                                              \
  template <>                                                                 \
  struct detail::Names<Enum> {                                                \
    static constexpr std::pair<Enum, const char*> table[] = {__VA_ARGS__};    \
  };                                                                          \
  const char* to_string(Enum v) { return name_in<Enum>(v); }                  \
  template std::optional<Enum> from_string<Enum>(std::string_view);           \
  template std::string names_of<Enum>();

GD_ENUM_NAMES(Backend, {Backend::automatic, "auto"}, {Backend::cpu, "cpu"}, {Backend::cuda, "cuda"})
GD_ENUM_NAMES(ShingleKind, {ShingleKind::chars, "char"}, {ShingleKind::words, "word"})
GD_ENUM_NAMES(VerifyMode, {VerifyMode::automatic, "auto"}, {VerifyMode::estimate, "estimate"},
              {VerifyMode::exact, "exact"}, {VerifyMode::none, "none"})
GD_ENUM_NAMES(Similarity, {Similarity::jaccard, "jaccard"}, {Similarity::containment, "containment"},
              {Similarity::containment_a, "containment-a"}, {Similarity::containment_b, "containment-b"})
GD_ENUM_NAMES(BloomMeasure, {BloomMeasure::cosine, "cosine"}, {BloomMeasure::overlap, "overlap"},
              {BloomMeasure::dice, "dice"}, {BloomMeasure::jaccard, "jaccard"}, {BloomMeasure::hamming, "hamming"})
GD_ENUM_NAMES(CaseFold, {CaseFold::none, "none"}, {CaseFold::ascii, "ascii"}, {CaseFold::simple, "fold"})
GD_ENUM_NAMES(Tokenizer, {Tokenizer::simple, "simple"}, {Tokenizer::icu, "icu"})
GD_ENUM_NAMES(SketchFamily, {SketchFamily::classic, "classic"}, {SketchFamily::oph, "oph"},
              {SketchFamily::fss, "fss"})
GD_ENUM_NAMES(SampleKind, {SampleKind::none, "none"}, {SampleKind::minwise, "minwise"},
              {SampleKind::modm, "modm"}, {SampleKind::mins, "mins"})
GD_ENUM_NAMES(SimHashWeights, {SimHashWeights::tf, "tf"}, {SimHashWeights::tfidf, "tfidf"},
              {SimHashWeights::tfidf_len, "tfidf-len"})
GD_ENUM_NAMES(SimHashFeatures, {SimHashFeatures::tokens, "tokens"}, {SimHashFeatures::shingles, "shingles"})
GD_ENUM_NAMES(KeepPolicy, {KeepPolicy::first, "first"}, {KeepPolicy::longest, "longest"},
              {KeepPolicy::shortest, "shortest"}, {KeepPolicy::none, "none"})
GD_ENUM_NAMES(InputFormat, {InputFormat::automatic, "auto"}, {InputFormat::jsonl, "jsonl"},
              {InputFormat::text, "text"}, {InputFormat::directory, "dir"},
              {InputFormat::parquet, "parquet"})

}  // namespace gpudedup

// MinHash's distributed steps (minhash_distributed.hpp): the single-process rules, one
// pair or one band key at a time, for a run whose rows live on other processes.
#include "host/minhash/minhash_distributed.hpp"

#include "gpudedup/detail/minhash.hpp"
#include "host/minhash/replay_chunk.hpp"

namespace gpudedup::detail {
namespace {

/// ReplayChunk behind the method-agnostic interface.
class ChunkSets final : public DistributedSteps::TextSets {
 public:
  explicit ChunkSets(const SketchSpec& spec) : chunk_(spec) {}
  bool add(uint32_t document, std::string_view text) override { return chunk_.add(document, text); }
  void flush(const std::function<void(uint32_t, std::vector<uint64_t>&)>& take) override { chunk_.flush(take); }

 private:
  ReplayChunk chunk_;
};

}  // namespace

MinHashSteps::MinHashSteps(const SketchSpec& spec, const LshParams& lsh)
    : spec_(spec), lsh_(lsh), exact_threshold_(make_borderline_band(spec.config).threshold) {
  if (spec.config.verify == VerifyMode::automatic) borderline_.emplace(spec_);
}

uint64_t MinHashSteps::band_key(const uint32_t* row, uint32_t band) const {
  return detail::band_key(row + size_t(band) * lsh_.rows, lsh_.rows, band);
}

RowVerdict MinHashSteps::verify(const uint32_t* row_a, uint32_t size_a, const uint32_t* row_b,
                                uint32_t size_b) const {
  const double s = signature_similarity(spec_, row_a, row_b, size_a, size_b);
  if (spec_.config.verify == VerifyMode::none) return {PairVerdict::pass, s};
  if (!borderline_) return {s >= spec_.config.threshold ? PairVerdict::pass : PairVerdict::fail, s};
  switch (borderline_->classify(row_a, row_b, size_a, size_b, s)) {
    case Verdict::pass: return {PairVerdict::pass, s};
    case Verdict::borderline: return {PairVerdict::borderline, s};
    case Verdict::fail: break;
  }
  return {PairVerdict::fail, s};
}

std::unique_ptr<DistributedSteps::TextSets> MinHashSteps::text_sets() const {
  return std::make_unique<ChunkSets>(spec_);
}

bool MinHashSteps::exact_passes(const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb) const {
  return exact_set_similarity(spec_, a, na, b, nb) >= exact_threshold_;
}

}  // namespace gpudedup::detail

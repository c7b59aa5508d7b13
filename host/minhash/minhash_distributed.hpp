#pragma once
// MinHash's distributed form (method.hpp, DistributedSteps): the engine's add() hands its
// rows (P signature values) to the distributed run, which exchanges band keys and rows;
// pairs are verified from two rows by the engine's rules (estimate, the borderline band
// of --verify auto) and borderline ones by the exact sets of their texts, shingled as one
// process shingles them (replay_chunk.hpp). --verify exact needs every pair's sets, not
// rows: a distributed run refuses it before any work (host/mpi/mpi_rank_source.cpp).
#include <optional>

#include "gpudedup/method.hpp"
#include "host/minhash/borderline_verify.hpp"
#include "host/minhash/compute_backend.hpp"

namespace gpudedup::detail {

class MinHashSteps final : public DistributedSteps {
 public:
  MinHashSteps(const SketchSpec& spec, const LshParams& lsh);
  uint32_t row_values() const override { return spec_.config.minhash.num_perm; }
  void send_rows_to(RowSink sink) override { sink_ = std::move(sink); }
  LshParams bands() const override { return lsh_; }
  uint64_t band_key(const uint32_t* row, uint32_t band) const override;
  RowVerdict verify(const uint32_t* row_a, uint32_t size_a, const uint32_t* row_b, uint32_t size_b) const override;
  std::unique_ptr<TextSets> text_sets() const override;
  bool exact_passes(const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb) const override;
  /// The sink of the rows, for the engine's add(); empty until a distributed run sets it.
  const RowSink& sink() const { return sink_; }

 private:
  SketchSpec spec_;
  LshParams lsh_;
  std::optional<BorderlineVerifier> borderline_;  // --verify auto
  double exact_threshold_ = 0;
  RowSink sink_;
};

}  // namespace gpudedup::detail

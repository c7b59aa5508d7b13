#include <algorithm>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/sampling.hpp"
#include "gpudedup/detail/similarity.hpp"
#include "host/minhash/compute_backend.hpp"
#include "host/minhash/galloping_intersection.hpp"
#include "host/minhash/signature_compare.hpp"

namespace gpudedup::detail {
namespace {

/// An intersection that a pair of these set sizes needs to reach threshold t, rounded
/// down and less one (a smaller need only stops the count later, never wrongly).
uint64_t intersection_need(Similarity s, double t, uint64_t na, uint64_t nb) {
  double need = 0;
  switch (s) {
    case Similarity::jaccard: need = t * double(na + nb) / (1 + t); break;  // i / (na + nb - i) >= t
    case Similarity::containment: need = t * double(std::min(na, nb)); break;
    case Similarity::containment_a: need = t * double(na); break;
    case Similarity::containment_b: need = t * double(nb); break;
  }
  return need >= 2 ? uint64_t(need) - 1 : 0;
}

}  // namespace

SketchSpec make_sketch_spec(const Config& config) {
  SketchSpec spec;
  spec.config = config;
  spec.shingles = make_shingle_spec(config.shingle);
  set_sampling(spec.shingles, config.sampling, config.seed);
  spec.perm_a.resize(config.minhash.num_perm);
  spec.perm_b.resize(config.minhash.num_perm);
  make_permutations(config.seed, config.minhash.num_perm, spec.perm_a.data(), spec.perm_b.data());
  return spec;
}

double exact_set_similarity(const SketchSpec& spec, const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb) {
  const bool containment = spec.config.similarity == Similarity::containment;
  const SampleKind sample = spec.config.sampling.kind;
  if (sample == SampleKind::minwise || sample == SampleKind::mins) {
    // Bottom-s samples: Broder's estimators, not the similarity of the samples.
    const uint64_t s = spec.config.sampling.size;
    return containment ? bottom_s_containment(a, na, b, nb, s) : bottom_s_resemblance(a, na, b, nb, s);
  }
  // Full sets, or MOD_m samples: for those the similarity of the samples is Broder's
  // estimator (a uniform sample of A u B, of A n B, of A). The count stops once it cannot
  // reach the threshold: a failing pair reads below it, not at its exact value.
  const uint64_t need = intersection_need(spec.config.similarity, spec.config.threshold, na, nb);
  return similarity_from_intersection(spec.config.similarity, intersection_up_to_need(a, na, b, nb, need), na, nb);
}

double pair_similarity(const SketchSpec& spec, const CorpusView& corpus, uint32_t a, uint32_t b) {
  const auto& sizes = *corpus.set_sizes;
  if (spec.config.verify == VerifyMode::exact && corpus.sets) {
    const ShingleSets& sets = *corpus.sets;
    return exact_set_similarity(spec, sets.set(a), sets.set_size(a), sets.set(b), sets.set_size(b));
  }
  const Signatures& sigs = *corpus.signatures;
  return signature_similarity(spec, sigs.row(a), sigs.row(b), sizes[a], sizes[b]);
}

double signature_similarity(const SketchSpec& spec, const uint32_t* row_a, const uint32_t* row_b, uint32_t size_a,
                            uint32_t size_b) {
  const double j = estimated_jaccard_host(row_a, row_b, spec.config.minhash.num_perm);
  return similarity_from_jaccard(spec.config.similarity, j, size_a, size_b);
}

}  // namespace gpudedup::detail

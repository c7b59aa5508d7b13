#include "host/simhash/pair_verify.hpp"

#include <omp.h>

#include <algorithm>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/similarity.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/shingle/shingling.hpp"

namespace gpudedup::detail {

PairVerifier::PairVerifier(const Config& config)
    : mode_(config.simhash.verify),
      threshold_(config.threshold),
      threads_(config.threads > 0 ? config.threads : omp_get_max_threads()),
      shingles_(make_shingle_spec(config.shingle)),
      num_perm_(config.minhash.num_perm) {
  if (mode_ == VerifyMode::estimate) {
    Config minhash = config;
    minhash.method = "minhash";
    // Char shingles never read words: --tokenizer icu (for SimHash's token features)
    // does not apply to the sets verified, and MinHash would refuse it with them.
    if (minhash.shingle.kind == ShingleKind::chars) minhash.shingle.tokenizer = Tokenizer::simple;
    minhash_ = std::make_unique<MinHashEngine>(minhash);
  }
}

void PairVerifier::add(const DocumentBatch& batch) {
  const size_t n = batch.size(), first = set_sizes_.size();
  set_sizes_.resize(first + n);
  if (mode_ == VerifyMode::estimate) {
    // The MinHash engine's sketch (its fast fold, on its backend): the same values as
    // `--method minhash --seed S --num-perm P` gives these documents.
    const Signatures sigs = minhash_->sketch(batch);
    signatures_.insert(signatures_.end(), sigs.values.begin(), sigs.values.end());
    for (size_t d = 0; d < n; ++d) {  // a document without shingles has only empty values
      const uint32_t* row = sigs.row(d);
      set_sizes_[first + d] = std::any_of(row, row + num_perm_, [](uint32_t v) { return v != empty_signature_value; });
    }
    return;
  }
  std::vector<std::vector<uint64_t>> sets(n);
  ParallelErrors errors;
#pragma omp parallel num_threads(threads_)
  {
    std::vector<uint8_t> scratch;
    std::vector<uint64_t> set;
#pragma omp for schedule(dynamic, 16)
    for (int64_t d = 0; d < int64_t(n); ++d) errors.run([&] {
      shingle_set(shingles_, batch.text(size_t(d)), scratch, set);
      set_sizes_[first + size_t(d)] = uint32_t(set.size());
      sets[size_t(d)].assign(set.begin(), set.end());
    });
  }
  errors.rethrow();
  for (const auto& set : sets) {
    hashes_.insert(hashes_.end(), set.begin(), set.end());
    offsets_.push_back(hashes_.size());
  }
}

double PairVerifier::similarity(uint32_t a, uint32_t b) const {
  const uint32_t na = set_sizes_[a], nb = set_sizes_[b];
  if (na == 0 || nb == 0) return 0.0;
  if (mode_ == VerifyMode::exact) {
    const uint64_t inter = intersection_size(hashes_.data() + offsets_[a], na, hashes_.data() + offsets_[b], nb);
    return jaccard_from_intersection(inter, na, nb);
  }
  return estimated_jaccard(signatures_.data() + size_t(a) * num_perm_, signatures_.data() + size_t(b) * num_perm_,
                           num_perm_);
}

}  // namespace gpudedup::detail

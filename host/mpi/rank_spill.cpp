// A rank's signature rows, held or spilled (rank_spill.hpp).
#include "host/mpi/rank_spill.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>

#include "host/minhash/memory_budget.hpp"

namespace gpudedup::mpi {

RankMemory rank_memory(const Config& config) {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  RankMemory m;
  MPI_Comm_size(node, &m.local_ranks);
  MPI_Comm_free(&node);
  m.limit = detail::resolved_memory_limit(config);
  if (config.memory_limit == 0 && m.limit != UINT64_MAX) m.limit /= uint64_t(std::max(m.local_ranks, 1));
  m.temp_dir = detail::resolved_temp_dir(config);
  return m;
}

RankRows::RankRows(const std::string& folder, uint32_t num_perm) : file_(folder), row_values_(size_t(num_perm) + 1) {}

void RankRows::append(const uint32_t* signatures, const uint32_t* set_sizes, size_t n) {
  const size_t P = row_values_ - 1;
  buffer_.resize(n * row_values_);
  for (size_t d = 0; d < n; ++d) {
    std::memcpy(buffer_.data() + d * row_values_, signatures + d * P, P * sizeof(uint32_t));
    buffer_[d * row_values_ + P] = set_sizes[d];
    empty_ += set_sizes[d] == 0;
  }
  file_.append(buffer_.data(), buffer_.size() * sizeof(uint32_t));
  std::vector<uint32_t>().swap(buffer_);  // a batch's worth, not kept between batches
  documents_ += n;
}

void RankRows::read(uint64_t first, size_t n, uint32_t* rows) const {
  if (n > 0) file_.read(first * row_values_ * sizeof(uint32_t), rows, n * row_values_ * sizeof(uint32_t));
}

void RankRows::read_one(uint64_t doc, uint32_t* row) {
  if (doc < window_first_ || doc >= window_first_ + window_rows_) {
    const bool near = doc >= window_first_ + window_rows_ && doc < window_first_ + window_rows_ + read_ahead_rows;
    window_first_ = doc;
    window_rows_ = near ? std::min(read_ahead_rows, documents_ - doc) : 1;
    window_.resize(size_t(window_rows_) * row_values_);
    read(window_first_, size_t(window_rows_), window_.data());
  }
  std::copy_n(window_.data() + size_t(doc - window_first_) * row_values_, row_values_, row);
}

void spill_if_over(LocalCorpus& corpus, const RankMemory& memory) {
  const uint32_t P = corpus.signatures.num_perm;
  const uint64_t held = corpus.set_sizes.size();
  if (!corpus.spill && held * detail::in_memory_bytes_per_document(P) <= memory.limit) return;
  if (!corpus.spill) corpus.spill = std::make_shared<RankRows>(memory.temp_dir, P);
  corpus.spill->append(corpus.signatures.values.data(), corpus.set_sizes.data(), size_t(held));
  corpus.signatures.values = PodBuffer<uint32_t>();
  std::vector<uint32_t>().swap(corpus.set_sizes);
}

uint64_t corpus_documents(const LocalCorpus& corpus) {
  return corpus.spill ? corpus.spill->documents() : corpus.set_sizes.size();
}

uint64_t empty_documents(const LocalCorpus& corpus) {
  if (corpus.spill) return corpus.spill->empty_documents();
  return uint64_t(std::count(corpus.set_sizes.begin(), corpus.set_sizes.end(), 0u));
}

void read_rows(const LocalCorpus& corpus, uint64_t first, size_t n, uint32_t* rows) {
  if (corpus.spill) return n == 1 ? corpus.spill->read_one(first, rows) : corpus.spill->read(first, n, rows);
  const uint32_t P = corpus.signatures.num_perm;
  for (size_t i = 0; i < n; ++i) {
    std::copy(corpus.signatures.row(first + i), corpus.signatures.row(first + i) + P, rows + i * (P + 1));
    rows[i * (P + 1) + P] = corpus.set_sizes[first + i];
  }
}

uint64_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // "VmHWM:  1234 kB"
  }
  return 0;
}

}  // namespace gpudedup::mpi

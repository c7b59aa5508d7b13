#pragma once
// The corpus on the device for the CUDA backend's band passes (cuda_backend.cu): the
// signatures, set sizes and numbers of the non-empty documents, uploaded once and kept
// while the engine's arrays stay the same (keyed by the Signatures object, its size and
// P). The async pipeline's resident rows (resident_rows.cuh) move in device to device.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/device/device_buffer.cuh"
#include "kernels/minhash/lsh.cuh"
#include "kernels/minhash/minhash_cuda.hpp"
#include "kernels/minhash/resident_rows.cuh"

namespace gpudedup::detail {

class DeviceCorpusCache {
 public:
  /// Puts the corpus on the device unless the cache holds it; rows kept in `resident`
  /// (the corpus's first rows, if they are its rows: P equal to `num_perm`) are moved in.
  /// @return false when it does not fit.
  bool ensure(const CorpusView& corpus, uint32_t num_perm, ResidentRows& resident, cudaStream_t s) {
    const Signatures& sigs = *corpus.signatures;
    const size_t n = sigs.size();
    if (key_ == corpus.signatures && sizes_key_ == corpus.set_sizes && docs_ == n && num_perm_ == sigs.num_perm &&
        valid_) {
      return true;
    }
    clear();
    if (resident.rows() > n || sigs.num_perm != num_perm) resident.release();  // not rows of this corpus
    if (fill(corpus, resident, s)) return true;
    if (resident.empty()) return false;
    // The kept rows and the corpus together do not fit: the corpus from host memory alone.
    resident.release();
    GD_CUDA_TRY(cudaStreamSynchronize(s));
    return fill(corpus, resident, s);
  }

  /// Forgets the corpus (its buffers freed in stream order).
  void clear() { *this = DeviceCorpusCache{}; }

  /// The cached corpus as the kernels take it.
  device_corpus view() const {
    device_corpus c;
    c.signatures = signatures_.data();
    c.set_sizes = set_sizes_.data();
    c.nonempty = nonempty_.data();
    c.docs = docs_;
    c.nonempty_count = nonempty_count_;
    c.num_perm = num_perm_;
    return c;
  }

 private:
  /// The kept rows device to device, the others (and the set sizes) from host memory;
  /// the kept rows are then freed (the cache holds them). @return false when it does not fit.
  bool fill(const CorpusView& corpus, ResidentRows& resident, cudaStream_t s) {
    const Signatures& sigs = *corpus.signatures;
    const size_t n = sigs.size();
    const size_t P = sigs.num_perm;
    const uint64_t kept = resident.rows();
    try {
      std::vector<uint32_t> nonempty;
      nonempty.reserve(n);
      for (size_t d = 0; d < n; ++d)
        if ((*corpus.set_sizes)[d] != 0) nonempty.push_back(uint32_t(d));
      signatures_ = device_buffer<uint32_t>(sigs.values.size(), s);
      set_sizes_ = device_buffer<uint32_t>(n, s);
      nonempty_ = device_buffer<uint32_t>(nonempty.size(), s);
      uint32_t* at = signatures_.data();
      for (const device_buffer<uint32_t>& chunk : resident.chunks()) {
        GD_CUDA_TRY(cudaMemcpyAsync(at, chunk.data(), chunk.bytes(), cudaMemcpyDeviceToDevice, s));
        at += chunk.size();
      }
      if (kept < n) {  // the rows past the kept prefix, from the host copy
        GD_CUDA_TRY(cudaMemcpyAsync(at, sigs.values.data() + kept * P, (n - kept) * P * sizeof(uint32_t),
                                    cudaMemcpyHostToDevice, s));
      }
      if (n > 0) {
        GD_CUDA_TRY(cudaMemcpyAsync(set_sizes_.data(), corpus.set_sizes->data(), n * sizeof(uint32_t),
                                    cudaMemcpyHostToDevice, s));
      }
      if (!nonempty.empty()) {
        GD_CUDA_TRY(cudaMemcpyAsync(nonempty_.data(), nonempty.data(), nonempty.size() * sizeof(uint32_t),
                                    cudaMemcpyHostToDevice, s));
      }
      GD_CUDA_TRY(cudaStreamSynchronize(s));  // `nonempty` is a local
      nonempty_count_ = nonempty.size();
      resident.release();  // copied into the cache; later rows come from the host copy
    } catch (const device_out_of_memory&) {
      clear();
      return false;
    }
    key_ = corpus.signatures;
    sizes_key_ = corpus.set_sizes;
    docs_ = n;
    num_perm_ = sigs.num_perm;
    valid_ = true;
    return true;
  }

  const Signatures* key_ = nullptr;
  const std::vector<uint32_t>* sizes_key_ = nullptr;
  size_t docs_ = 0;
  uint32_t num_perm_ = 0;
  bool valid_ = false;
  device_buffer<uint32_t> signatures_;
  device_buffer<uint32_t> set_sizes_;
  device_buffer<uint32_t> nonempty_;
  size_t nonempty_count_ = 0;
};

}  // namespace gpudedup::detail

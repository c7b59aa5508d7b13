// The CUDA ComputeBackend: wires kernels/minhash/minhash.cu and kernels/minhash/lsh.cu to the engine.
//
// Streams and copies. The backend holds one stream of its device's context
// (kernels/device/device_context.hpp) for its lifetime; every copy, kernel, allocation
// (cudaMallocAsync) and free is ordered on it, so no event juggling is needed and nothing
// calls cudaDeviceSynchronize. A batch is cut into sub-batches that fit the device; their
// text goes through two pinned staging slots (buffers lent with the stream): while the device
// sketches sub-batch i from slot i % 2, the host copies sub-batch i + 1 into the other
// slot (that slot's previous upload finished at the synchronization that ended
// sub-batch i - 1).
//
// The async pipeline (GPUDEDUP_GPU_PIPELINE=async, kernels/minhash/pipeline_choice.hpp;
// sync, the paragraph above, is the default). sketch_rows() stages each sub-batch into a
// pinned slot and queues its upload on a second stream of its own (`upload_`), records the
// slot's event there, makes the compute stream wait for that event, and queues the sketch
// on the compute stream; then it returns. The only host wait inside the loop is on the
// event of the slot about to be refilled (the upload two sub-batches back). The results
// stay in device buffers until flush() (called by the engine before it grows its storage,
// and at every other synchronization point) copies them into the engine's arrays; then the
// signature rows are offered to the resident store (kernels/minhash/resident_rows.cuh), and
// the band passes copy the kept rows device to device and upload only the rest.
// Lifetimes: the inputs are allocated on the upload stream and freed on the compute stream
// after it waited for the upload (device_buffer::free_on); the results are allocated and
// freed on the compute stream; a pinned slot is refilled only after its event; staging
// belongs to the upload stream, which is given back (synchronized) before the compute
// stream. An out-of-memory error drains both streams, writes what was queued, frees the
// resident rows and sketches the range synchronously (below); any other exception drains
// both streams and drops what was queued (no work in flight) before it leaves.
// Shingle sets (--verify exact) and sampled sets take the synchronous path: the host needs
// the set sizes before it can size the hash copy.
//
// Memory. Sub-batches are sized from the device context's work budget (half the free
// memory, or GPUDEDUP_DEVICE_BUDGET; kernels/device/work_split.hpp does the arithmetic);
// if an allocation still fails, the sub-batch is split in halves, recursively; a single
// document that does not fit is sketched by the CPU backend (same functions, same
// result), and so is every batch when not even the permutations fit. The corpus
// (signatures, set sizes, numbers of the non-empty documents) is uploaded once for the
// band passes and cached, keyed by the Signatures object, its size and P; when it does
// not fit, or a band's buffers do not fit, the band runs on the CPU backend
// (device_corpus_cache.cuh).
//
// Verification. Estimate (and none) verification runs on the device; exact
// verification needs the shingle sets, which stay on the host: the device finds the
// candidates and the host verifies them with pair_similarity(), as the CPU does.
//
// `skip`. The CPU backend leaves out pairs whose two documents are already in one
// cluster (skip(a, b) true); this backend verifies every candidate. The engine's result
// is the same: band_pairs() does not touch the union-find, so a pair skipped by the CPU
// was already joined before this band; the engine's cluster() then calls unite(a, b),
// which returns false for it, so the pair is neither recorded nor changes any root.
// skip(a, b) is only ever true when Config::all_pairs is off, the only case in which
// the engine records just the pairs that joined two clusters. Candidate counts are equal
// because both count every candidate, skipped or not. The exact path, which verifies
// on the host, consults skip exactly like the CPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "gpudedup/device.hpp"
#include "gpudedup/errors.hpp"
#include "kernels/device/device_buffer.cuh"
#include "kernels/device/device_context.hpp"
#include "kernels/device/work_split.hpp"
#include "kernels/minhash/device_corpus_cache.cuh"
#include "kernels/minhash/lsh.cuh"
#include "kernels/minhash/minhash.cuh"
#include "kernels/minhash/minhash_cuda.hpp"
#include "kernels/minhash/pipeline_choice.hpp"
#include "kernels/minhash/resident_rows.cuh"
#include "gpudedup/detail/host_stages.hpp"

namespace gpudedup::detail {
namespace {

/// Per-document device bytes besides the signature row: offsets, lengths, counts, items.
constexpr size_t per_document_device_bytes = 64;
/// Candidate pairs decoded and verified per chunk: 4 Mi pairs take ~90 MB of scratch
/// (pair, flag, selected pair), so a band of any size streams through bounded memory.
constexpr size_t pair_chunk = size_t(1) << 22;

class CudaBackend final : public ComputeBackend {
 public:
  // device_context() checks the device (a usage_error naming --backend cuda or --device)
  // and sets up its memory pool; every entry point holds stream_.use() while it works.
  explicit CudaBackend(const SketchSpec& spec)
      : spec_(spec), stream_(device_context(spec.config.device).stream()) {
    GD_EXPECTS(spec.config.minhash.num_perm <= 4096, "`minhash.num_perm` must be at most 4096 on the CUDA backend");
    const ScopedDevice device = stream_.use();  // the caller's device again when we return

    const cudaStream_t s = stream_.get();
    const uint32_t P = spec.config.minhash.num_perm;
    d_perm_a_ = device_buffer<uint64_t>(P, s);
    d_perm_b_ = device_buffer<uint64_t>(P, s);
    GD_CUDA_TRY(cudaMemcpyAsync(d_perm_a_.data(), spec_.perm_a.data(), P * sizeof(uint64_t), cudaMemcpyHostToDevice, s));
    GD_CUDA_TRY(cudaMemcpyAsync(d_perm_b_.data(), spec_.perm_b.data(), P * sizeof(uint64_t), cudaMemcpyHostToDevice, s));
    const auto& stop = spec_.shingles.stop_word_hashes;
    d_stop_ = device_buffer<uint64_t>(stop.size(), s);
    if (!stop.empty()) {
      GD_CUDA_TRY(cudaMemcpyAsync(d_stop_.data(), stop.data(), stop.size() * sizeof(uint64_t),
                                  cudaMemcpyHostToDevice, s));
    }
    GD_CUDA_TRY(cudaStreamSynchronize(s));  // the host vectors may go before first use

    params_.perm_a = d_perm_a_.data();
    params_.perm_b = d_perm_b_.data();
    params_.num_perm = P;
    params_.kind = spec_.shingles.kind;
    params_.k = spec_.shingles.k;
    params_.words = spec_.shingles.word_params();
    params_.words.stop_words = d_stop_.data();
    params_.normalize = spec_.shingles.normalize;
    params_.kernel = sketch_kernel_from_environment();
    params_.family = spec_.config.minhash.family;
    params_.oph = make_oph_params(spec_.config.seed, P);

    sub_batch_budget_ = device_context(spec.config.device).work_budget();
    if (gpu_pipeline_from_environment() == gpu_pipeline::async) {
      upload_ = device_context(spec.config.device).stream();
      for (cudaEvent_t& e : uploaded_) GD_CUDA_TRY(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      // Kept rows take at most the work budget (GPUDEDUP_DEVICE_BUDGET in the tests).
      resident_ = ResidentRows(sub_batch_budget_, P);
      async_ = true;
    }
    // The CPU fallback reads what the device reads: text after the host stages.
    SketchSpec staged_spec = spec_;
    staged_spec.shingles.text_staged = spec_.shingles.has_host_stages();
    cpu_ = make_cpu_backend(staged_spec);
  }

  ~CudaBackend() override {
    if (!async_) return;
    discard();  // no copy may write into the engine's arrays, which may be gone already
    for (cudaEvent_t e : uploaded_)
      if (e) cudaEventDestroy(e);
  }
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  void sketch(const DocumentBatch& batch, uint32_t* signatures, uint32_t* set_sizes,
              ShingleSets* sets) override {
    flush();  // queued uploads read the staging slots that this sketch refills
    if (spec_.shingles.has_host_stages()) {  // NFKC, ICU tokens: host/shingle/text_stages.hpp
      sketch_staged(apply_host_stages(spec_.shingles, batch), signatures, set_sizes, sets);
    } else {
      sketch_staged(batch, signatures, set_sizes, sets);
    }
  }

 private:
  /// sketch() of text that has passed the host stages.
  void sketch_staged(const DocumentBatch& batch, uint32_t* signatures, uint32_t* set_sizes, ShingleSets* sets) {
    const ScopedDevice device = stream_.use();
    const size_t n = batch.size();
    if (n == 0) return;
    if (spec_.shingles.sample != SampleKind::none) {
      // Sampled sets (--sample) are drawn on the host; the device still finds and
      // verifies the candidates. Same functions, same signatures.
      cpu_->sketch(batch, signatures, set_sizes, sets);
      return;
    }
    check_document_lengths(batch);
    const Output out{signatures, set_sizes, sets};
    const std::vector<ItemRange> ranges = plan(batch);
    try {
      reserve_staging(batch, ranges);
      stage(batch, ranges[0], 0);
      for (size_t i = 0; i < ranges.size(); ++i) {
        const int slot = int(i & 1);
        InFlight flight;
        bool queued = true;
        try {
          enqueue(ranges[i], slot, sets != nullptr, flight);
        } catch (const device_out_of_memory&) {
          queued = false;
        }
        if (!queued) {
          flight = InFlight{};
          sketch_split(batch, ranges[i], slot, out);
        }
        if (i + 1 < ranges.size()) stage(batch, ranges[i + 1], slot ^ 1);  // overlaps the device work
        if (queued) collect(flight, out);
      }
    } catch (...) {
      // Any other error (a launch, CUB, an injected fault) may leave copies from the
      // pinned slots queued: wait for them, so that the next call (a reused backend: the
      // Python Engine, the index) may refill the slots and nothing writes after we return.
      discard();
      throw;
    }
  }

 public:
  void sketch_rows(const DocumentBatch& batch, uint64_t first, uint32_t* signatures, uint32_t* set_sizes,
                   ShingleSets* sets) override {
    flush();
    if (!async_ || sets != nullptr || spec_.shingles.sample != SampleKind::none) {
      resident_.close();  // these rows are not kept: the prefix ends here
      sketch(batch, signatures, set_sizes, sets);
      return;
    }
    const ScopedDevice device = stream_.use();
    const Output out{signatures, set_sizes, nullptr};
    if (spec_.shingles.has_host_stages()) {  // the staged copy may go once staged
      sketch_async(apply_host_stages(spec_.shingles, batch), first, out);
    } else {
      sketch_async(batch, first, out);
    }
  }

  void flush() override {
    if (pending_.empty()) return;
    const ScopedDevice device = stream_.use();
    try {
      write_pending();
    } catch (...) {
      discard();
      throw;
    }
  }

  void drop_rows() override {
    flush();
    resident_.release();
    cache_.clear();
  }

  void band_pairs(const CorpusView& corpus, uint32_t band, uint32_t rows,
                  const std::function<bool(uint32_t, uint32_t)>& skip,
                  std::vector<ScoredPair>& passed, uint64_t* candidates, WindowedBuckets* windowed) override {
    flush();
    const ScopedDevice device = stream_.use();
    const size_t old_size = passed.size();
    const size_t old_members = windowed->members.size();
    const size_t old_buckets = windowed->offsets.size();
    try {
      band_buckets buckets = buckets_on_device(corpus, band, rows);
      windowed_buckets_cuda(buckets, windowed->members, windowed->offsets, stream_.get());
      if (spec_.config.verify == VerifyMode::exact) {
        verify_on_host(corpus, buckets, skip, passed);
      } else {
        verify_on_device(buckets, passed);
      }
      *candidates += buckets.pairs;
    } catch (const device_out_of_memory&) {
      passed.resize(old_size);
      windowed->members.resize(old_members);
      windowed->offsets.resize(old_buckets);
      cpu_->band_pairs(corpus, band, rows, skip, passed, candidates, windowed);
    }
  }

  void band_candidates(const CorpusView& corpus, uint32_t band, uint32_t rows,
                       std::vector<std::pair<uint32_t, uint32_t>>& out) override {
    flush();
    const ScopedDevice device = stream_.use();
    const size_t old_size = out.size();
    try {
      band_buckets buckets = buckets_on_device(corpus, band, rows);
      for_each_candidate_chunk(buckets, [&](const std::vector<uint2>& chunk) {
        for (const uint2& p : chunk) out.emplace_back(p.x, p.y);
      });
    } catch (const device_out_of_memory&) {
      out.resize(old_size);
      cpu_->band_candidates(corpus, band, rows, out);
    }
  }

 private:
  struct Output {
    uint32_t* signatures;
    uint32_t* set_sizes;
    ShingleSets* sets;
  };
  /// A sub-batch queued on the stream and the device memory it uses.
  struct InFlight {
    ItemRange range;  ///< documents of the batch
    device_buffer<uint8_t> text;
    device_buffer<uint64_t> offsets;
    device_buffer<uint2> items;
    device_sketch_result result;
  };

  /// A sub-batch queued by the async pipeline: its results, written at flush().
  struct Pending {
    ItemRange range;
    device_buffer<uint32_t> signatures;
    device_buffer<uint32_t> set_sizes;
  };

  static void check_document_lengths(const DocumentBatch& batch) {
    for (size_t d = 0; d < batch.size(); ++d) {
      if (batch.offsets[d + 1] - batch.offsets[d] >= UINT32_MAX) {
        throw data_error("CUDA backend: document " + std::to_string(d) + " of the batch is 4 GiB or longer");
      }
    }
  }

  /// Queues the sketch of every sub-batch of `batch` (rows `first`.. of the corpus) and
  /// returns; the outputs are written at flush(). On any exception other than out of
  /// memory, nothing is left in flight.
  void sketch_async(const DocumentBatch& batch, uint64_t first, const Output& out) {
    if (batch.size() == 0) return;
    check_document_lengths(batch);
    pending_out_ = out;
    pending_first_ = first;
    try {
      const std::vector<ItemRange> ranges = plan(batch);
      // Both slots' earlier uploads must be done before a slot may be reallocated.
      for (const cudaEvent_t uploaded : uploaded_) GD_CUDA_TRY(cudaEventSynchronize(uploaded));
      reserve_staging(batch, ranges);
      for (size_t i = 0; i < ranges.size(); ++i) {
        const int slot = int(i & 1);
        // The slot's previous upload (two sub-batches back) must be done before it is refilled.
        GD_CUDA_TRY(cudaEventSynchronize(uploaded_[slot]));
        stage(batch, ranges[i], slot);
        Pending p;
        try {
          enqueue_async(ranges[i], slot, p);
          pending_.push_back(std::move(p));
          continue;
        } catch (const device_out_of_memory&) {
        }
        // Out of device memory: finish what is queued, give back the kept rows (they took
        // the room) and sketch this range synchronously, halving it as needed.
        p = Pending{};
        GD_CUDA_TRY(cudaStreamSynchronize(upload_.get()));
        write_pending();
        resident_.release();
        cache_.clear();
        sketch_split(batch, ranges[i], slot, out);
      }
    } catch (...) {
      discard();
      throw;
    }
  }

  /// Uploads slot `slot` on the upload stream and queues its sketch on the compute stream.
  /// @throws device_out_of_memory (what was allocated is freed in stream order).
  void enqueue_async(ItemRange r, int slot, Pending& p) {
    Staging& st = staging_[slot];
    const cudaStream_t up = upload_.get();
    const cudaStream_t s = stream_.get();
    const size_t docs = r.size();
    // Allocated on the upload stream: an allocation on the compute stream would be ordered
    // after the previous sub-batch's kernels, and the upload would wait for them.
    device_buffer<uint8_t> text(st.bytes, up);
    device_buffer<uint64_t> offsets(docs + 1, up);
    device_buffer<uint2> items(st.item_list.size(), up);
    if (st.bytes > 0) GD_CUDA_TRY(cudaMemcpyAsync(text.data(), st.text, st.bytes, cudaMemcpyHostToDevice, up));
    GD_CUDA_TRY(cudaMemcpyAsync(offsets.data(), st.offsets, (docs + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice, up));
    GD_CUDA_TRY(cudaMemcpyAsync(items.data(), st.items, st.item_list.size() * sizeof(uint2), cudaMemcpyHostToDevice, up));
    GD_CUDA_TRY(cudaEventRecord(uploaded_[slot], up));
    GD_CUDA_TRY(cudaStreamWaitEvent(s, uploaded_[slot], 0));
    // From here the compute stream reads them: freed in its order, after its kernels.
    text.free_on(s);
    offsets.free_on(s);
    items.free_on(s);
    device_text_batch b;
    b.text = text.data();
    b.offsets = offsets.data();
    b.items = items.data();
    b.docs = docs;
    b.bytes = st.bytes;
    b.item_count = st.item_list.size();
    device_sketch_result result;
    minhash_sketch_cuda(params_, b, false, result, s);
    p.range = r;
    p.signatures = std::move(result.signatures);
    p.set_sizes = std::move(result.set_sizes);
  }

  /// Copies the queued results into the caller's arrays (waits for the compute stream,
  /// which waited for every upload) and offers the rows to the resident store.
  void write_pending() {
    const cudaStream_t s = stream_.get();
    const size_t P = spec_.config.minhash.num_perm;
    for (Pending& p : pending_) {
      const size_t docs = p.range.size();
      GD_CUDA_TRY(cudaMemcpyAsync(pending_out_.signatures + p.range.begin * P, p.signatures.data(),
                                  docs * P * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
      GD_CUDA_TRY(cudaMemcpyAsync(pending_out_.set_sizes + p.range.begin, p.set_sizes.data(), docs * sizeof(uint32_t),
                                  cudaMemcpyDeviceToHost, s));
    }
    GD_CUDA_TRY(cudaStreamSynchronize(s));
    for (Pending& p : pending_) resident_.offer(pending_first_ + p.range.begin, std::move(p.signatures));
    pending_.clear();
  }

  /// Waits for both streams and drops what was queued without writing it: afterwards no
  /// copy or kernel of this backend is in flight. Errors are ignored (the caller is
  /// already failing, or going).
  void discard() noexcept {
    if (async_) cudaStreamSynchronize(upload_.get());
    cudaStreamSynchronize(stream_.get());
    pending_.clear();
    cudaGetLastError();
  }

  /// Consecutive documents whose planned device memory stays within the budget (a
  /// document above the budget alone; splitting on allocation failure handles the rest).
  std::vector<ItemRange> plan(const DocumentBatch& batch) const {
    const size_t row_bytes = size_t(spec_.config.minhash.num_perm) * sizeof(uint32_t) + per_document_device_bytes;
    return plan_ranges(batch.size(), sub_batch_budget_, [&](size_t d) {
      return size_t(batch.offsets[d + 1] - batch.offsets[d]) * sketch_bytes_per_text_byte + row_bytes;
    });
  }

  /// Sizes both pinned slots for the largest of `ranges` before the first is staged: a
  /// slot that grew inside the loop would call cudaFreeHost/cudaMallocHost, which wait for
  /// the device and so undo the overlap of staging with the device's work.
  void reserve_staging(const DocumentBatch& batch, const std::vector<ItemRange>& ranges) {
    size_t bytes = 1, offsets = 1, items = 0;
    for (const ItemRange& r : ranges) {
      bytes = std::max<size_t>(bytes, batch.offsets[r.end] - batch.offsets[r.begin]);
      offsets = std::max(offsets, r.size() + 1);
      size_t n = 0;
      for (size_t d = r.begin; d < r.end; ++d) {
        n += minhash_chunks(batch.offsets[d + 1] - batch.offsets[d]);  // make_minhash_items
      }
      items = std::max(items, n);
    }
    DeviceStream& owner = async_ ? upload_ : stream_;
    for (int slot = 0; slot < 2; ++slot) {
      owner.staging<uint8_t>(staging_buffer(slot, text_buffer), bytes);
      owner.staging<uint64_t>(staging_buffer(slot, offsets_buffer), offsets);
      owner.staging<uint2>(staging_buffer(slot, items_buffer), items);
    }
  }

  /// Copies a range's text, rebased offsets and MinHash items into pinned slot `slot`.
  /// The caller guarantees no copy still reads that slot.
  void stage(const DocumentBatch& batch, ItemRange r, int slot) {
    Staging& st = staging_[slot];
    DeviceStream& owner = async_ ? upload_ : stream_;  // the stream whose copies read the slot
    const size_t docs = r.size();
    const uint64_t base = batch.offsets[r.begin];
    const size_t bytes = batch.offsets[r.end] - base;
    st.text = owner.staging<uint8_t>(staging_buffer(slot, text_buffer), bytes > 0 ? bytes : 1);
    if (bytes > 0) std::memcpy(st.text, batch.bytes.data() + base, bytes);
    st.offsets = owner.staging<uint64_t>(staging_buffer(slot, offsets_buffer), docs + 1);
    for (size_t i = 0; i <= docs; ++i) st.offsets[i] = batch.offsets[r.begin + i] - base;
    make_minhash_items(st.offsets, docs, st.item_list);
    st.items = owner.staging<uint2>(staging_buffer(slot, items_buffer), st.item_list.size());
    std::memcpy(st.items, st.item_list.data(), st.item_list.size() * sizeof(uint2));
    st.bytes = bytes;
  }

  /// Uploads slot `slot` and queues its sketch. @throws device_out_of_memory.
  void enqueue(ItemRange r, int slot, bool want_sets, InFlight& f) {
    Staging& st = staging_[slot];
    const cudaStream_t s = stream_.get();
    const size_t docs = r.size();
    f.range = r;
    f.text = device_buffer<uint8_t>(st.bytes, s);
    f.offsets = device_buffer<uint64_t>(docs + 1, s);
    f.items = device_buffer<uint2>(st.item_list.size(), s);
    if (st.bytes > 0) GD_CUDA_TRY(cudaMemcpyAsync(f.text.data(), st.text, st.bytes, cudaMemcpyHostToDevice, s));
    GD_CUDA_TRY(cudaMemcpyAsync(f.offsets.data(), st.offsets, (docs + 1) * sizeof(uint64_t),
                                cudaMemcpyHostToDevice, s));
    GD_CUDA_TRY(cudaMemcpyAsync(f.items.data(), st.items, st.item_list.size() * sizeof(uint2),
                                cudaMemcpyHostToDevice, s));
    device_text_batch b;
    b.text = f.text.data();
    b.offsets = f.offsets.data();
    b.items = f.items.data();
    b.docs = docs;
    b.bytes = st.bytes;
    b.item_count = st.item_list.size();
    minhash_sketch_cuda(params_, b, want_sets, f.result, s);
  }

  /// Copies a queued sub-batch's results to the caller's arrays (waits for the stream).
  void collect(InFlight& f, const Output& out) {
    const cudaStream_t s = stream_.get();
    const size_t docs = f.range.size();
    const size_t P = spec_.config.minhash.num_perm;
    GD_CUDA_TRY(cudaMemcpyAsync(out.signatures + f.range.begin * P, f.result.signatures.data(),
                                docs * P * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
    GD_CUDA_TRY(cudaMemcpyAsync(out.set_sizes + f.range.begin, f.result.set_sizes.data(), docs * sizeof(uint32_t),
                                cudaMemcpyDeviceToHost, s));
    int64_t selected = 0;
    if (out.sets && !f.result.set_count.empty()) {
      GD_CUDA_TRY(cudaMemcpyAsync(&selected, f.result.set_count.data(), sizeof selected, cudaMemcpyDeviceToHost, s));
    }
    GD_CUDA_TRY(cudaStreamSynchronize(s));
    if (out.sets) {
      uint64_t total = 0;
      for (size_t d = f.range.begin; d < f.range.end; ++d) total += out.set_sizes[d];
      // The selection and the set sizes come from two kernels: the sets are laid out by the
      // sizes, so a disagreement would shift every later document's set.
      if (uint64_t(selected) != total) {
        throw data_error("the CUDA backend selected " + std::to_string(selected) +
                         " shingle hashes where the set sizes sum to " + std::to_string(total) +
                         ": a defect of the CUDA sketch (run with `backend` cpu, and report it)");
      }
      auto& hashes = out.sets->hashes;
      const size_t old = hashes.size();
      hashes.resize(old + total);
      if (total > 0) {
        GD_CUDA_TRY(cudaMemcpyAsync(hashes.data() + old, f.result.set_hashes.data(), total * sizeof(uint64_t),
                                    cudaMemcpyDeviceToHost, s));
        GD_CUDA_TRY(cudaStreamSynchronize(s));
      }
      uint64_t at = old;
      for (size_t d = f.range.begin; d < f.range.end; ++d) {
        at += out.set_sizes[d];
        out.sets->offsets.push_back(at);
      }
    }
    f = InFlight{};
  }

  /// Sketches a range synchronously, halving it while the device runs out of memory;
  /// one document that still does not fit goes to the CPU backend. An attempt that fails
  /// has written nothing: enqueue() throws before collect() writes the outputs.
  void sketch_split(const DocumentBatch& batch, ItemRange r, int slot, const Output& out) {
    const auto attempt = [&](ItemRange part) {
      // Nothing still reads the slot: a failed attempt may have queued copies from it.
      GD_CUDA_TRY(cudaStreamSynchronize(stream_.get()));
      InFlight f;
      stage(batch, part, slot);
      enqueue(part, slot, out.sets != nullptr, f);
      collect(f, out);
    };
    const auto on_cpu = [&](size_t d) {  // one document that does not fit: the CPU backend
      DocumentBatch one;
      one.add(batch.text(d));
      const size_t P = spec_.config.minhash.num_perm;
      cpu_->sketch(one, out.signatures + d * P, out.set_sizes + d, out.sets);
    };
    halve_on_failure<device_out_of_memory>(r, attempt, on_cpu);
  }

  // Band `band`'s buckets on the device. @throws device_out_of_memory (the caller falls
  // back to the CPU) when the corpus or the buckets do not fit.
  band_buckets buckets_on_device(const CorpusView& corpus, uint32_t band, uint32_t rows) {
    if (!cache_.ensure(corpus, spec_.config.minhash.num_perm, resident_, stream_.get()))
      throw device_out_of_memory("corpus does not fit");
    band_buckets buckets;
    make_band_buckets_cuda(cache_.view(), band, rows, spec_.config.all_pairs, buckets, stream_.get());
    return buckets;
  }

  /// Calls f(host pairs) for each chunk of the band's candidates, in candidate order.
  template <class F>
  void for_each_candidate_chunk(const band_buckets& buckets, F&& f) {
    const cudaStream_t s = stream_.get();
    std::vector<uint2> host;
    for (uint64_t first = 0; first < buckets.pairs; first += pair_chunk) {
      const size_t count = size_t(std::min<uint64_t>(pair_chunk, buckets.pairs - first));
      device_buffer<uint2> d_pairs(count, s);
      band_candidates_cuda(buckets, first, count, d_pairs.data(), s);
      host.resize(count);
      GD_CUDA_TRY(cudaMemcpyAsync(host.data(), d_pairs.data(), count * sizeof(uint2), cudaMemcpyDeviceToHost, s));
      GD_CUDA_TRY(cudaStreamSynchronize(s));
      f(host);
    }
  }

  void verify_on_device(const band_buckets& buckets, std::vector<ScoredPair>& passed) {
    const cudaStream_t s = stream_.get();
    estimate_params ep;
    ep.similarity = spec_.config.similarity;
    ep.accept_all = spec_.config.verify == VerifyMode::none;
    ep.threshold = spec_.config.threshold;
    std::vector<device_scored_pair> host;
    for (uint64_t first = 0; first < buckets.pairs; first += pair_chunk) {
      const size_t count = size_t(std::min<uint64_t>(pair_chunk, buckets.pairs - first));
      device_buffer<device_scored_pair> d_out(count, s);
      const size_t kept = band_verified_pairs_cuda(cache_.view(), buckets, ep, first, count, d_out.data(), s);
      host.resize(kept);
      if (kept > 0) {
        GD_CUDA_TRY(cudaMemcpyAsync(host.data(), d_out.data(), kept * sizeof(device_scored_pair),
                                    cudaMemcpyDeviceToHost, s));
        GD_CUDA_TRY(cudaStreamSynchronize(s));
      }
      for (const auto& p : host) passed.push_back({p.a, p.b, p.similarity});
    }
  }

  void verify_on_host(const CorpusView& corpus, const band_buckets& buckets,
                      const std::function<bool(uint32_t, uint32_t)>& skip, std::vector<ScoredPair>& passed) {
    const double t = spec_.config.threshold;
    for_each_candidate_chunk(buckets, [&](const std::vector<uint2>& chunk) {
      for (const uint2& p : chunk) {
        if (skip(p.x, p.y)) continue;
        const double sim = pair_similarity(spec_, corpus, p.x, p.y);
        if (sim >= t) passed.push_back({p.x, p.y, sim});
      }
    });
  }

  /// A staging slot: three of the stream's pinned buffers (staging_buffer()) and the items.
  struct Staging {
    uint8_t* text = nullptr;
    uint64_t* offsets = nullptr;
    uint2* items = nullptr;
    std::vector<uint2> item_list;
    size_t bytes = 0;
  };
  enum StagingBuffer : size_t { text_buffer, offsets_buffer, items_buffer, buffers_per_slot };
  static size_t staging_buffer(int slot, StagingBuffer b) { return size_t(slot) * buffers_per_slot + b; }
  SketchSpec spec_;
  DeviceStream stream_;  // declared before every device buffer: destroyed after them
  DeviceStream upload_;  // async: the uploads and their staging; given back (synchronized) before stream_
  bool async_ = false;   // GPUDEDUP_GPU_PIPELINE=async
  cudaEvent_t uploaded_[2] = {nullptr, nullptr};  // async: the last upload from each staging slot
  device_buffer<uint64_t> d_perm_a_;
  device_buffer<uint64_t> d_perm_b_;
  device_buffer<uint64_t> d_stop_;
  device_sketch_params params_;
  size_t sub_batch_budget_ = 0;  // set by the constructor
  Staging staging_[2];
  DeviceCorpusCache cache_;  // the corpus of the band passes
  ResidentRows resident_;         // async: the corpus's first rows, kept where they were sketched
  std::vector<Pending> pending_;  // async: queued sub-batches, written at flush()
  Output pending_out_{};          // where they go
  uint64_t pending_first_ = 0;    // the corpus row of pending_out_'s first row
  std::unique_ptr<ComputeBackend> cpu_;
};

}  // namespace

std::unique_ptr<ComputeBackend> make_cuda_backend(const SketchSpec& spec) {
  try {
    return std::make_unique<CudaBackend>(spec);
  } catch (const device_out_of_memory&) {
    // Not even the permutations fit (the device is full): the CPU backend, same results.
    return make_cpu_backend(spec);
  }
}

}  // namespace gpudedup::detail

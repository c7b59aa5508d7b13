#pragma once
/// @file pod_buffer.hpp
/// A growable contiguous array of trivially copyable values that grows with realloc.
/// For the large arrays of the engine (signatures: 1 GB for 1 M documents at P = 256)
/// std::vector's grow-by-copy briefly holds the old and the new array, 1.5-2x the
/// memory; glibc serves large blocks with mmap and grows them with mremap, which moves
/// pages without copying, so the peak stays at the array's own size. A large array asks
/// for transparent huge pages (where the kernel offers them on request): its pages are
/// then faulted in 2 MiB at a time, not 4 KiB (a Debian run's page faults, most of them
/// the sets kept for the exact check: 54,300, and 13,600 with huge pages for these arrays
/// and the read batch's text: docs/performance.md).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gpudedup {

namespace detail {
/// Arrays from this size on ask for transparent huge pages.
constexpr size_t huge_page_advice_bytes = size_t(4) << 20;

/// Advises the kernel to back [p, p + bytes) with huge pages, every page the range
/// touches: the whole of the mapping malloc made for a large block, so that the advice
/// does not split it (a split mapping cannot be grown by mremap, and realloc would copy).
/// A hint: where it is refused (no THP, another OS, pages larger than 4 KiB, where the
/// start is not page-aligned) nothing changes.
inline void advise_huge_pages(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t page = 4096;
  const uintptr_t first = reinterpret_cast<uintptr_t>(p) & ~(page - 1);
  const uintptr_t last = (reinterpret_cast<uintptr_t>(p) + bytes + page - 1) & ~(page - 1);
  (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}
}  // namespace detail

template <class T>
class PodBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "PodBuffer holds trivially copyable values");

 public:
  PodBuffer() = default;
  explicit PodBuffer(size_t n, T value = T()) { resize(n, value); }
  PodBuffer(const PodBuffer& o) { assign(o.data(), o.size()); }
  PodBuffer(PodBuffer&& o) noexcept : p_(o.p_), n_(o.n_), cap_(o.cap_) { o.p_ = nullptr; o.n_ = o.cap_ = 0; }
  PodBuffer& operator=(const PodBuffer& o) {
    if (this != &o) assign(o.data(), o.size());
    return *this;
  }
  PodBuffer& operator=(PodBuffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    std::swap(cap_, o.cap_);
    return *this;
  }
  ~PodBuffer() { std::free(p_); }

  /// New elements are set to `value`.
  void resize(size_t n, T value = T()) {
    if (n > cap_) reserve(n > cap_ + cap_ / 2 ? n : cap_ + cap_ / 2);
    for (size_t i = n_; i < n; ++i) p_[i] = value;
    n_ = n;
  }
  void reserve(size_t cap) {
    if (cap <= cap_) return;
    void* q = std::realloc(p_, cap * sizeof(T));
    if (!q) throw std::bad_alloc();
    p_ = static_cast<T*>(q);
    cap_ = cap;
    if (cap * sizeof(T) >= detail::huge_page_advice_bytes) detail::advise_huge_pages(p_, cap * sizeof(T));
  }
  void assign(const T* src, size_t n) {
    n_ = 0;
    reserve(n);
    if (n) std::memcpy(p_, src, n * sizeof(T));
    n_ = n;
  }
  /// n copies of value (like std::vector::assign).
  void assign(size_t n, T value) {
    n_ = 0;
    resize(n, value);
  }
  void append(const T* src, size_t n) {
    const size_t old = n_;
    if (old + n > cap_) reserve(old + n > cap_ + cap_ / 2 ? old + n : cap_ + cap_ / 2);
    if (n) std::memcpy(p_ + old, src, n * sizeof(T));
    n_ = old + n;
  }
  void push_back(T value) {
    if (n_ == cap_) reserve(cap_ < 16 ? 16 : cap_ + cap_ / 2);
    p_[n_++] = value;
  }
  /// Grows by n elements left unwritten and returns the first: several threads may then
  /// fill parts of them (and fault their pages in) at once.
  T* append_uninitialized(size_t n) {
    const size_t old = n_;
    if (old + n > cap_) reserve(old + n > cap_ + cap_ / 2 ? old + n : cap_ + cap_ / 2);
    n_ = old + n;
    return p_ + old;
  }
  void clear() { n_ = 0; }

  T* data() { return p_; }
  const T* data() const { return p_; }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  T& operator[](size_t i) { return p_[i]; }
  const T& operator[](size_t i) const { return p_[i]; }
  T* begin() { return p_; }
  T* end() { return p_ + n_; }
  const T* begin() const { return p_; }
  const T* end() const { return p_ + n_; }

  bool operator==(const PodBuffer& o) const {
    return n_ == o.n_ && (n_ == 0 || std::memcmp(p_, o.p_, n_ * sizeof(T)) == 0);
  }
  bool operator!=(const PodBuffer& o) const { return !(*this == o); }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
  size_t cap_ = 0;
};

}  // namespace gpudedup

// The MinHash families of gpudedup.compat (datasketch's, its default, and the engine's)
// and band keys: signatures updated token by token, and LSH buckets of those signatures.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <string>
#include <unordered_map>
#include <vector>

#include <openssl/evp.h>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "numpy_of.hpp"
#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/xxhash64.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/lsh.hpp"

namespace nb = nanobind;

namespace gpudedup::python {
namespace {

using Values = nb::ndarray<uint32_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Hashes = nb::ndarray<const uint64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using KeyRows = nb::ndarray<const uint64_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;

/// The bytes of a token: bytes as they are, str as UTF-8. @throws nb::type_error otherwise.
std::string_view token_bytes(nb::handle token, size_t j) {
  PyObject* t = token.ptr();
  if (PyBytes_Check(t)) return {PyBytes_AS_STRING(t), size_t(PyBytes_GET_SIZE(t))};
  if (PyByteArray_Check(t)) return {PyByteArray_AS_STRING(t), size_t(PyByteArray_GET_SIZE(t))};
  if (PyUnicode_Check(t)) {
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(t, &size);
    if (!utf8) throw nb::python_error();
    return {utf8, size_t(size)};
  }
  throw nb::type_error(("token " + std::to_string(j) + " is " + Py_TYPE(t)->tp_name + ", not bytes or str").c_str());
}

/// Folds every token of `tokens` into `values` (the running minimum of each permutation),
/// a token's hash being XXH64 of its bytes: the hash the engine gives a char shingle, so
/// a MinHash updated with a text's shingles equals the engine's signature of that text.
void minhash_update(Values values, uint64_t seed, nb::handle tokens) {
  const uint32_t p = uint32_t(values.shape(0));
  std::vector<uint64_t> a(p), b(p);
  detail::make_permutations(seed, p, a.data(), b.data());
  uint32_t* sig = values.data();
  size_t j = 0;
  for (nb::handle token : tokens) {
    const std::string_view bytes = token_bytes(token, j++);
    const uint64_t h = detail::xxhash64(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    detail::minhash_update(sig, a.data(), b.data(), p, h);
  }
}

/// Folds 64-bit token hashes given by the caller (a hashfunc's results) into `values`,
/// each as the engine folds its own XXH64 of a token.
void minhash_update_hashes(Values values, uint64_t seed, Hashes hashes) {
  const uint32_t p = uint32_t(values.shape(0));
  std::vector<uint64_t> a(p), b(p);
  detail::make_permutations(seed, p, a.data(), b.data());
  for (size_t j = 0; j < hashes.shape(0); ++j) detail::minhash_update(values.data(), a.data(), b.data(), p, hashes(j));
}

/// datasketch's permuted value of a token hash h: (a*h + b) mod (2^61 - 1), low 32 bits,
/// with a*h + b wrapping at 2^64 as datasketch's numpy uint64 arithmetic does.
inline void datasketch_fold(uint32_t* sig, const uint64_t* a, const uint64_t* b, size_t p, uint64_t h) {
  constexpr uint64_t kMersenne61 = (uint64_t(1) << 61) - 1;
  for (size_t i = 0; i < p; ++i) {
    // x mod (2^61 - 1) without a division: 2^61 is 1 modulo it, so x is congruent to its
    // low 61 bits plus its top 3, a sum below 2 * (2^61 - 1) (the loop vectorizes).
    const uint64_t x = a[i] * h + b[i];
    uint64_t r = (x & kMersenne61) + (x >> 61);
    r = r >= kMersenne61 ? r - kMersenne61 : r;
    sig[i] = std::min(sig[i], uint32_t(r & 0xFFFFFFFFu));
  }
}

/// The permutations' (a, b) as datasketch makes them (compat_minhash.py, from numpy's
/// RandomState), one per value. @throws usage_error on a length that is not the values'.
void check_permutations(const Values& values, const Hashes& a, const Hashes& b) {
  if (a.shape(0) != values.shape(0) || b.shape(0) != values.shape(0)) {
    throw usage_error("permutations: " + std::to_string(a.shape(0)) + " and " + std::to_string(b.shape(0)) +
                      " parameters for " + std::to_string(values.shape(0)) + " values");
  }
}

/// datasketch's default token hash, sha1_hash32: the first 4 bytes of the token's SHA-1,
/// little-endian, by OpenSSL's libcrypto (one digest context reused for every token; the
/// digest fetched once, as OpenSSL 3 advises: an implicit fetch at each init costs more
/// than hashing a shingle).
class Sha1Hash32 {
 public:
  Sha1Hash32() : ctx_(EVP_MD_CTX_new()), md_(EVP_MD_fetch(nullptr, "SHA1", nullptr)) {
    if (!ctx_ || !md_) {
      EVP_MD_CTX_free(ctx_);
      EVP_MD_free(md_);
      throw std::runtime_error("OpenSSL's libcrypto has no SHA-1 digest here");
    }
  }
  ~Sha1Hash32() {
    EVP_MD_CTX_free(ctx_);
    EVP_MD_free(md_);
  }
  Sha1Hash32(const Sha1Hash32&) = delete;
  Sha1Hash32& operator=(const Sha1Hash32&) = delete;

  uint32_t operator()(std::string_view bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_DigestInit_ex(ctx_, md_, nullptr) != 1 || EVP_DigestUpdate(ctx_, bytes.data(), bytes.size()) != 1 ||
        EVP_DigestFinal_ex(ctx_, digest, &size) != 1 || size < 4) {
      throw std::runtime_error("OpenSSL's SHA-1 failed");
    }
    return uint32_t(digest[0]) | uint32_t(digest[1]) << 8 | uint32_t(digest[2]) << 16 | uint32_t(digest[3]) << 24;
  }

 private:
  EVP_MD_CTX* ctx_;
  EVP_MD* md_;
};

/// Folds every token of `tokens` into `values` as datasketch's MinHash.update() does with
/// its default hashfunc: sha1_hash32 of the token's bytes, permuted by (a, b).
void datasketch_update(Values values, Hashes a, Hashes b, nb::handle tokens) {
  check_permutations(values, a, b);
  Sha1Hash32 sha1;
  size_t j = 0;
  for (nb::handle token : tokens) {
    datasketch_fold(values.data(), a.data(), b.data(), values.shape(0), sha1(token_bytes(token, j++)));
  }
}

/// Folds token hashes given by the caller (a hashfunc's results) as datasketch does.
void datasketch_update_hashes(Values values, Hashes a, Hashes b, Hashes hashes) {
  check_permutations(values, a, b);
  for (size_t j = 0; j < hashes.shape(0); ++j) datasketch_fold(values.data(), a.data(), b.data(), values.shape(0), hashes(j));
}

/// The permutation parameters (a, b) of `num_perm` values and `seed`, as a (2, num_perm) array.
nb::object minhash_permutations(uint64_t seed, uint32_t num_perm) {
  std::vector<uint64_t> ab(size_t(num_perm) * 2);
  detail::make_permutations(seed, num_perm, ab.data(), ab.data() + num_perm);
  return numpy_of(std::move(ab), {2, num_perm});
}

/// LSH buckets of MinHash signatures: document d lands in one bucket per band, keyed by the
/// engine's band key; two signatures are candidates when they share a bucket.
class LshBuckets {
 public:
  LshBuckets(uint32_t num_perm, uint32_t bands, uint32_t rows) : num_perm_(num_perm), bands_(bands), rows_(rows) {
    if (bands == 0 || rows == 0 || uint64_t(bands) * rows > num_perm) {
      throw usage_error("`lsh.bands` x `lsh.rows` must be at most num_perm (" + std::to_string(num_perm) + "), got " +
                        std::to_string(bands) + " x " + std::to_string(rows));
    }
    buckets_.resize(bands);
  }

  /// Adds a signature. @return its document number.
  uint32_t insert(Values values) {
    check(values);
    std::vector<uint64_t> keys(bands_);
    for (uint32_t band = 0; band < bands_; ++band) {
      keys[band] = detail::band_key(values.data() + size_t(band) * rows_, rows_, band);
    }
    return add(keys.data());
  }

  /// Adds one document per row of band keys (what live() gives: a merge, an unpickling).
  /// @return the document number of the first row; the others follow it.
  uint32_t insert_keys(KeyRows rows) {
    if (rows.shape(1) != bands_) {
      throw usage_error("band keys: " + std::to_string(rows.shape(1)) + " per row given, this LSH has " +
                        std::to_string(bands_) + " bands");
    }
    const uint32_t first = uint32_t(removed_.size());
    for (size_t i = 0; i < rows.shape(0); ++i) add(rows.data() + i * bands_);
    return first;
  }

  /// The band keys of a signature, one per band.
  nb::object band_keys(Values values) const {
    check(values);
    std::vector<uint64_t> keys(bands_);
    for (uint32_t band = 0; band < bands_; ++band) {
      keys[band] = detail::band_key(values.data() + size_t(band) * rows_, rows_, band);
    }
    return numpy_of(std::move(keys), {bands_});
  }

  /// The band keys of document d, one per band.
  nb::object doc_keys(uint32_t d) const {
    live_doc(d);
    std::vector<uint64_t> keys(keys_.begin() + size_t(d) * bands_, keys_.begin() + size_t(d + 1) * bands_);
    return numpy_of(std::move(keys), {bands_});
  }

  /// The documents not removed, in order, and their band keys (rows of `bands` keys).
  nb::tuple live() const {
    std::vector<uint32_t> docs;
    std::vector<uint64_t> keys;
    for (uint32_t d = 0; d < removed_.size(); ++d) {
      if (removed_[d]) continue;
      docs.push_back(d);
      keys.insert(keys.end(), keys_.begin() + size_t(d) * bands_, keys_.begin() + size_t(d + 1) * bands_);
    }
    const size_t n = docs.size();
    return nb::make_tuple(numpy_of(std::move(docs), {n}), numpy_of(std::move(keys), {n, bands_}));
  }

  /// The documents in the bucket `key` of `band` (empty when there is none).
  std::vector<uint32_t> bucket(uint32_t band, uint64_t key) const {
    check_band(band);
    const auto it = buckets_[band].find(key);
    return it == buckets_[band].end() ? std::vector<uint32_t>{} : it->second;
  }

  /// The keys of the buckets of `band` that hold a document.
  nb::object bucket_keys(uint32_t band) const {
    check_band(band);
    std::vector<uint64_t> keys;
    keys.reserve(buckets_[band].size());
    for (const auto& kv : buckets_[band]) keys.push_back(kv.first);
    const size_t n = keys.size();
    return numpy_of(std::move(keys), {n});
  }

  /// Document numbers sharing a bucket with the signature, each once, in order.
  std::vector<uint32_t> query(Values values) const {
    check(values);
    std::vector<uint32_t> out;
    for (uint32_t band = 0; band < bands_; ++band) {
      const uint64_t key = detail::band_key(values.data() + size_t(band) * rows_, rows_, band);
      const auto it = buckets_[band].find(key);
      if (it != buckets_[band].end()) out.insert(out.end(), it->second.begin(), it->second.end());
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  /// Takes document d out of its buckets.
  void remove(uint32_t d) {
    live_doc(d);
    removed_[d] = 1;
    for (uint32_t band = 0; band < bands_; ++band) {
      auto& bucket = buckets_[band][keys_[size_t(d) * bands_ + band]];
      bucket.erase(std::remove(bucket.begin(), bucket.end(), d), bucket.end());
      if (bucket.empty()) buckets_[band].erase(keys_[size_t(d) * bands_ + band]);
    }
  }

  uint32_t bands() const { return bands_; }
  uint32_t rows() const { return rows_; }

 private:
  uint32_t add(const uint64_t* keys) {
    const uint32_t d = uint32_t(removed_.size());
    keys_.insert(keys_.end(), keys, keys + bands_);
    for (uint32_t band = 0; band < bands_; ++band) buckets_[band][keys[band]].push_back(d);
    removed_.push_back(0);
    return d;
  }
  void live_doc(uint32_t d) const {
    if (d >= removed_.size() || removed_[d]) throw nb::key_error(("document " + std::to_string(d)).c_str());
  }
  void check_band(uint32_t band) const {
    if (band >= bands_) throw nb::index_error(("band " + std::to_string(band) + " of " + std::to_string(bands_)).c_str());
  }
  void check(const Values& v) const {
    if (v.shape(0) != num_perm_) {
      throw usage_error("`minhash.num_perm`: the MinHash has " + std::to_string(v.shape(0)) +
                        " values, this LSH takes " + std::to_string(num_perm_));
    }
  }
  uint32_t num_perm_, bands_, rows_;
  std::vector<std::unordered_map<uint64_t, std::vector<uint32_t>>> buckets_;
  std::vector<uint64_t> keys_;     ///< bands_ keys per document
  std::vector<uint8_t> removed_;
};

}  // namespace

void bind_compat(nb::module_& m) {
  m.def("minhash_update", &minhash_update, nb::arg("values"), nb::arg("seed"), nb::arg("tokens"));
  m.def("minhash_update_hashes", &minhash_update_hashes, nb::arg("values"), nb::arg("seed"), nb::arg("hashes"));
  m.def("datasketch_update", &datasketch_update, nb::arg("values"), nb::arg("a"), nb::arg("b"), nb::arg("tokens"));
  m.def("datasketch_update_hashes", &datasketch_update_hashes, nb::arg("values"), nb::arg("a"), nb::arg("b"),
        nb::arg("hashes"));
  m.def("minhash_permutations", &minhash_permutations, nb::arg("seed"), nb::arg("num_perm"));
  m.def("choose_lsh_params", [](double threshold, uint32_t num_perm, double fp_weight, double fn_weight) {
    if (!(threshold > 0 && threshold <= 1)) throw usage_error("`threshold` must be in (0, 1], got " + std::to_string(threshold));
    if (num_perm == 0) throw usage_error("`minhash.num_perm` must be at least 1");
    const LshParams p = choose_lsh_params(threshold, num_perm, fp_weight, fn_weight);
    return nb::make_tuple(p.bands, p.rows);
  });
  nb::class_<LshBuckets>(m, "LshBuckets")
      .def(nb::init<uint32_t, uint32_t, uint32_t>(), nb::arg("num_perm"), nb::arg("bands"), nb::arg("rows"))
      .def("insert", &LshBuckets::insert, nb::arg("values"))
      .def("query", &LshBuckets::query, nb::arg("values"))
      .def("remove", &LshBuckets::remove, nb::arg("doc"))
      .def("insert_keys", &LshBuckets::insert_keys, nb::arg("rows"))
      .def("band_keys", &LshBuckets::band_keys, nb::arg("values"))
      .def("doc_keys", &LshBuckets::doc_keys, nb::arg("doc"))
      .def("live", &LshBuckets::live)
      .def("bucket", &LshBuckets::bucket, nb::arg("band"), nb::arg("key"))
      .def("bucket_keys", &LshBuckets::bucket_keys, nb::arg("band"))
      .def_prop_ro("bands", &LshBuckets::bands)
      .def_prop_ro("rows", &LshBuckets::rows);
}

}  // namespace gpudedup::python

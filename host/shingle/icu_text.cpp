// The ICU side of the host text stages (text_stages.hpp): NFKC and word segmentation, and
// ICU's own case folding and categories for the tests. icu_text_missing.cpp stands in for
// it in builds without ICU at run time (the GPU test bundle, docs/building.md).
#include "host/shingle/icu_text.hpp"

#include <unicode/brkiter.h>
#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/utext.h>

#include <memory>
#include <stdexcept>

#include "gpudedup/detail/utf8.hpp"

namespace gpudedup::detail {

bool icu_available() { return true; }

uint32_t icu_simple_case_fold(uint32_t c) { return uint32_t(u_foldCase(UChar32(c), U_FOLD_CASE_DEFAULT)); }

bool icu_is_punctuation(uint32_t c) { return (U_GET_GC_MASK(UChar32(c)) & U_GC_P_MASK) != 0; }

namespace {

const icu::Normalizer2& nfkc_normalizer() {
  UErrorCode err = U_ZERO_ERROR;
  const icu::Normalizer2* n = icu::Normalizer2::getNFKCInstance(err);
  if (U_FAILURE(err) || !n) throw std::runtime_error(std::string("ICU NFKC is unavailable: ") + u_errorName(err));
  return *n;
}

/// This thread's word break iterator (an iterator is not shared between threads).
icu::BreakIterator& word_breaker() {
  thread_local std::unique_ptr<icu::BreakIterator> it;
  if (!it) {
    UErrorCode err = U_ZERO_ERROR;
    it.reset(icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), err));
    if (U_FAILURE(err) || !it) {
      throw std::runtime_error(std::string("ICU word break iterator is unavailable: ") + u_errorName(err));
    }
  }
  return *it;
}

}  // namespace

void nfkc_into(std::string_view text, std::string& out) {
  static const icu::Normalizer2& nfkc = nfkc_normalizer();
  out.clear();
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const size_t n = text.size();
  icu::StringByteSink<std::string> sink(&out);
  for (size_t i = 0; i < n;) {
    size_t e = i;  // the valid run [i, e)
    while (e < n) {
      const code_point cp = decode_utf8(s + e, n - e);
      if (cp.value == invalid_code_point) break;
      e += cp.length;
    }
    if (e > i) {
      UErrorCode err = U_ZERO_ERROR;
      nfkc.normalizeUTF8(0, icu::StringPiece(text.data() + i, int32_t(e - i)), sink, nullptr, err);
      if (U_FAILURE(err)) throw std::runtime_error(std::string("ICU NFKC failed: ") + u_errorName(err));
    }
    if (e < n) out.push_back(char(s[e++]));  // an invalid byte stays itself
    i = e;
  }
}

void for_each_icu_token(const uint8_t* s, size_t n, const std::function<void(size_t, size_t)>& f) {
  if (n == 0) return;
  UErrorCode err = U_ZERO_ERROR;
  UText* ut = utext_openUTF8(nullptr, reinterpret_cast<const char*>(s), int64_t(n), &err);
  icu::BreakIterator& it = word_breaker();
  it.setText(ut, err);
  if (U_FAILURE(err)) {
    utext_close(ut);
    throw std::runtime_error(std::string("ICU word segmentation failed: ") + u_errorName(err));
  }
  // Segment bounds are byte offsets (UTF-8 native indexes). White space segments are not
  // tokens; any other segment is, punctuation and invalid bytes included, so nothing of
  // the text is lost.
  for (int32_t b = it.first(), e = it.next(); e != icu::BreakIterator::DONE; b = e, e = it.next()) {
    for (size_t p = size_t(b); p < size_t(e);) {
      while (p < size_t(e) && s[p] == 0x20) ++p;
      size_t q = p;
      while (q < size_t(e) && s[q] != 0x20) ++q;
      if (q > p) f(p, q);
      p = q;
    }
  }
  it.setText(icu::UnicodeString());  // drop the pointer into s before the UText goes
  utext_close(ut);
}

}  // namespace gpudedup::detail

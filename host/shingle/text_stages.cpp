#include "gpudedup/detail/host_stages.hpp"

#include <vector>

#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/document_batch.hpp"
#include "gpudedup/errors.hpp"
#include "host/shingle/icu_text.hpp"
#include "host/core/parallel_errors.hpp"

namespace gpudedup::detail {
bool apply_host_stages(const ShingleSpec& spec, std::string_view text, std::string& out) {
  if (!spec.has_host_stages()) return false;
  thread_local std::string nfkc;
  if (spec.nfkc) {
    nfkc_into(text, nfkc);
    text = nfkc;
  }
  if (!spec.icu_tokens) {
    out.assign(text);
    return true;
  }
  thread_local std::vector<uint8_t> norm;
  norm.resize(text.size());
  const size_t n = normalize_text(reinterpret_cast<const uint8_t*>(text.data()), text.size(), norm.data(),
                                  spec.normalize);
  out.clear();
  for_each_icu_token(norm.data(), n, [&](size_t b, size_t e) {
    if (!out.empty()) out.push_back(' ');
    out.append(reinterpret_cast<const char*>(norm.data()) + b, e - b);
  });
  return true;
}

DocumentBatch apply_host_stages(const ShingleSpec& spec, const DocumentBatch& batch) {
  GD_EXPECTS(spec.has_host_stages(), "apply_host_stages: the spec has no host stages");
  const int64_t n = int64_t(batch.size());
  std::vector<std::string> texts(static_cast<size_t>(n));
  ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 64)
  for (int64_t d = 0; d < n; ++d) errors.run([&] { apply_host_stages(spec, batch.text(size_t(d)), texts[size_t(d)]); });
  errors.rethrow();
  DocumentBatch staged;
  staged.offsets.reserve(batch.offsets.size());
  for (const auto& t : texts) staged.add(t);
  return staged;
}

}  // namespace gpudedup::detail

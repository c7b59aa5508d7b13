// icu_text.hpp in a build without ICU at run time: the GPU test bundle, which must fit the
// device tool's carry and cannot take ICU's 31 MB of data (docs/building.md). Everything
// else normalizes as usual (the case-folding tables are compiled in); --normalize nfkc and
// --tokenizer icu are refused, and the tests that need them skip.
#include "gpudedup/errors.hpp"
#include "host/shingle/icu_text.hpp"

namespace gpudedup::detail {
namespace {

[[noreturn]] void missing() {
  throw usage_error(
      "--normalize nfkc and --tokenizer icu need ICU, which this build leaves out (the GPU test bundle); "
      "use a regular build");
}

}  // namespace

bool icu_available() { return false; }
void nfkc_into(std::string_view, std::string&) { missing(); }
void for_each_icu_token(const uint8_t*, size_t, const std::function<void(size_t, size_t)>&) { missing(); }
uint32_t icu_simple_case_fold(uint32_t) { missing(); }
bool icu_is_punctuation(uint32_t) { missing(); }

}  // namespace gpudedup::detail

#include "host/cli/method_options.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "host/cli/bloom_options.hpp"
#include "host/cli/memory_options.hpp"
#include "host/cli/simhash_options.hpp"

namespace gpudedup::cli {
namespace {

struct OptionGroup {
  const char* group;  ///< a MethodEntry::reads name
  std::vector<const char*> options;
};

/// Every method-specific option of `dedup`, by the Config group it fills. A new method's
/// options add a row here (and its group to its MethodEntry::reads).
const std::vector<OptionGroup>& option_groups() {
  static const std::vector<OptionGroup> groups = {
      {"lsh", {"bands", "rows"}},
      {"verify", {"verify"}},
      {"similarity", {"similarity"}},
      {"sampling", {"sample", "sample-size", "sample-mod"}},
      {"memory", {"memory-limit", "temp-dir"}},
      {"simhash",
       {"hamming", "blocks", "split-factor", "weights", "len-mu", "len-sigma", "meta-field", "meta-weight",
        "min-score"}},
      {"bloom",
       {"bloom-bits", "bloom-hashes", "bloom-long", "bloom-measure", "bloom-all-pairs-max", "bloom-lsh-bits",
        "bloom-lsh-tables"}},
  };
  return groups;
}

bool reads(const MethodEntry& m, const std::string& group) {
  return std::find(m.reads.begin(), m.reads.end(), group) != m.reads.end();
}

}  // namespace

void add_method_options(cxxopts::Options& o) {
  add_simhash_options(o);
  add_bloom_options(o);  // with the sampling options
  add_memory_options(o);
}

void read_method_options(const cxxopts::ParseResult& r, Config& c) {
  c.simhash = read_simhash_options(r);
  read_bloom_options(r, c);
  read_memory_options(r, c);
}

void refuse_other_methods_options(const cxxopts::ParseResult& r, const MethodEntry& method) {
  for (const OptionGroup& g : option_groups()) {
    if (reads(method, g.group)) continue;
    for (const char* name : g.options) {
      if (!r.count(name)) continue;
      std::vector<std::string> readers;
      for (const MethodEntry& m : method_table()) {
        if (reads(m, g.group)) readers.push_back(m.name);
      }
      if (readers.size() == 1) throw usage_error(std::string("--") + name + " applies to --method " + readers[0] + " only");
      throw usage_error(std::string("--") + name + " does not apply to --method " + method.name);
    }
  }
}

}  // namespace gpudedup::cli

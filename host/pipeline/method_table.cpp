// The method table: the one place that names the methods. A row is a method's name, the
// groups of Config it reads, its checks and its factory (method.hpp).
#include <deque>
#include <mutex>

#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"
#include "host/bloom/bloom_method.hpp"
#include "host/exact/exact_method.hpp"
#include "host/minhash/minhash_method.hpp"
#include "host/simhash/simhash_method.hpp"

namespace gpudedup {
namespace {

struct Table {
  std::mutex mutex;
  std::deque<MethodEntry> rows{detail::minhash_method(), detail::exact_method(), detail::simhash_method(),
                               detail::bloom_method()};  // a deque: rows stay where they are
};

Table& table() {
  static Table t;
  return t;
}

}  // namespace

std::vector<MethodEntry> method_table() {
  std::lock_guard<std::mutex> lock(table().mutex);
  return {table().rows.begin(), table().rows.end()};
}

const MethodEntry& find_method(const std::string& name) {
  std::lock_guard<std::mutex> lock(table().mutex);
  std::string names;
  for (const auto& row : table().rows) {
    if (row.name == name) return row;
    names += (names.empty() ? "" : ", ") + row.name;
  }
  throw usage_error("`method` must be one of " + names + ", got '" + name + "'");
}

void register_method(MethodEntry entry) {
  GD_EXPECTS(!entry.name.empty() && entry.make, "register_method: a method needs a name and a make function");
  std::lock_guard<std::mutex> lock(table().mutex);
  for (const auto& row : table().rows) {
    GD_EXPECTS(row.name != entry.name, "register_method: a method named '" + entry.name + "' exists already");
  }
  table().rows.push_back(std::move(entry));
}

std::unique_ptr<DedupMethod> make_method(const Config& config) {
  config.validate();
  return find_method(config.method).make(config);
}

void DedupMethod::prepass(const DocumentBatch&) {}

std::vector<StatsField> DedupMethod::stats_fields(const DedupResult&) const { return {}; }
void DedupMethod::set_text_replay(TextReplay) {}
DistributedSteps* DedupMethod::distributed() { return nullptr; }

}  // namespace gpudedup

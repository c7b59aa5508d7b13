// The settings every MPI rank compares before any work (mpi_launch_settings.hpp).
#include "host/cli/mpi_launch_settings.hpp"

#include <map>
#include <set>
#include <string>

namespace gpudedup::cli {
namespace {

const std::set<std::string>& rank_own() {
  static const std::set<std::string> names = {"threads", "reader-threads", "memory-limit", "temp-dir",
                                              "device",  "quiet",          "quiet-errors"};
  return names;
}

}  // namespace

const char* rank_own_options() {
  return "--threads, --reader-threads, --memory-limit, --temp-dir, --device, --quiet and --quiet-errors";
}

mpi::LaunchSettings launch_settings(const cxxopts::ParseResult& r, const DedupJob& job) {
  // The inputs are compared as the job reads them (--input-list expanded), below.
  auto compared = [](const std::string& name) { return !rank_own().count(name) && name != "inputs" && name != "input-list"; };
  std::map<std::string, std::string> values;  // by name: sorted, the same order on every rank
  for (const auto& kv : r.arguments()) {
    if (!compared(kv.key())) continue;
    const auto [at, first] = values.emplace(kv.key(), kv.value());
    if (!first) at->second += " " + kv.value();  // a repeated option: its values in order
  }
  for (const auto& kv : r.defaults()) {
    if (compared(kv.key())) values.emplace(kv.key(), kv.value());
  }
  mpi::LaunchSettings settings = {{"gpudedup", GPUDEDUP_VERSION, true}};
  for (const auto& [name, value] : values) {
    // A flag: given ("true") is `with --strict`; not given ("false") is left out, as is
    // an option with no default that was not given: `without --strict`.
    if (value != "false") settings.push_back({"--" + name, value == "true" ? "" : value, true});
  }
  const auto& inputs = job.sketches.empty() ? job.input.paths : job.sketches;
  for (size_t i = 0; i < inputs.size(); ++i) settings.push_back({"input " + std::to_string(i + 1), inputs[i], true});
  return settings;
}

}  // namespace gpudedup::cli

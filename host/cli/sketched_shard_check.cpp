#include "host/cli/sketched_shard_check.hpp"

#include <algorithm>
#include <charconv>

#include "gpudedup/errors.hpp"

namespace gpudedup::cli {
namespace {

bool parse_number(std::string_view s, uint64_t& value, int base) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

[[noreturn]] void changed(const std::string& what, const std::string& removed_path, uint64_t line) {
  throw data_error(what + ": it changed since gpudedup sketch read it (" + removed_path + ":" + std::to_string(line) +
                   " gives what the sketch read), so the removed list's record numbers may name other records; give "
                   "filter the shard as it was sketched, or sketch the shard again and run dedup --from-sketches "
                   "again; nothing was written");
}

}  // namespace

SketchedInput parse_sketched_input(const std::vector<std::string_view>& f, const std::string& where) {
  SketchedInput in;
  if (f.size() != 5 || !parse_number(f[3], in.records, 10)) {
    throw data_error(where + "an #input line must be #input, shard, path, records, checksum (16 hex digits or -)");
  }
  uint64_t sum = 0;
  if (f[4] != "-") {
    if (f[4].size() != 16 || !parse_number(f[4], sum, 16)) {
      throw data_error(where + "the checksum '" + std::string(f[4]) + "' is not 16 hex digits or -");
    }
    in.checksum = sum;
  }
  return in;
}

void check_sketched_shard(const std::vector<InputFile>& read, const std::vector<SketchedInput>& sketched,
                          const std::string& shard, const std::string& removed_path) {
  const size_t common = std::min(read.size(), sketched.size());
  // Position by position: the same records and bytes in the same order make the list's
  // record numbers name the same records, whatever path the files are given by now
  // (`--shard NAME` with another spelling of the inputs).
  for (size_t i = 0; i < common; ++i) {
    const InputFile& now = read[i];
    const SketchedInput& then = sketched[i];
    const std::string name = now.path + (now.path == then.path ? "" : " (the sketch read " + then.path + ")");
    if (now.records != then.records) {
      changed(name + " has " + std::to_string(now.records) + " records where the sketch read " +
                  std::to_string(then.records),
              removed_path, then.line);
    }
    // No checksum now where the sketch had one: the file can no longer be read to its end.
    if (then.checksum && now.checksum != then.checksum) changed(name, removed_path, then.line);
  }
  if (read.size() != sketched.size()) {
    const std::string which = read.size() > sketched.size() ? read[common].path + " is new"
                                                            : sketched[common].path + " is gone";
    changed(shard + " (" + which + "; " + std::to_string(read.size()) + " files where the sketch read " +
                std::to_string(sketched.size()) + ")",
            removed_path, sketched.empty() ? 0 : sketched.back().line);
  }
}

}  // namespace gpudedup::cli

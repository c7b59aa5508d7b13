#include "host/cli/memory_options.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "gpudedup/errors.hpp"

namespace gpudedup::cli {
namespace {

// Smaller limits are allowed (the tests spill tiny corpora) but below 1 KiB nothing fits.
constexpr uint64_t min_limit = 1024;

}  // namespace

std::optional<uint64_t> parse_size(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 19 || text.size() > digits + 1) return std::nullopt;
  unsigned shift = 0;
  if (text.size() == digits + 1) {
    switch (text.back()) {
      case 'k': case 'K': shift = 10; break;
      case 'm': case 'M': shift = 20; break;
      case 'g': case 'G': shift = 30; break;
      case 't': case 'T': shift = 40; break;
      default: return std::nullopt;
    }
  }
  const uint64_t n = std::stoull(text.substr(0, digits));
  if (n > (UINT64_MAX >> shift)) return std::nullopt;
  return n << shift;
}

void add_memory_options(cxxopts::Options& o) {
  o.add_options("Memory")
    ("memory-limit", "bytes of signatures and band keys MinHash holds before it spills them to --temp-dir "
                     "(same answer, slower): a size such as 512M or 4G (K, M, G, T: 1024-based); default: half "
                     "the physical memory; under mpirun a limit per rank, default half the physical memory "
                     "divided by the ranks on the node", cxxopts::value<std::string>())
    ("temp-dir", "folder of the spill files (nameless: nothing is left behind, however the run ends); "
                 "default: $TMPDIR, else /tmp", cxxopts::value<std::string>());
}

void read_memory_options(const cxxopts::ParseResult& r, Config& c) {
  if (r.count("memory-limit")) {
    const std::string text = r["memory-limit"].as<std::string>();
    const auto bytes = parse_size(text);
    GD_EXPECTS(bytes, "--memory-limit takes a size: a number of bytes with an optional K, M, G or T suffix "
                      "(1024-based), such as 512M or 4G; got \"" + text + "\"");
    GD_EXPECTS(*bytes >= min_limit, "--memory-limit must be at least 1K, got \"" + text + "\"");
    c.memory_limit = *bytes;
  }
  if (r.count("temp-dir")) {
    const std::string dir = r["temp-dir"].as<std::string>();
    std::error_code ec;
    GD_EXPECTS(!dir.empty() && std::filesystem::is_directory(dir, ec),
               "--temp-dir " + dir + ": not a folder; give an existing folder for the spill files");
    GD_EXPECTS(::access(dir.c_str(), W_OK | X_OK) == 0,
               "--temp-dir " + dir + ": cannot write there (" + std::strerror(errno) +
                   "); give a folder this user may write");
    c.temp_dir = dir;
  }
}

}  // namespace gpudedup::cli

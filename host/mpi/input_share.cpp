// Shares of the input list by size (input_share.hpp).
#include "host/mpi/input_share.hpp"

#include <filesystem>
#include <system_error>

#include "gpudedup/errors.hpp"

namespace gpudedup::mpi {

std::vector<size_t> share_bounds(const std::vector<uint64_t>& sizes, int ranks) {
  GD_EXPECTS(ranks >= 1, "share_bounds: ranks must be >= 1");
  const size_t n = sizes.size();
  long double total = 0;
  for (uint64_t s : sizes) total += s;
  std::vector<size_t> bounds(size_t(ranks) + 1, n);
  bounds[0] = 0;
  long double before = 0;
  size_t next_rank = 1;  // the rank whose first input is still to be found
  for (size_t i = 0; i < n; ++i) {
    const long double middle = total > 0 ? before + sizes[i] / 2.0L : i + 0.5L;
    const long double whole = total > 0 ? total : n;
    size_t r = size_t(middle * ranks / whole);
    if (r >= size_t(ranks)) r = ranks - 1;
    while (next_rank <= r) bounds[next_rank++] = i;  // ranks up to r start here (or are empty)
    before += sizes[i];
  }
  return bounds;
}

std::vector<uint64_t> input_sizes(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<uint64_t> sizes;
  for (const auto& p : paths) {
    if (p == "-") {
      throw usage_error("`input.paths`: - (standard input) cannot be shared between MPI ranks: give files");
    }
    std::error_code ec;
    const auto st = fs::status(p, ec);
    if (ec || !fs::exists(st)) throw data_error(p + ": no such file or folder (`input.paths`)");
    uint64_t bytes = 0;
    if (fs::is_directory(st)) {
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec)) {
        std::error_code fe;
        if (it->is_regular_file(fe)) bytes += it->file_size(fe);
      }
    } else {
      bytes = fs::file_size(p, ec);
      if (ec) bytes = 0;  // a device or pipe: size unknown, it still gets a share
    }
    sizes.push_back(bytes);
  }
  return sizes;
}

}  // namespace gpudedup::mpi

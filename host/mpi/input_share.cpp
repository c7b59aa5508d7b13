// Shares of the input list by size (input_share.hpp).
#include "host/mpi/input_share.hpp"

#include <filesystem>
#include <system_error>

#include "gpudedup/errors.hpp"
#include "host/io/read/input_list.hpp"
#include "host/io/compress/codecs.hpp"
#include "host/io/read/record_formats.hpp"

namespace gpudedup::mpi {

std::vector<std::vector<SharePiece>> share_inputs(const std::vector<ShareInput>& inputs, int ranks) {
  GD_EXPECTS(ranks >= 1, "share_inputs: ranks must be >= 1");
  const size_t n = inputs.size();
  uint64_t total = 0;
  for (const auto& in : inputs) total += in.bytes;
  std::vector<std::vector<SharePiece>> share(static_cast<size_t>(ranks));
  __extension__ typedef unsigned __int128 u128;  // exact products of 64-bit sizes
  // The first byte of rank r's slice; the rank whose slice holds half-byte x2 / 2 of a
  // whole of w2 / 2 (exact integers: a piece's bounds and a middle never disagree).
  auto bound = [&](uint64_t r) { return uint64_t(u128(total) * r / unsigned(ranks)); };
  // The slice that holds byte x: the last r with bound(r) <= x, i.e. r * total < (x + 1) * ranks.
  auto slice_of = [&](uint64_t x) {
    const auto r = size_t((u128(x + 1) * unsigned(ranks) - 1) / total);
    return r >= size_t(ranks) ? size_t(ranks) - 1 : r;
  };
  auto rank_at = [&](u128 x2, u128 w2) {
    const auto r = size_t(x2 * unsigned(ranks) / w2);
    return r >= size_t(ranks) ? size_t(ranks) - 1 : r;
  };
  uint64_t before = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t bytes = inputs[i].bytes;
    const bool split = inputs[i].splittable && total > 0 && u128(bytes) * unsigned(ranks) > total;
    if (!split) {
      const size_t r = total > 0 ? rank_at(u128(before) * 2 + bytes, u128(total) * 2) : rank_at(2 * i + 1, 2 * n);
      share[r].push_back({i, LineRange{}});
      before += bytes;
      continue;
    }
    // Cut at the slices' bounds: each piece ends where the next begins, so the pieces
    // tile the file and every line starts in exactly one of them.
    const size_t first = slice_of(before), last = slice_of(before + bytes - 1);
    for (size_t r = first; r <= last; ++r) {
      LineRange lines;
      if (r > first) lines.begin = bound(r) - before;
      if (r < last) lines.end = bound(r + 1) - before;
      if (lines.begin < lines.end) share[r].push_back({i, lines});
    }
    before += bytes;
  }
  return share;
}

std::vector<ShareInput> describe_inputs(const InputOptions& input, int ranks) {
  namespace fs = std::filesystem;
  std::vector<ShareInput> out;
  std::vector<uint8_t> regular;
  uint64_t total = 0;
  for (const auto& p : input.paths) {
    if (p == "-") {
      throw usage_error("`input.paths`: - (standard input) cannot be shared between MPI ranks: give files");
    }
    std::error_code ec;
    const auto st = fs::status(p, ec);
    if (ec || !fs::exists(st)) throw data_error(p + ": no such file or folder (`input.paths`)");
    ShareInput in;
    if (fs::is_directory(st)) {
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec)) {
        std::error_code fe;
        if (it->is_regular_file(fe)) in.bytes += it->file_size(fe);
      }
    } else if (fs::is_regular_file(st)) {
      in.bytes = fs::file_size(p, ec);
      if (ec) in.bytes = 0;
    }  // a pipe: size unknown, still a share
    regular.push_back(fs::is_regular_file(st));
    total += in.bytes;
    out.push_back(in);
  }
  // Only a file larger than a slice is split: only those are opened here (a run over
  // 100,000 shards opens none). A regular file whose content is plain lines can be
  // entered in the middle; one whose name asks for a compressed output (kept.jsonl.zst)
  // is not split, so that the ranks never join compressed parts of one output file.
  for (size_t i = 0; i < out.size(); ++i) {
    const std::string& p = input.paths[i];
    if (!regular[i] || out[i].bytes * uint64_t(ranks) <= total) continue;
    InputOptions one = input;
    one.paths = {p};
    const io::Input r = std::move(io::resolve_inputs(one).at(0));
    out[i].splittable = !r.spool && r.plain_bytes > 0 && !r.in_folder &&
                        io::record_format(r.format).lines &&
                        io::codec_of_name(p) == nullptr;
  }
  return out;
}

}  // namespace gpudedup::mpi

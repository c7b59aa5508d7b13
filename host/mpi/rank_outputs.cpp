// Kept-record parts and the gathered clusters (rank_outputs.hpp).
#include "host/mpi/rank_outputs.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "gpudedup/errors.hpp"
#include "host/core/keep_policy.hpp"
#include "host/io/write/kept_sink.hpp"
#include "host/io/write/shard_outputs.hpp"
#include "host/io/write/temporary_files.hpp"
#include "host/pipeline/job_outputs.hpp"

namespace gpudedup::mpi {
namespace {

/// Which records of piece `f` are kept (kept[d]), by the piece's record number.
std::vector<uint8_t> piece_keep(const RankInput& in, const std::vector<uint8_t>& kept, size_t f) {
  uint64_t record_base = 0;  // the share's record number of this piece's first record
  for (size_t g = 0; g < f; ++g) record_base += in.file_records[g];
  std::vector<uint8_t> keep(in.file_records[f], 0);
  const size_t end = f + 1 < in.file_first_doc.size() ? in.file_first_doc[f + 1] : in.record_of.size();
  for (size_t d = in.file_first_doc[f]; d < end; ++d) {
    keep[in.record_of[d] - record_base] = kept[d];
  }
  return keep;
}

/// Writes the kept records of every piece of the share to `out`, through the sink the
/// output's name `name` chooses: one zstd frame or gzip member for a compressed output.
void write_share(RankInput& in, const std::vector<uint8_t>& kept, const std::string& name, std::ostream& out) {
  const std::unique_ptr<KeptSink> sink = io::make_kept_sink(name, out);
  for (size_t f = 0; f < in.readers.size(); ++f) {
    in.readers[f]->write_kept(piece_keep(in, kept, f), [&](size_t) { return sink.get(); });
  }
  sink->finish();
}

/// The part file of this rank: a temporary name in the output's folder (the folder
/// lister skips it; a signal removes it).
std::string part_path(const std::string& output, int rank) {
  namespace fs = std::filesystem;
  fs::path p(output);
  fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec) || output.rfind("/dev/", 0) == 0 || output.rfind("/proc/", 0) == 0) {
    dir = fs::temp_directory_path();
  }
  return (dir / io::temporary_name(p.filename().string() + ".rank" + std::to_string(rank), 0)).string();
}

/// Appends the file at `path` to `out`.
void append_file(const std::string& path, int rank, std::ostream& out) {
  std::ifstream part(path, std::ios::binary);
  if (!part) {
    throw data_error("rank " + std::to_string(rank) + "'s kept records " + path +
                     " cannot be read on rank 0: the folder of `outputs.output` (or `outputs.output_dir`) must be "
                     "on a file system every rank sees");
  }
  // operator<< of an empty stream buffer sets failbit: an empty part appends nothing.
  if (part.peek() != std::ifstream::traits_type::eof()) out << part.rdbuf();
}

}  // namespace

void join_rank_parts(Exchange& ex, const std::string& path, const char* what, std::ostream* output,
                     const std::function<void(std::ostream&)>& write_mine) {
  std::string mine;
  int slot = -1;
  if (ex.rank() == 0) {
    if (output) write_mine(*output);
  } else if (!path.empty()) {
    mine = part_path(path, ex.rank());
    slot = io::remember_temporary(mine);
    std::ofstream part(mine, std::ios::binary | std::ios::trunc);
    write_mine(part);
    part.flush();
    if (!part) throw data_error("cannot write " + mine + " (the " + what + " of this rank): " + std::strerror(errno));
  }
  // Gathered once every rank has written its part: rank 0 then appends them in order.
  const std::vector<std::string> parts = ex.gather_to_root(mine, "part names");
  if (ex.rank() == 0 && output) {
    for (size_t r = 1; r < parts.size(); ++r) append_file(parts[r], int(r), *output);
  }
  ex.barrier();  // rank 0 has read every part
  if (!mine.empty()) {
    std::remove(mine.c_str());
    io::forget_temporary(slot);
  }
}

void write_kept_parts(Exchange& ex, RankInput& in, const std::vector<uint8_t>& kept, const std::string& path,
                      std::ostream* output) {
  // A compressed output: each rank's part is a whole gzip member or zstd frame, and rank 0
  // appends them byte for byte after its own. That is one valid file that decompresses to
  // the parts' data in order: a gzip file is a series of members (RFC 1952 2.2; the GNU
  // gzip manual: `gunzip -c` of concatenated members equals `cat` of their files; zlib's
  // inflate ends at each member and is reset for the next, as io::make_gzip_source does),
  // and zstd data is one or more frames (RFC 8878 3; zstd.h: ZSTD_decompress gives the
  // concatenation of all frames, ZSTD_decompressStream returns 0 at each frame's end).
  join_rank_parts(ex, path, "kept records", output,
                  [&](std::ostream& out) { write_share(in, kept, path, out); });
}

void write_kept_shards(Exchange& ex, RankInput& in, const std::vector<uint8_t>& kept, const std::string& dir,
                       OutputSet& files) {
  namespace fs = std::filesystem;
  const std::string folder = dir.back() == '/' ? dir : dir + '/';
  std::string parts;  // this rank's parts of split files: (input path, part path), length-prefixed
  auto put = [&](const std::string& text) {
    const uint64_t n = text.size();
    parts.append(reinterpret_cast<const char*>(&n), sizeof n).append(text);
  };
  std::vector<std::string> mine;
  std::vector<int> slots;
  for (size_t f = 0; f < in.readers.size(); ++f) {
    const std::vector<uint8_t> keep = piece_keep(in, kept, f);
    RecordReader& reader = *in.readers[f];
    if (in.pieces[f].lines.whole()) {  // a whole input: its files' outputs, as one process writes them
      io::ShardOutputs(files, reader, dir).write_kept(reader, keep);
      continue;
    }
    const std::string target = folder + fs::path(in.pieces[f].path).filename().string();
    std::error_code ec;
    fs::create_directories(folder, ec);  // the parts sit beside the output they make
    mine.push_back(part_path(target, ex.rank()));
    slots.push_back(io::remember_temporary(mine.back()));
    std::ofstream part(mine.back(), std::ios::binary | std::ios::trunc);
    reader.write_kept(keep, part);
    part.flush();
    if (!part) {
      throw data_error("cannot write " + mine.back() + " (the kept records of this rank's part of " +
                       in.pieces[f].path + "): " + std::strerror(errno));
    }
    put(in.pieces[f].path);
    put(mine.back());
  }
  // Rank 0 joins each split file's parts in rank order, which is the file's line order.
  const std::vector<std::string> gathered = ex.gather_to_root(parts, "part names");
  std::vector<std::pair<std::string, std::vector<std::pair<int, std::string>>>> joins;
  for (size_t r = 0; r < gathered.size(); ++r) {
    const std::string& g = gathered[r];
    auto take = [&](size_t& at) {
      uint64_t n = 0;
      std::memcpy(&n, g.data() + at, sizeof n);
      at += sizeof n + n;
      return g.substr(at - n, n);
    };
    for (size_t at = 0; at < g.size();) {
      const std::string input = take(at), part = take(at);
      if (joins.empty() || joins.back().first != input) joins.push_back({input, {}});
      joins.back().second.emplace_back(int(r), part);
    }
  }
  for (const auto& [input, pieces] : joins) {
    const std::string target = folder + fs::path(input).filename().string();
    const size_t index = files.add_outputs({{"outputs.output_dir", target}}, {input});
    AtomicOutputFile& out = files.open(index);
    for (const auto& [rank, part] : pieces) append_file(part, rank, out.stream());
    files.close(index);
  }
  ex.barrier();  // rank 0 has read every part
  for (size_t k = 0; k < mine.size(); ++k) {
    std::remove(mine[k].c_str());
    io::forget_temporary(slots[k]);
  }
}

ClusteredDocs gather_clustered(Exchange& ex, const RankInput& in, const std::vector<uint64_t>& label,
                               const std::vector<uint8_t>& has_members, uint64_t record_offset, bool lengths) {
  // Records of clustered documents: doc, representative, text length (with `lengths`), id
  // length, id bytes.
  GD_EXPECTS(!lengths || in.text_bytes.size() == label.size(), "gather_clustered: a text length per document");
  std::string mine;
  auto put = [&](const void* p, size_t n) { mine.append(static_cast<const char*>(p), n); };
  for (size_t d = 0; d < label.size(); ++d) {
    const uint64_t doc = in.corpus.first + d;
    if (label[d] == doc && !has_members[d]) continue;
    const std::string id = in.id(d, record_offset);
    const uint64_t len = id.size();
    put(&doc, 8);
    put(&label[d], 8);
    if (lengths) put(&in.text_bytes[d], 8);
    put(&len, 8);
    put(id.data(), id.size());
  }
  ClusteredDocs out;
  const std::vector<std::string> parts = ex.gather_to_root(mine, "clusters");
  std::vector<uint64_t>& docs = out.documents;
  std::vector<uint64_t> reps;
  const size_t fields = lengths ? 4 : 3;
  for (const std::string& part : parts) {  // rank order: input order
    for (size_t at = 0; at < part.size();) {
      uint64_t v[4];
      std::memcpy(v, part.data() + at, fields * 8);
      at += fields * 8;
      docs.push_back(v[0]);
      reps.push_back(v[1]);
      if (lengths) out.text_bytes.push_back(v[2]);
      const uint64_t len = v[fields - 1];
      out.ids.add(std::string_view(part.data() + at, len));
      at += len;
    }
  }
  if (docs.size() >= UINT32_MAX) throw data_error("more than 4294967294 clustered documents: run fewer at a time");
  out.result.representative.resize(docs.size());
  for (size_t i = 0; i < docs.size(); ++i) {
    out.result.representative[i] = uint32_t(std::lower_bound(docs.begin(), docs.end(), reps[i]) - docs.begin());
  }
  out.result.documents = docs.size();
  return out;
}

std::vector<uint8_t> kept_documents(Exchange& ex, const std::vector<uint64_t>& firsts, const RankInput& in,
                                    const std::vector<uint64_t>& label, KeepPolicy keep, ClusteredDocs& clustered) {
  const size_t count = label.size();
  std::vector<uint8_t> kept(count);
  if (keep == KeepPolicy::first) {
    for (size_t d = 0; d < count; ++d) kept[d] = label[d] == in.corpus.first + d;
    return kept;
  }
  // Rank 0 holds every clustered document in input order, each cluster labelled by its
  // smallest member: the single-process result restricted to the clusters, which the
  // policy alone re-labels.
  std::vector<uint64_t> removed;
  std::vector<uint64_t> counts(size_t(ex.ranks()), 0);
  if (ex.rank() == 0) {
    detail::apply_keep(clustered.result, keep, clustered.text_bytes);
    for (const auto& x : detail::removed_documents(clustered.result)) {
      removed.push_back(clustered.documents[x.document]);  // ascending: owners in rank order
      ++counts[size_t(owner_of(firsts, removed.back()))];
    }
  }
  std::fill(kept.begin(), kept.end(), uint8_t(1));
  for (uint64_t doc : ex.all_to_all(removed, counts, "documents not kept")) kept[doc - in.corpus.first] = 0;
  return kept;
}

}  // namespace gpudedup::mpi

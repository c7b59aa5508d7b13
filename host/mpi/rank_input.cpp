// Reading and sketching a rank's share (rank_input.hpp). Each piece has its own reader,
// so that the ids that are record numbers can be renumbered from the whole input's first
// record once the ranks before have counted theirs.
#include "host/mpi/rank_input.hpp"

#include <algorithm>

#include "host/core/stage_clock.hpp"
#include "host/io/read/input_list.hpp"
#include "host/io/read/line_range_source.hpp"
#include "host/io/read/record_formats.hpp"
#include "host/mpi/owner_fetch.hpp"
#include "host/pipeline/job_outputs.hpp"

namespace gpudedup::mpi {

using detail::seconds_since;
using detail::stage_clock;

std::string RankInput::id(size_t d, uint64_t record_offset) const {
  const size_t file = size_t(std::upper_bound(numbered_from.begin(), numbered_from.end(), record_of[d]) -
                             numbered_from.begin()) - 1;
  if (!numbered[file]) return std::string(ids[d]);
  return std::to_string(record_offset + record_of[d]);
}

std::vector<ReadPiece> rank_pieces(Exchange& ex, const std::vector<std::string>& paths,
                                   const std::vector<std::vector<SharePiece>>& share) {
  // The inputs cut into ranges (the same list on every rank: the share is computed alike).
  std::vector<size_t> split;
  for (const auto& pieces : share) {
    for (const auto& p : pieces) {
      if (!p.lines.whole()) split.push_back(p.input);
    }
  }
  sort_unique(split);
  auto slot = [&](size_t input) { return size_t(std::lower_bound(split.begin(), split.end(), input) - split.begin()); };
  std::vector<ReadPiece> mine;
  std::vector<uint64_t> newlines(split.size(), 0);
  for (const auto& p : share.at(size_t(ex.rank()))) {
    mine.push_back({paths.at(p.input), p.lines});
    if (!p.lines.whole()) newlines[slot(p.input)] = io::count_range_newlines(paths[p.input], p.lines);
  }
  if (split.empty()) return mine;
  const std::vector<uint64_t> before = ex.exclusive_sums(newlines);
  for (size_t k = 0; k < mine.size(); ++k) {
    const SharePiece& p = share[size_t(ex.rank())][k];
    if (!p.lines.whole()) mine[k].lines.first_line = 1 + before[slot(p.input)];
  }
  return mine;
}

RankInput read_share(const DedupJob& job, std::vector<ReadPiece> pieces, DedupMethod& method,
                     const RankMemory& memory) {
  RankInput in;
  in.pieces = std::move(pieces);
  DistributedSteps& steps = *method.distributed();
  const uint32_t P = steps.row_values();
  in.corpus.signatures.num_perm = P;
  // The sink refers to `in`: taken back when this function leaves, by a throw too.
  struct SinkGuard {
    DistributedSteps& steps;
    ~SinkGuard() { steps.send_rows_to(nullptr); }
  } sink_guard{steps};
  // The rows of each batch go after those held in memory (none once they spilled).
  steps.send_rows_to([&in, &memory, P](const uint32_t* rows, const uint32_t* set_sizes, size_t n) {
    const size_t held = in.corpus.set_sizes.size();
    in.corpus.signatures.values.resize((held + n) * P);
    std::copy_n(rows, n * P, in.corpus.signatures.values.data() + held * P);
    in.corpus.set_sizes.insert(in.corpus.set_sizes.end(), set_sizes, set_sizes + n);
    spill_if_over(in.corpus, memory);
  });
  InputBatch batch;
  uint64_t records_before = 0;
  const bool lengths = detail::compares_lengths(job.config.keep);
  for (const ReadPiece& piece : in.pieces) {
    InputOptions options = job.input;
    options.paths = {piece.path};
    options.line_range = piece.lines;
    // The reader numbers the records of this piece from 0; ids that are record numbers
    // (JSONL or Parquet without an id field, text lines) are renumbered at output (id()).
    // A folder's files each have their format: a file read as one document keeps its path.
    std::vector<uint8_t> numbered;
    for (const io::Input& file : io::resolve_inputs(options)) {
      const io::RecordFormat& f = io::record_format(file.format);
      numbered.push_back((f.lines && !f.json) || (!f.whole_file && options.id_field.empty()));
    }
    in.file_first_doc.push_back(in.record_of.size());
    auto reader = std::make_unique<RecordReader>(options);
    for (;;) {
      auto t0 = stage_clock::now();
      const bool more = reader->next(batch, job.batch_size, job.batch_max_bytes);
      in.seconds_read += seconds_since(t0);
      if (!more) break;
      t0 = stage_clock::now();
      for (size_t i = 0; i < batch.size(); ++i) {
        in.ids.add(batch.ids[i]);
        in.record_of.push_back(records_before + batch.records[i]);
        if (lengths) in.text_bytes.push_back(batch.docs.text(i).size());
      }
      method.add(batch.docs, batch.meta);
      in.seconds_sketch += seconds_since(t0);
    }
    const std::vector<InputFile> files = reader->files();
    for (size_t f = 0; f < files.size() && f < numbered.size(); ++f) {
      in.numbered_from.push_back(records_before + files[f].first_record);
      in.numbered.push_back(numbered[f]);
    }
    const InputStats& st = reader->stats();
    in.file_records.push_back(st.records);
    records_before += st.records;
    in.stats.records += st.records;
    in.stats.documents += st.documents;
    in.stats.skipped += st.skipped;
    in.stats.blank_lines += st.blank_lines;
    in.stats.bytes += st.bytes;
    in.stats.skipped_files += st.skipped_files;
    // The first reports of the share, in input order (the job keeps the first of all ranks).
    for (const auto& r : st.reports) {
      if (in.stats.reports.size() < job.input.report_limit) in.stats.reports.push_back(r);
    }
    for (const auto& r : st.file_reports) {
      if (in.stats.file_reports.size() < job.input.report_limit) in.stats.file_reports.push_back(r);
    }
    in.readers.push_back(std::move(reader));
  }
  return in;  // the guard takes the sink back before `in` moves to the caller
}

}  // namespace gpudedup::mpi

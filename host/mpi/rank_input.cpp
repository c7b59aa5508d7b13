// Reading and sketching a rank's share (rank_input.hpp). Each path has its own reader,
// so that the ids that are record numbers can be renumbered from the whole input's first
// record once the ranks before have counted theirs.
#include "host/mpi/rank_input.hpp"

#include <algorithm>

#include "host/core/stage_clock.hpp"
#include "host/io/input_list.hpp"

namespace gpudedup::mpi {

using detail::seconds_since;
using detail::stage_clock;

std::string RankInput::id(size_t d, uint64_t record_offset) const {
  const size_t file = size_t(std::upper_bound(file_first_doc.begin(), file_first_doc.end(), d) -
                             file_first_doc.begin()) - 1;
  if (!numbered_ids[file]) return std::string(ids[d]);
  return std::to_string(record_offset + record_of[d]);
}

RankInput read_share(const DedupJob& job, std::vector<std::string> paths, detail::ComputeBackend& backend) {
  RankInput in;
  in.paths = std::move(paths);
  const uint32_t P = job.config.minhash.num_perm;
  in.corpus.signatures.num_perm = P;
  InputBatch batch;
  uint64_t records_before = 0;
  for (const std::string& path : in.paths) {
    InputOptions options = job.input;
    options.paths = {path};
    // The reader numbers the records of this path from 0; ids that are record numbers
    // (JSONL without an id field, text lines) are renumbered at output (id()).
    const InputFormat format = io::resolve_inputs(options).at(0).format;
    in.numbered_ids.push_back(format == InputFormat::text ||
                              (format == InputFormat::jsonl && options.id_field.empty()));
    in.file_first_doc.push_back(in.record_of.size());
    auto reader = std::make_unique<RecordReader>(options);
    for (;;) {
      auto t0 = stage_clock::now();
      const bool more = reader->next(batch, job.batch_size, job.batch_max_bytes);
      in.seconds_read += seconds_since(t0);
      if (!more) break;
      t0 = stage_clock::now();
      const size_t first = in.record_of.size();
      for (size_t i = 0; i < batch.size(); ++i) {
        in.ids.add(batch.ids[i]);
        in.record_of.push_back(records_before + batch.records[i]);
      }
      in.corpus.signatures.values.resize((first + batch.size()) * P);
      in.corpus.set_sizes.resize(first + batch.size());
      backend.sketch(batch.docs, in.corpus.signatures.values.data() + first * P, in.corpus.set_sizes.data() + first,
                     nullptr);
      in.seconds_sketch += seconds_since(t0);
    }
    const InputStats& st = reader->stats();
    in.file_records.push_back(st.records);
    records_before += st.records;
    in.stats.records += st.records;
    in.stats.documents += st.documents;
    in.stats.skipped += st.skipped;
    in.stats.blank_lines += st.blank_lines;
    in.stats.bytes += st.bytes;
    for (const auto& r : st.reports) {
      if (in.stats.reports.size() < job.input.report_limit) in.stats.reports.push_back(r);
    }
    in.readers.push_back(std::move(reader));
  }
  return in;
}

}  // namespace gpudedup::mpi

// One kept output per input file (shard_outputs.hpp): Parquet rows as Parquet, lines
// through the sink the output's name chooses, a whole document only when it is kept.
#include "host/io/write/shard_outputs.hpp"

#include "host/io/read/file_name.hpp"
#include "host/io/write/kept_sink.hpp"

namespace gpudedup::io {

ShardOutputs::ShardOutputs(OutputSet& files, const RecordReader& reader, const std::string& dir,
                           const std::string& parameter)
    : files_(files), reader_(reader) {
  std::vector<NamedPath> named;
  std::vector<std::string> read;
  const std::string folder = dir.back() == '/' ? dir : dir + '/';
  for (const auto& f : reader.files()) {
    named.push_back({parameter, folder + output_name_for(f.relative)});
    read.push_back(f.path);
  }
  first_ = files_.add_outputs(std::move(named), read);
}

void ShardOutputs::write_kept(RecordReader& reader, const std::vector<uint8_t>& keep,
                              const std::function<KeptSink*(KeptSink*)>& wrap) {
  inputs_ = reader_.files();
  reader.write_kept(keep, [&](size_t f) {
    KeptSink* sink = start(f, keep);
    return wrap ? wrap(sink) : sink;
  });
  end();
}

KeptSink* ShardOutputs::start(size_t f, const std::vector<uint8_t>& keep) {
  end();
  const InputFile& file = inputs_.at(f);
  if (file.skipped && file.records == 0) return nullptr;  // nothing of it was read
  if (file.parquet) {  // its kept rows as Parquet, same schema: written whole here
    AtomicOutputFile& out = files_.open(first_ + f);
    reader_.write_kept_parquet(f, keep, out.stream());
    files_.close(first_ + f);
    return nullptr;
  }
  // A whole document has a file of its own only when it is kept.
  if (file.whole_document && (file.records == 0 || !keep[file.first_record])) return nullptr;
  AtomicOutputFile& out = files_.open(first_ + f);
  sink_ = make_kept_sink(out.path(), out.stream(), !file.whole_document);
  open_ = f;
  return sink_.get();
}

void ShardOutputs::end() {
  if (!sink_) return;
  sink_->finish();
  sink_.reset();
  files_.close(first_ + open_);
}

}  // namespace gpudedup::io

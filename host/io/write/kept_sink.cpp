// The line writers of kept records: plain, zstd or gzip by the output's name.
#include "host/io/write/kept_sink.hpp"

#include <algorithm>

#include "gpudedup/errors.hpp"
#include "host/io/read/file_name.hpp"
#include "host/io/compress/codecs.hpp"
#include "host/io/write/write_failure.hpp"

namespace gpudedup::io {
namespace {

/// Records straight to the stream (it is buffered already).
class PlainLines : public KeptSink {
 public:
  PlainLines(std::ostream& out, std::string name, bool newline) : out_(out), name_(std::move(name)), newline_(newline) {}
  void write(std::string_view record) override {
    out_.write(record.data(), std::streamsize(record.size()));
    if (newline_) out_.put('\n');
    if (!out_) throw data_error(write_failure(name_ + ": cannot write the kept records", errno));
  }
  void finish() override {}

 private:
  std::ostream& out_;
  std::string name_;
  bool newline_;
};

/// Records gathered into blocks before the compressor, so that it is called per block,
/// not per (often short) record.
class CompressedLines : public KeptSink {
 public:
  CompressedLines(std::unique_ptr<CompressedWriter> writer, bool newline) : writer_(std::move(writer)), newline_(newline) {
    block_.reserve(kBlockBytes);
  }
  void write(std::string_view record) override {
    block_.append(record);
    if (newline_) block_.push_back('\n');
    if (block_.size() >= kBlockBytes) flush();
  }
  void finish() override {
    flush();
    writer_->finish();
  }

 private:
  static constexpr size_t kBlockBytes = size_t(1) << 20;
  void flush() {
    writer_->write(block_.data(), block_.size());
    block_.clear();
  }
  std::unique_ptr<CompressedWriter> writer_;
  bool newline_;
  std::string block_;
};

}  // namespace

std::unique_ptr<KeptSink> make_kept_sink(const std::string& path, std::ostream& out, bool newline) {
  // By the name's suffix (any case); "-" and every other name are uncompressed.
  const Codec* codec = codec_of_name(path);
  if (codec && codec->compress) return std::make_unique<CompressedLines>(codec->compress(out, path), newline);
  return std::make_unique<PlainLines>(out, path, newline);
}

void write_kept_output(RecordReader& reader, const std::vector<uint8_t>& keep, AtomicOutputFile& file,
                       KeptFormat format) {
  if (format == KeptFormat::parquet) return reader.write_kept(keep, file.stream(), format);
  const std::unique_ptr<KeptSink> sink = make_kept_sink(file.path(), file.stream());
  reader.write_kept(keep, [&](size_t) { return sink.get(); });
  sink->finish();
}

}  // namespace gpudedup::io

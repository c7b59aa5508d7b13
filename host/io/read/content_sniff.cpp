// Magic numbers of the formats an input may hold (file(1) and each format's spec); the
// first kSniffBytes are read once and given back to the reader.
#include "host/io/read/content_sniff.hpp"

#include <cstring>
#include <string_view>

#include "gpudedup/errors.hpp"
#include "gpudedup/sketch_file.hpp"
#include "host/index/segment_format.hpp"
#include "host/io/compress/codecs.hpp"

namespace gpudedup::io {
namespace {

/// Serves a buffered head first, then the rest of the inner source.
class HeadSource : public ByteSource {
 public:
  explicit HeadSource(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)) {
    head_.resize(kSniffBytes);
    size_t got = 0;
    while (got < head_.size()) {  // a pipe gives short reads
      const size_t r = inner_->read(head_.data() + got, head_.size() - got);
      if (r == 0) break;
      got += r;
    }
    head_.resize(got);
  }
  const std::string& head() const { return head_; }
  size_t read(char* dst, size_t n) override {
    if (pos_ < head_.size()) {
      const size_t k = std::min(n, head_.size() - pos_);
      std::memcpy(dst, head_.data() + pos_, k);
      pos_ += k;
      return k;
    }
    return inner_->read(dst, n);
  }
  const std::string& name() const override { return inner_->name(); }

 private:
  std::unique_ptr<ByteSource> inner_;
  std::string head_;
  size_t pos_ = 0;
};

bool starts_with(std::string_view s, std::string_view magic) { return s.substr(0, magic.size()) == magic; }

bool refused(Content c) { return c != Content::plain && c != Content::compressed; }

[[noreturn]] void refuse(const std::string& name, Content c, std::string_view head, const std::string& inside) {
  throw usage_error(name + ": looks like " + describe(c, head) + inside +
                    ", which gpudedup cannot read; give JSONL or text files (plain, or " + readable_compressions() +
                    "), Parquet files, or folders of them" +
                    (c == Content::parquet ? " here (a Parquet file is read by columns: give the file "
                                               "itself, uncompressed, as an input path or in a folder, not "
                                               "on stdin)"
                                                             : ""));
}

}  // namespace

Content sniff(const char* head, size_t n) {
  const std::string_view s(head, std::min(n, kSniffBytes));
  if (codec_of_content(s)) return Content::compressed;
  if (starts_with(s, "PAR1")) return Content::parquet;
  if (starts_with(s, std::string_view(sketch_file_magic, sizeof sketch_file_magic))) return Content::sketch;
  if (starts_with(s, std::string_view(detail::segment_magic, sizeof detail::segment_magic))) return Content::segment;
  if (s.find('\0') != std::string_view::npos) return Content::binary;
  return Content::plain;
}

std::string describe(Content c, std::string_view head) {
  switch (c) {
    case Content::plain: return "text";
    case Content::compressed: {
      const Codec* codec = codec_of_content(head);
      return std::string(codec ? codec->name : "unknown") + "-compressed data";
    }
    case Content::parquet: return "a Parquet file";
    case Content::sketch: return "a gpudedup sketch file (written by gpudedup sketch)";
    case Content::segment: return "a gpudedup index segment";
    case Content::binary: return "binary data (NUL bytes in its first 4 KiB)";
  }
  return "unknown data";
}

std::unique_ptr<ByteSource> open_content(std::unique_ptr<ByteSource> raw) {
  const std::string name = raw->name();
  auto headed = std::make_unique<HeadSource>(std::move(raw));
  const std::string outer_head = headed->head();
  const Content outer = sniff(outer_head.data(), outer_head.size());
  if (refused(outer)) refuse(name, outer, outer_head, {});
  if (outer == Content::plain) return headed;
  const Codec& codec = *codec_of_content(outer_head);
  // What was compressed must be text too (a .tar.gz, a gzip of a Parquet file...).
  auto inner = std::make_unique<HeadSource>(codec.decompress(std::move(headed)));
  const Content c = sniff(inner->head().data(), inner->head().size());
  if (c != Content::plain) refuse(name, c, inner->head(), std::string(" inside ") + codec.name);
  return inner;
}

Content check_file_content(const std::string& path) {
  HeadSource headed(open_file_source(path));
  const Content c = sniff(headed.head().data(), headed.head().size());
  if (refused(c) && c != Content::parquet) refuse(path, c, headed.head(), {});  // a Parquet file given by path is read
  return c;
}

}  // namespace gpudedup::io

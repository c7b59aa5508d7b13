// One row per compression format (codecs.hpp); magic numbers from each format's spec.
#include "host/io/compress/codecs.hpp"

#include "host/io/compress/bzip2_source.hpp"
#include "host/io/compress/gzip_source.hpp"
#include "host/io/compress/xz_source.hpp"
#include "host/io/compress/zstd_source.hpp"
#include "host/io/read/file_name.hpp"

namespace gpudedup::io {
namespace {

bool starts_with(std::string_view s, std::string_view magic) { return s.substr(0, magic.size()) == magic; }

const Codec kCodecs[] = {
    {"zstd", ".zst", [](std::string_view h) { return starts_with(h, std::string_view("\x28\xB5\x2F\xFD", 4)); },
     make_zstd_source, make_zstd_writer},
    {"gzip", ".gz", [](std::string_view h) { return starts_with(h, std::string_view("\x1F\x8B", 2)); },
     make_gzip_source, make_gzip_writer},
    // "BZh" and the block size, 1 to 9.
    {"bzip2", ".bz2", [](std::string_view h) { return starts_with(h, "BZh") && h.size() > 3 && h[3] >= '1' && h[3] <= '9'; },
     make_bzip2_source, nullptr},
    {"xz", ".xz", [](std::string_view h) { return starts_with(h, std::string_view("\xFD" "7zXZ\x00", 6)); },
     make_xz_source, nullptr},
};

}  // namespace

std::vector<const Codec*> all_codecs() {
  std::vector<const Codec*> all;
  for (const Codec& c : kCodecs) all.push_back(&c);
  return all;
}

const Codec* codec_of_content(std::string_view head) {
  for (const Codec& c : kCodecs)
    if (c.starts(head)) return &c;
  return nullptr;
}

const Codec* codec_of_name(const std::string& path) {
  for (const Codec& c : kCodecs)
    if (ends_with_ci(path, c.suffix)) return &c;
  return nullptr;
}

const Codec& default_output_codec() { return kCodecs[0]; }

std::string readable_compressions() {
  std::string s;
  const size_t n = std::size(kCodecs);
  for (size_t i = 0; i < n; ++i) {
    s += kCodecs[i].name;
    s += i + 1 == n ? "-compressed" : i + 2 == n ? "- or " : "-, ";
  }
  return s;
}

}  // namespace gpudedup::io

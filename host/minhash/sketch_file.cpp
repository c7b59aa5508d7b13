// Sketch file: little-endian, fixed 64-byte header, then records
//   u32 id length, id bytes, num_perm x u32 values.
#include "gpudedup/sketch_file.hpp"

#include <cstring>
#include <fstream>

#include "gpudedup/detail/xxhash64.hpp"
#include "gpudedup/errors.hpp"
#include "host/shingle/shingling.hpp"

namespace gpudedup {
namespace {

constexpr size_t header_bytes = 64;

template <class T>
void put(std::string& buf, T v) {
  for (size_t i = 0; i < sizeof(T); ++i) buf.push_back(char(uint64_t(v) >> (8 * i) & 0xFF));
}

template <class T>
T get(const unsigned char* p) {
  uint64_t v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= uint64_t(p[i]) << (8 * i);
  return T(v);
}

}  // namespace

SketchHeader SketchHeader::from_config(const Config& c) {
  SketchHeader h;
  h.num_perm = c.minhash.num_perm;
  h.seed = c.seed;
  h.shingle = c.shingle.kind;
  h.ngram = c.shingle.ngram;
  h.remove_stop_words = c.shingle.remove_stop_words;
  h.stop_word_anchored = c.shingle.stop_word_anchored;
  h.normalize = c.shingle.normalize;
  h.tokenizer = c.shingle.tokenizer;
  const auto spec = detail::make_shingle_spec(c.shingle);
  if (!spec.stop_word_hashes.empty() && (h.remove_stop_words || h.stop_word_anchored)) {
    h.stop_words_hash = detail::xxhash64_u64(spec.stop_word_hashes.data(), spec.stop_word_hashes.size());
  }
  return h;
}

void write_sketch_header(std::ostream& out, const SketchHeader& h) {
  std::string buf(sketch_file_magic, sizeof sketch_file_magic);
  put<uint32_t>(buf, h.version);
  put<uint32_t>(buf, h.num_perm);
  put<uint64_t>(buf, h.seed);
  put<uint8_t>(buf, h.shingle == ShingleKind::words ? 1 : 0);
  put<uint8_t>(buf, uint8_t((h.remove_stop_words ? 1 : 0) | (h.stop_word_anchored ? 2 : 0)));
  put<uint8_t>(buf, uint8_t(uint8_t(h.normalize.case_fold) | (h.normalize.nfkc ? 4 : 0) |
                            (h.normalize.remove_punctuation ? 8 : 0)));
  put<uint8_t>(buf, uint8_t(h.tokenizer));
  put<uint32_t>(buf, h.ngram);
  put<uint64_t>(buf, h.stop_words_hash);
  put<uint64_t>(buf, h.documents);
  buf.resize(header_bytes, '\0');
  out.write(buf.data(), std::streamsize(buf.size()));
}

void write_sketch_record(std::ostream& out, const std::string& id, const uint32_t* values, uint32_t num_perm) {
  std::string buf;
  buf.reserve(4 + id.size() + 4 * size_t(num_perm));
  put<uint32_t>(buf, uint32_t(id.size()));
  buf += id;
  for (uint32_t i = 0; i < num_perm; ++i) put<uint32_t>(buf, values[i]);
  out.write(buf.data(), std::streamsize(buf.size()));
}

SketchHeader read_sketch_file(const std::string& path, std::vector<SketchRecord>* records) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw data_error(path + ": cannot open the sketch file");
  unsigned char hb[header_bytes];
  if (!in.read(reinterpret_cast<char*>(hb), header_bytes) || std::memcmp(hb, sketch_file_magic, 8) != 0) {
    throw data_error(path + ": not a gpudedup sketch file (bad magic or shorter than its header)");
  }
  SketchHeader h;
  h.version = get<uint32_t>(hb + 8);
  if (h.version != sketch_file_version && h.version != 2) {
    throw data_error(path + ": sketch file version " + std::to_string(h.version) + ", this program reads " +
                     std::to_string(sketch_file_version));
  }
  h.num_perm = get<uint32_t>(hb + 12);
  if (h.num_perm < 1 || h.num_perm > 4096) {
    throw data_error(path + ": corrupt sketch file header (P = " + std::to_string(h.num_perm) + ", expected 1..4096)");
  }
  h.seed = get<uint64_t>(hb + 16);
  h.shingle = hb[24] ? ShingleKind::words : ShingleKind::chars;
  h.remove_stop_words = hb[25] & 1;
  h.stop_word_anchored = hb[25] & 2;
  if (h.version == 2) {  // before the normalization was recorded: ASCII-only folding
    h.normalize.case_fold = CaseFold::ascii;
  } else {
    if ((hb[26] & 3) > uint8_t(CaseFold::simple) || (hb[26] & 0xF0) || hb[27] > uint8_t(Tokenizer::icu)) {
      throw data_error(path + ": corrupt sketch file header (unknown normalization or tokenizer)");
    }
    h.normalize.case_fold = CaseFold(hb[26] & 3);
    h.normalize.nfkc = hb[26] & 4;
    h.normalize.remove_punctuation = hb[26] & 8;
    h.tokenizer = Tokenizer(hb[27]);
  }
  h.ngram = get<uint32_t>(hb + 28);
  h.stop_words_hash = get<uint64_t>(hb + 32);
  h.documents = get<uint64_t>(hb + 40);
  if (!records) return h;
  records->clear();
  std::vector<unsigned char> buf(4 * size_t(h.num_perm));
  for (uint64_t d = 0; d < h.documents; ++d) {
    unsigned char len[4];
    SketchRecord rec;
    if (!in.read(reinterpret_cast<char*>(len), 4)) throw data_error(path + ": truncated at record " + std::to_string(d));
    const uint32_t id_len = get<uint32_t>(len);
    if (id_len > (1u << 20)) {
      throw data_error(path + ": corrupt record " + std::to_string(d) + " (id of " + std::to_string(id_len) + " bytes)");
    }
    rec.id.resize(id_len);
    if (!in.read(rec.id.data(), std::streamsize(rec.id.size())) ||
        !in.read(reinterpret_cast<char*>(buf.data()), std::streamsize(buf.size()))) {
      throw data_error(path + ": truncated at record " + std::to_string(d));
    }
    rec.values.resize(h.num_perm);
    for (uint32_t i = 0; i < h.num_perm; ++i) rec.values[i] = get<uint32_t>(buf.data() + 4 * i);
    records->push_back(std::move(rec));
  }
  return h;
}

}  // namespace gpudedup

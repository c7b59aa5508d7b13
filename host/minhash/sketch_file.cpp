// Sketch file: little-endian, fixed 64-byte header (byte 25: stop-word flags, from version 5
// the MinHash family in bit 2), the shard name, from version 4 the input
// table (per input: u32 path length, path bytes, u64 records, u8 checksum known, u64
// checksum), then records
//   u32 id length, id bytes, u64 record, u64 text bytes, u32 set size, num_perm x u32 values.
#include "gpudedup/sketch_file.hpp"

#include <cstring>
#include <fstream>
#include <memory>

#include "gpudedup/detail/xxhash64.hpp"
#include "gpudedup/errors.hpp"
#include "host/shingle/shingling.hpp"

namespace gpudedup {
namespace {

constexpr size_t header_bytes = 64;
constexpr uint32_t max_name_bytes = 1u << 20;  // ids and shard names; more is a corrupt file
constexpr size_t record_fixed_bytes = 20;       // record number, text bytes, set size
constexpr size_t input_fixed_bytes = 17;        // records, checksum known, checksum

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
  h.family = c.minhash.family;
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
  if (h.version < 5 && h.family != SketchFamily::classic) {
    throw usage_error("a sketch file of version " + std::to_string(h.version) +
                      " cannot record --sketch " + to_string(h.family) + ": write version 5 or later");
  }
  std::string buf(sketch_file_magic, sizeof sketch_file_magic);
  put<uint32_t>(buf, h.version);
  put<uint32_t>(buf, h.num_perm);
  put<uint64_t>(buf, h.seed);
  put<uint8_t>(buf, h.shingle == ShingleKind::words ? 1 : 0);
  put<uint8_t>(buf, uint8_t((h.remove_stop_words ? 1 : 0) | (h.stop_word_anchored ? 2 : 0) |
                            (h.family == SketchFamily::oph ? 4 : h.family == SketchFamily::fss ? 8 : 0)));
  put<uint8_t>(buf, uint8_t(uint8_t(h.normalize.case_fold) | (h.normalize.nfkc ? 4 : 0) |
                            (h.normalize.remove_punctuation ? 8 : 0) | (h.ids_are_record_numbers ? 16 : 0)));
  put<uint8_t>(buf, uint8_t(h.tokenizer));
  put<uint32_t>(buf, h.ngram);
  put<uint64_t>(buf, h.stop_words_hash);
  put<uint64_t>(buf, h.documents);
  put<uint64_t>(buf, h.records);
  put<uint32_t>(buf, uint32_t(h.shard.size()));
  const bool table = h.version >= 4;
  if (table) put<uint32_t>(buf, uint32_t(h.inputs.size()));
  buf.resize(header_bytes, '\0');
  buf += h.shard;
  for (size_t i = 0; table && i < h.inputs.size(); ++i) {
    const SketchInput& in = h.inputs[i];
    put<uint32_t>(buf, uint32_t(in.path.size()));
    buf += in.path;
    put<uint64_t>(buf, in.records);
    put<uint8_t>(buf, in.checksum ? 1 : 0);
    put<uint64_t>(buf, in.checksum.value_or(0));
  }
  out.write(buf.data(), std::streamsize(buf.size()));
}

void write_sketch_record(std::ostream& out, const SketchRecord& where, const uint32_t* values, uint32_t num_perm) {
  std::string buf;
  buf.reserve(24 + where.id.size() + 4 * size_t(num_perm));
  put<uint32_t>(buf, uint32_t(where.id.size()));
  buf += where.id;
  put<uint64_t>(buf, where.record);
  put<uint64_t>(buf, where.text_bytes);
  put<uint32_t>(buf, where.set_size);
  for (uint32_t i = 0; i < num_perm; ++i) put<uint32_t>(buf, values[i]);
  out.write(buf.data(), std::streamsize(buf.size()));
}

struct SketchFileReader::Impl {
  std::string path;
  std::ifstream in;
  SketchHeader h;
  uint64_t read = 0;  // records read so far
  std::vector<unsigned char> buf;

  [[noreturn]] void corrupt(const std::string& what) const {
    throw data_error(path + ": " + what + " at record " + std::to_string(read) +
                     " (a truncated or damaged sketch file: run gpudedup sketch on its shard again)");
  }
};

SketchFileReader::SketchFileReader(const std::string& path) : impl_(std::make_unique<Impl>()) {
  auto& s = *impl_;
  s.path = path;
  s.in.open(path, std::ios::binary);
  std::ifstream& in = s.in;
  SketchHeader& h = s.h;
  if (!in) throw data_error(path + ": cannot open the sketch file");
  unsigned char hb[header_bytes];
  if (!in.read(reinterpret_cast<char*>(hb), header_bytes) || std::memcmp(hb, sketch_file_magic, 8) != 0) {
    throw data_error(path + ": not a gpudedup sketch file (bad magic or shorter than its header)");
  }
  h.version = get<uint32_t>(hb + 8);
  if (h.version < sketch_file_oldest_version || h.version > sketch_file_version) {
    throw data_error(path + ": sketch file version " + std::to_string(h.version) + ", this program reads " +
                     std::to_string(sketch_file_oldest_version) + " to " + std::to_string(sketch_file_version) +
                     ": run this gpudedup sketch on its shard again");
  }
  h.num_perm = get<uint32_t>(hb + 12);
  if (h.num_perm < 1 || h.num_perm > 4096) {
    throw data_error(path + ": corrupt sketch file header (P = " + std::to_string(h.num_perm) + ", expected 1..4096)");
  }
  h.seed = get<uint64_t>(hb + 16);
  h.shingle = hb[24] ? ShingleKind::words : ShingleKind::chars;
  h.remove_stop_words = hb[25] & 1;
  h.stop_word_anchored = hb[25] & 2;
  // Bits 2-3 of byte 25: 0 classic, 1 oph, 2 fss (3 is unknown, refused below).
  const uint32_t family_bits = (hb[25] >> 2) & 3;
  if (h.version >= 5) {
    h.family = family_bits == 2 ? SketchFamily::fss : family_bits == 1 ? SketchFamily::oph : SketchFamily::classic;
  }
  if (hb[25] & (h.version >= 5 ? 0xF0 : 0xFC) || (h.version >= 5 && family_bits == 3)) {
    throw data_error(path + ": corrupt sketch file header (unknown stop-word or MinHash family flags)");
  }
  if ((hb[26] & 3) > uint8_t(CaseFold::simple) || (hb[26] & 0xE0) || hb[27] > uint8_t(Tokenizer::icu)) {
    throw data_error(path + ": corrupt sketch file header (unknown normalization or tokenizer)");
  }
  h.normalize.case_fold = CaseFold(hb[26] & 3);
  h.normalize.nfkc = hb[26] & 4;
  h.normalize.remove_punctuation = hb[26] & 8;
  h.ids_are_record_numbers = hb[26] & 16;
  h.tokenizer = Tokenizer(hb[27]);
  h.ngram = get<uint32_t>(hb + 28);
  h.stop_words_hash = get<uint64_t>(hb + 32);
  h.documents = get<uint64_t>(hb + 40);
  h.records = get<uint64_t>(hb + 48);
  const uint32_t shard_len = get<uint32_t>(hb + 56);
  if (shard_len > max_name_bytes || h.documents > h.records) {
    throw data_error(path + ": corrupt sketch file header (shard name of " + std::to_string(shard_len) + " bytes, " +
                     std::to_string(h.documents) + " documents in " + std::to_string(h.records) + " records)");
  }
  h.shard.resize(shard_len);
  if (!in.read(h.shard.data(), std::streamsize(shard_len))) throw data_error(path + ": truncated in its shard name");
  // Read entry by entry: a corrupt count ends at the end of the file, not in a huge allocation.
  const uint32_t input_count = h.version >= 4 ? get<uint32_t>(hb + 60) : 0;
  for (uint32_t i = 0; i < input_count; ++i) {
    unsigned char len[4], fixed[input_fixed_bytes];
    SketchInput input;
    if (!in.read(reinterpret_cast<char*>(len), 4) || get<uint32_t>(len) > max_name_bytes) {
      throw data_error(path + ": truncated or corrupt in its input table (input " + std::to_string(i) + ")");
    }
    input.path.resize(get<uint32_t>(len));
    if (!in.read(input.path.data(), std::streamsize(input.path.size())) ||
        !in.read(reinterpret_cast<char*>(fixed), input_fixed_bytes) || fixed[8] > 1) {
      throw data_error(path + ": truncated or corrupt in its input table (input " + std::to_string(i) + ")");
    }
    input.records = get<uint64_t>(fixed);
    if (fixed[8]) input.checksum = get<uint64_t>(fixed + 9);
    h.inputs.push_back(std::move(input));
  }
  s.buf.resize(record_fixed_bytes + 4 * size_t(h.num_perm));
}

SketchFileReader::~SketchFileReader() = default;

const SketchHeader& SketchFileReader::header() const { return impl_->h; }

bool SketchFileReader::next(SketchRecord& rec) {
  auto& s = *impl_;
  if (s.read == s.h.documents) return false;
  unsigned char len[4];
  if (!s.in.read(reinterpret_cast<char*>(len), 4)) s.corrupt("end of file");
  const uint32_t id_len = get<uint32_t>(len);
  if (id_len > max_name_bytes) s.corrupt("an id of " + std::to_string(id_len) + " bytes");
  rec.id.resize(id_len);
  if (!s.in.read(rec.id.data(), std::streamsize(rec.id.size())) ||
      !s.in.read(reinterpret_cast<char*>(s.buf.data()), std::streamsize(s.buf.size()))) {
    s.corrupt("end of file");
  }
  rec.record = get<uint64_t>(s.buf.data());
  rec.text_bytes = get<uint64_t>(s.buf.data() + 8);
  rec.set_size = get<uint32_t>(s.buf.data() + 16);
  if (rec.record >= s.h.records) {
    s.corrupt("record number " + std::to_string(rec.record) + " past the file's " + std::to_string(s.h.records) +
              " records");
  }
  rec.values.resize(s.h.num_perm);
  for (uint32_t i = 0; i < s.h.num_perm; ++i) rec.values[i] = get<uint32_t>(s.buf.data() + record_fixed_bytes + 4 * i);
  ++s.read;
  return true;
}

SketchHeader read_sketch_file(const std::string& path, std::vector<SketchRecord>* records) {
  SketchFileReader reader(path);
  if (records) {
    records->clear();
    for (SketchRecord rec; reader.next(rec);) records->push_back(rec);
  }
  return reader.header();
}

}  // namespace gpudedup

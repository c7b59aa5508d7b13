#include "host/index/manifest.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "gpudedup/detail/shingle.hpp"
#include "gpudedup/detail/xxhash64.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/sketch_file.hpp"

namespace gpudedup::detail {
namespace {

constexpr const char* magic_line = "gpudedup-index";

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

NormalizeConfig legacy_normalize() {
  NormalizeConfig c;
  c.case_fold = CaseFold::ascii;
  return c;
}

// The parameters as "key value" lines, in a fixed order: both the manifest text and the
// hash stamped into segments come from this one encoding.
std::string encode_params(const IndexParams& p) {
  std::ostringstream s;
  char threshold[32];
  std::snprintf(threshold, sizeof threshold, "%.17g", p.threshold);
  s << "num_perm " << p.num_perm << "\n"
    << "seed " << p.seed << "\n"
    << "shingle " << to_string(p.shingle) << "\n"
    << "ngram " << p.ngram << "\n"
    << "remove_stop_words " << (p.remove_stop_words ? 1 : 0) << "\n"
    << "stop_word_anchored " << (p.stop_word_anchored ? 1 : 0) << "\n"
    << "stop_words_hash " << hex64(p.stop_words_hash) << "\n";
  // An index made before normalization was recorded has no such lines and means ASCII
  // folding and simple tokens: those settings are still written that way, so its
  // manifest and segment stamps stay valid.
  if (p.normalize != legacy_normalize()) s << "normalize " << to_string(p.normalize) << "\n";
  if (p.tokenizer != Tokenizer::simple) s << "tokenizer " << to_string(p.tokenizer) << "\n";
  // Likewise an index made before the MinHash family was recorded is classic; an older
  // program refuses a manifest with this line (unexpected content) instead of mixing.
  if (p.family != SketchFamily::classic) s << "sketch " << to_string(p.family) << "\n";
  s
    << "bands " << p.bands << "\n"
    << "rows " << p.rows << "\n"
    << "threshold " << threshold << "\n"
    << "similarity " << to_string(p.similarity) << "\n";
  return s.str();
}

[[noreturn]] void corrupt(const std::string& path, const std::string& what) {
  throw data_error("index manifest " + path + " is corrupted (" + what +
                   "): restore the index folder from a backup or rebuild it");
}

uint64_t parse_u64(const std::string& v, const std::string& path, const std::string& key, int base = 10) {
  try {
    size_t used = 0;
    const uint64_t x = std::stoull(v, &used, base);
    if (used != v.size()) corrupt(path, "bad value for " + key);
    return x;
  } catch (const std::logic_error&) {
    corrupt(path, "bad value for " + key);
  }
}

/// Each parameter in the range the index can work with. Out of range means the file is
/// damaged, not that the user gave a bad option: reported as corruption, in the
/// manifest's own words.
void check_params(const IndexParams& p, const std::string& path) {
  auto range = [&](bool ok, const std::string& key, const std::string& value, const char* want) {
    if (!ok) corrupt(path, key + " " + value + " is out of range (" + want + ")");
  };
  range(p.num_perm >= 1 && p.num_perm <= 4096, "num_perm", std::to_string(p.num_perm), "1..4096");
  range(p.ngram >= 1 && p.ngram <= max_ngram, "ngram", std::to_string(p.ngram),
        ("1.." + std::to_string(max_ngram)).c_str());
  range(p.bands >= 1 && p.rows >= 1 && uint64_t(p.bands) * p.rows <= p.num_perm, "bands x rows",
        std::to_string(p.bands) + " x " + std::to_string(p.rows), "each >= 1, their product <= num_perm");
  range(std::isfinite(p.threshold) && p.threshold > 0 && p.threshold <= 1, "threshold", std::to_string(p.threshold),
        "(0, 1]");
  range(p.shingle == ShingleKind::words || (!p.remove_stop_words && !p.stop_word_anchored && p.stop_words_hash == 0),
        "stop words", "with char shingles", "word shingles only");
}

/// Segment numbers as data: each name spelled as the index spells it, numbers distinct
/// and below next_segment, which the next write takes.
void check_segments(const Manifest& m, const std::string& path) {
  if (m.next_segment == 0) corrupt(path, "next_segment 0");
  std::set<uint64_t> seen;
  for (const auto& seg : m.segments) {
    const uint64_t number = segment_number(seg.file);
    if (number == 0) corrupt(path, "bad segment name '" + seg.file + "'");
    if (!seen.insert(number).second) corrupt(path, "segment " + std::to_string(number) + " is listed twice");
    if (number >= m.next_segment) {
      corrupt(path, "segment " + seg.file + " is not below next_segment " + std::to_string(m.next_segment) +
                        ": a write would replace it");
    }
  }
}

}  // namespace

std::string segment_name(uint64_t number) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "seg-%08llu.gds", static_cast<unsigned long long>(number));
  return buf;
}

uint64_t segment_number(const std::string& name) {
  const size_t digits = name.size() < 8 ? 0 : name.size() - 8;  // "seg-" and ".gds"
  if (digits < 8 || digits > 19 || name.rfind("seg-", 0) != 0 || name.compare(name.size() - 4, 4, ".gds") != 0 ||
      name.find_first_not_of("0123456789", 4) != name.size() - 4) {
    return 0;
  }
  const uint64_t number = std::stoull(name.substr(4, digits));
  return segment_name(number) == name ? number : 0;
}

IndexParams IndexParams::from_config(const Config& c, const LshParams& lsh) {
  IndexParams p;
  static_cast<SketchHeader&>(p) = SketchHeader::from_config(c);
  p.bands = lsh.bands;
  p.rows = lsh.rows;
  p.threshold = c.threshold;
  p.similarity = c.similarity;
  return p;
}

uint64_t IndexParams::hash() const {
  // The verification defaults (threshold, similarity) may be overridden at open time and
  // do not change what a segment holds: they stay out of the hash.
  IndexParams identity = *this;
  identity.threshold = 0;
  identity.similarity = Similarity::jaccard;
  const std::string text = encode_params(identity);
  return xxhash64(reinterpret_cast<const uint8_t*>(text.data()), text.size(), 0);
}

uint64_t Manifest::documents() const {
  uint64_t n = 0;
  for (const auto& s : segments) n += s.documents;
  return n;
}

std::string encode_manifest(const Manifest& m) {
  std::ostringstream s;
  s << magic_line << " " << index_format_version << "\n" << encode_params(m.params)
    << "generation " << m.generation << "\n"
    << "next_segment " << m.next_segment << "\n";
  if (m.first_document != 0) s << "first_document " << m.first_document << "\n";
  for (const auto& seg : m.segments) {
    s << "segment " << seg.file << " " << seg.documents << " " << seg.bytes << " " << hex64(seg.header_checksum)
      << "\n";
  }
  std::string body = s.str();
  const uint64_t sum = xxhash64(reinterpret_cast<const uint8_t*>(body.data()), body.size(), 0);
  return body + "checksum " + hex64(sum) + "\n";
}

Manifest decode_manifest(const std::string& text, const std::string& path) {
  if (text.compare(0, std::string(magic_line).size() + 1, std::string(magic_line) + " ") != 0) {
    throw data_error(path + " is not a gpudedup index manifest: the folder holds something else");
  }
  const auto sum_at = text.rfind("checksum ");
  if (sum_at == std::string::npos || text.back() != '\n') corrupt(path, "no checksum line: truncated");
  const uint64_t want = parse_u64(text.substr(sum_at + 9, text.size() - sum_at - 10), path, "checksum", 16);
  if (xxhash64(reinterpret_cast<const uint8_t*>(text.data()), sum_at, 0) != want) {
    corrupt(path, "checksum mismatch");
  }
  std::istringstream in(text.substr(0, sum_at));
  std::string line;
  std::getline(in, line);
  const uint64_t version = parse_u64(line.substr(std::string(magic_line).size() + 1), path, "version");
  if (version != index_format_version) {
    throw data_error("index " + path + " has format version " + std::to_string(version) +
                     "; this gpudedup reads version " + std::to_string(index_format_version) +
                     ": use the gpudedup that wrote it, or rebuild the index");
  }
  Manifest m;
  std::map<std::string, std::string> kv;
  while (std::getline(in, line)) {
    const auto sp = line.find(' ');
    if (sp == std::string::npos) corrupt(path, "bad line '" + line + "'");
    const std::string key = line.substr(0, sp), value = line.substr(sp + 1);
    if (key == "segment") {
      std::istringstream f(value);
      ManifestSegment seg;
      std::string sum;
      if (!(f >> seg.file >> seg.documents >> seg.bytes >> sum)) corrupt(path, "bad segment line");
      seg.header_checksum = parse_u64(sum, path, "segment checksum", 16);
      m.segments.push_back(seg);
    } else {
      kv[key] = value;
    }
  }
  auto need = [&](const char* key) -> const std::string& {
    auto it = kv.find(key);
    if (it == kv.end()) corrupt(path, std::string("no ") + key);
    return it->second;
  };
  IndexParams& p = m.params;
  p.num_perm = uint32_t(parse_u64(need("num_perm"), path, "num_perm"));
  p.seed = parse_u64(need("seed"), path, "seed");
  p.shingle = need("shingle") == "word" ? ShingleKind::words : ShingleKind::chars;
  p.ngram = uint32_t(parse_u64(need("ngram"), path, "ngram"));
  p.remove_stop_words = need("remove_stop_words") == "1";
  p.stop_word_anchored = need("stop_word_anchored") == "1";
  p.stop_words_hash = parse_u64(need("stop_words_hash"), path, "stop_words_hash", 16);
  p.normalize = legacy_normalize();
  if (auto it = kv.find("normalize"); it != kv.end()) {
    const auto n = parse_normalize(it->second);
    if (!n) corrupt(path, "bad value for normalize");
    p.normalize = *n;
  }
  if (auto it = kv.find("tokenizer"); it != kv.end()) {
    const auto t = from_string<Tokenizer>(it->second);
    if (!t) corrupt(path, "bad value for tokenizer");
    p.tokenizer = *t;
  }
  if (auto it = kv.find("sketch"); it != kv.end()) {
    const auto f = from_string<SketchFamily>(it->second);
    if (!f) corrupt(path, "bad value for sketch");
    p.family = *f;
  }
  p.bands = uint32_t(parse_u64(need("bands"), path, "bands"));
  p.rows = uint32_t(parse_u64(need("rows"), path, "rows"));
  p.threshold = std::strtod(need("threshold").c_str(), nullptr);
  p.similarity = need("similarity") == "containment" ? Similarity::containment : Similarity::jaccard;
  m.generation = parse_u64(need("generation"), path, "generation");
  m.next_segment = parse_u64(need("next_segment"), path, "next_segment");
  if (auto it = kv.find("first_document"); it != kv.end()) {
    m.first_document = parse_u64(it->second, path, "first_document");
  }
  if (encode_manifest(m) != text) corrupt(path, "unexpected content");
  check_params(p, path);
  check_segments(m, path);
  return m;
}

std::string describe_param_mismatch(const IndexParams& s, const IndexParams& g) {
  std::ostringstream out;
  auto check = [&](bool differ, const char* option, const std::string& stored, const std::string& given) {
    if (differ) out << option << ": the index has " << stored << ", you gave " << given << "\n";
  };
  check(s.num_perm != g.num_perm, "`minhash.num_perm`", std::to_string(s.num_perm), std::to_string(g.num_perm));
  check(s.seed != g.seed, "`seed`", std::to_string(s.seed), std::to_string(g.seed));
  check(s.shingle != g.shingle, "`shingle.kind`", to_string(s.shingle), to_string(g.shingle));
  check(s.ngram != g.ngram, "`shingle.ngram`", std::to_string(s.ngram), std::to_string(g.ngram));
  check(s.remove_stop_words != g.remove_stop_words || s.stop_word_anchored != g.stop_word_anchored ||
            s.stop_words_hash != g.stop_words_hash,
        "`shingle.stop_words`/`shingle.stop_word_anchored`", "stop words " + hex64(s.stop_words_hash),
        "stop words " + hex64(g.stop_words_hash));
  check(s.normalize != g.normalize, "`shingle.normalize`", to_string(s.normalize), to_string(g.normalize));
  check(s.tokenizer != g.tokenizer, "`shingle.tokenizer`", to_string(s.tokenizer), to_string(g.tokenizer));
  check(s.family != g.family, "`minhash.family`", to_string(s.family), to_string(g.family));
  check(s.bands != g.bands || s.rows != g.rows, "`lsh.bands`/`lsh.rows`",
        std::to_string(s.bands) + "x" + std::to_string(s.rows), std::to_string(g.bands) + "x" + std::to_string(g.rows));
  return out.str();
}

}  // namespace gpudedup::detail

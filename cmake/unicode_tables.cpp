// Writes the Unicode tables of detail/unicode_tables.hpp at build time, from ICU (the
// Debian libicu-dev the build already links): for every code point its simple case
// folding (CaseFolding.txt status C+S, u_foldCase) and whether its general category is
// punctuation (P*). Output: a header of array initializers in a two-stage layout
// (block index per 256 code points, then shared blocks of value indices), small enough
// to copy to the device.
//
// One adjustment keeps normalization in place (the output never longer than the input,
// which both backends rely on): where a folding target is longer in UTF-8 than another
// member of its case class (U+023A Ⱥ folds to U+2C65 ⱥ, 2 -> 3 bytes), the whole class
// maps to its shortest member instead. The classes are the same, so matching is not
// changed; the generated file lists every such class.
#include <unicode/uchar.h>
#include <unicode/uversion.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <vector>

namespace {

constexpr uint32_t code_points = 0x110000;
constexpr uint32_t block_shift = 8;
constexpr uint32_t block_size = 1u << block_shift;

uint32_t utf8_length(uint32_t c) { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; }

template <class T>
void write_list(std::ofstream& out, const char* name, const std::vector<T>& v) {
  out << "#define " << name << " \\\n ";
  for (size_t i = 0; i < v.size(); ++i) {
    out << ' ' << int64_t(v[i]) << (i + 1 < v.size() ? "," : "");
    if (i % 24 == 23 && i + 1 < v.size()) out << " \\\n ";
  }
  out << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_HEADER\n", argv[0]);
    return 2;
  }
  // Simple folding, then the case classes whose target is not their shortest member.
  std::vector<uint32_t> fold(code_points);
  std::map<uint32_t, std::vector<uint32_t>> classes;  // target -> members
  for (uint32_t c = 0; c < code_points; ++c) {
    fold[c] = uint32_t(u_foldCase(UChar32(c), U_FOLD_CASE_DEFAULT));
    if (fold[c] != c) classes[fold[c]].push_back(c);
  }
  std::vector<uint32_t> adjusted;
  for (auto& [target, members] : classes) {
    uint32_t shortest = target;
    for (uint32_t m : members)
      if (utf8_length(m) < utf8_length(shortest)) shortest = m;
    if (shortest == target) continue;
    adjusted.push_back(target);
    fold[target] = shortest;
    for (uint32_t m : members) fold[m] = shortest;
  }
  // Values: (fold delta, punctuation) pairs, indexed by one byte.
  std::map<std::pair<int32_t, int>, uint8_t> value_index;
  std::vector<int32_t> deltas;
  std::vector<uint8_t> punct;
  std::vector<uint8_t> per_cp(code_points);
  for (uint32_t c = 0; c < code_points; ++c) {
    const int32_t delta = int32_t(fold[c]) - int32_t(c);
    const int p = (U_GET_GC_MASK(UChar32(c)) & U_GC_P_MASK) ? 1 : 0;
    auto [it, fresh] = value_index.try_emplace({delta, p}, uint8_t(deltas.size()));
    if (fresh) {
      if (deltas.size() == 256) {
        std::fprintf(stderr, "unicode_tables: more than 256 distinct values\n");
        return 1;
      }
      deltas.push_back(delta);
      punct.push_back(uint8_t(p));
    }
    per_cp[c] = it->second;
  }
  // Stage 2: distinct blocks; stage 1: block index of every block of code points.
  std::map<std::vector<uint8_t>, uint16_t> block_index;
  std::vector<uint8_t> stage2;
  std::vector<uint16_t> stage1;
  for (uint32_t b = 0; b < code_points / block_size; ++b) {
    std::vector<uint8_t> block(per_cp.begin() + b * block_size, per_cp.begin() + (b + 1) * block_size);
    auto [it, fresh] = block_index.try_emplace(block, uint16_t(block_index.size()));
    if (fresh) stage2.insert(stage2.end(), block.begin(), block.end());
    stage1.push_back(it->second);
  }
  for (uint32_t c = 0; c < code_points; ++c) {  // the layout reads back what was computed
    const uint8_t v = stage2[size_t(stage1[c >> block_shift]) * block_size + (c & (block_size - 1))];
    if (uint32_t(int32_t(c) + deltas[v]) != fold[c]) return 1;
  }
  std::ofstream out(argv[1]);
  out << "// Generated at build time by cmake/unicode_tables.cpp from ICU " << U_ICU_VERSION << " (Unicode "
      << U_UNICODE_VERSION << "); do not edit.\n"
      << "// Stage 1: " << stage1.size() << " blocks of " << block_size << " code points; stage 2: "
      << block_index.size() << " distinct blocks; " << deltas.size() << " distinct values.\n"
      << "// Case classes mapped to their shortest member instead of their CaseFolding target:";
  for (uint32_t t : adjusted) {
    char buf[16];
    std::snprintf(buf, sizeof buf, " U+%04X", t);
    out << buf;
  }
  out << "\n#define GD_UNICODE_VERSION \"" << U_UNICODE_VERSION << "\"\n"
      << "#define GD_UNICODE_BLOCK_SHIFT " << block_shift << "\n";
  write_list(out, "GD_UNICODE_STAGE1", stage1);
  write_list(out, "GD_UNICODE_STAGE2", stage2);
  write_list(out, "GD_UNICODE_FOLD_DELTA", deltas);
  write_list(out, "GD_UNICODE_PUNCTUATION", punct);
  return out ? 0 : 1;
}

// Ranks compared before any work (same_launch.hpp).
#include "host/mpi/same_launch.hpp"

#include <cstdint>

#include "gpudedup/detail/xxhash64.hpp"

namespace gpudedup::mpi {
namespace {

// The canonical text: each setting its name, '1' or '0' (given), its value, NULs between.
std::string canonical(const LaunchSettings& settings) {
  std::string text;
  for (const auto& s : settings) text += s.name + '\0' + (s.given ? '1' : '0') + s.value + '\0';
  return text;
}

LaunchSettings parse(const std::string& text) {
  LaunchSettings settings;
  for (size_t at = 0; at < text.size();) {
    const size_t name_end = text.find('\0', at), value_end = text.find('\0', name_end + 1);
    settings.push_back({text.substr(at, name_end - at), text.substr(name_end + 2, value_end - name_end - 2),
                        text[name_end + 1] == '1'});
    at = value_end + 1;
  }
  return settings;
}

const LaunchSetting* find(const LaunchSettings& settings, const std::string& name) {
  for (const auto& s : settings) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

bool same(const LaunchSetting* a, const LaunchSetting* b) {
  const bool a_given = a && a->given, b_given = b && b->given;
  return a_given == b_given && (!a_given || a->value == b->value);
}

/// "with --threshold 0.5", "with --strict", "without --removed"; `short_form`: only the
/// value when there is one ("0.8", after the same name was said).
std::string started_with(const std::string& name, const LaunchSetting* s, bool short_form) {
  if (!s || !s->given) return "without " + name;
  if (s->value.empty()) return "with " + name;
  return "with " + (short_form ? s->value : name + " " + s->value);
}

}  // namespace

std::string describe_difference(int rank, const LaunchSettings& theirs, const LaunchSettings& rank0) {
  // Rank 0's settings in their order, then any that only the other rank has.
  std::vector<std::string> names;
  for (const auto& s : rank0) names.push_back(s.name);
  for (const auto& s : theirs) {
    if (!find(rank0, s.name)) names.push_back(s.name);
  }
  for (const auto& name : names) {
    const LaunchSetting *a = find(theirs, name), *b = find(rank0, name);
    if (same(a, b)) continue;
    const bool both_valued = a && a->given && !a->value.empty() && b && b->given && !b->value.empty();
    return "rank " + std::to_string(rank) + " was started " + started_with(name, a, false) + ", rank 0 " +
           started_with(name, b, both_valued);
  }
  return "";
}

std::string launch_difference(Exchange& ex, const LaunchSettings& mine) {
  const std::string text = canonical(mine);
  const std::vector<uint64_t> digests =
      ex.all_gather(detail::xxhash64(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  int differing = -1;
  for (int r = 1; r < ex.ranks() && differing < 0; ++r) {
    if (digests[size_t(r)] != digests[0]) differing = r;
  }
  if (differing < 0) return "";
  // Every rank saw the difference: all of them join the gather, then stop.
  const std::vector<std::string> texts = ex.gather_to_root(text, "launch settings");
  if (ex.rank() != 0) return "rank " + std::to_string(differing) + " was started differently from rank 0";
  const std::string why = describe_difference(differing, parse(texts[size_t(differing)]), parse(texts[0]));
  // Equal settings with unequal digests cannot happen; say so rather than nothing.
  return why.empty() ? "rank " + std::to_string(differing) + " was started differently from rank 0" : why;
}

}  // namespace gpudedup::mpi

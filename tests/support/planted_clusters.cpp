#include "planted_clusters.hpp"

#include <algorithm>
#include <map>
#include <random>

namespace test_support {
namespace {

std::string random_word(std::mt19937_64& rng, size_t letters) {
  std::string w;
  for (size_t i = 0; i < letters; ++i) w.push_back(char('a' + rng() % 26));
  return w;
}

std::string random_text(std::mt19937_64& rng, int words) {
  std::string t;
  for (int i = 0; i < words; ++i) t += (i ? " " : "") + random_word(rng, 3 + rng() % 6);
  return t;
}

}  // namespace

std::vector<PlantedDocument> planted_corpus(uint64_t seed, int clusters, int singles) {
  std::mt19937_64 rng(seed);
  std::vector<PlantedDocument> docs;
  for (int c = 0; c < clusters; ++c) {
    const std::string shared = random_text(rng, 90);
    const int members = 2 + c % 4;
    // Lengths of each member's own word: distinct in even clusters; in odd ones the two
    // shortest tie (3 members) or both the two longest and the two shortest (5 members).
    static const size_t tied[2][5] = {{2, 2, 5}, {8, 2, 8, 5, 2}};
    for (int m = 0; m < members; ++m) {
      const size_t letters = c % 2 ? tied[c % 4 == 3][m] : 2 + size_t(m) * 3;
      docs.push_back({"", shared + " " + random_word(rng, letters), c});
    }
  }
  for (int s = 0; s < singles; ++s) docs.push_back({"", random_text(rng, 90), -1});
  std::shuffle(docs.begin(), docs.end(), rng);
  for (size_t i = 0; i < docs.size(); ++i) docs[i].id = "d" + std::to_string(i);
  return docs;
}

std::string planted_jsonl(const std::vector<PlantedDocument>& docs) {
  std::string out;
  for (const auto& d : docs) out += "{\"id\": \"" + d.id + "\", \"text\": \"" + d.text + "\"}\n";
  return out;
}

PlantedAnswer planted_answer(const std::vector<PlantedDocument>& docs, gpudedup::KeepPolicy keep) {
  using gpudedup::KeepPolicy;
  std::map<int, std::vector<size_t>> members;  // cluster -> documents in input order
  std::vector<int> order;                      // clusters in the order of their first members
  for (size_t i = 0; i < docs.size(); ++i) {
    if (docs[i].cluster < 0) continue;
    auto& m = members[docs[i].cluster];
    if (m.empty()) order.push_back(docs[i].cluster);
    m.push_back(i);
  }
  std::vector<size_t> kept_member(docs.size());  // per document: its cluster's kept member
  for (size_t i = 0; i < docs.size(); ++i) kept_member[i] = i;
  for (const auto& [c, m] : members) {
    size_t best = m[0];
    for (size_t i : m) {
      const size_t mine = docs[i].text.size(), theirs = docs[best].text.size();
      if ((keep == KeepPolicy::longest && mine > theirs) || (keep == KeepPolicy::shortest && mine < theirs)) best = i;
    }
    for (size_t i : m) kept_member[i] = best;
  }
  PlantedAnswer a;
  for (size_t i = 0; i < docs.size(); ++i) {
    const bool clustered = docs[i].cluster >= 0;
    if (!clustered || (keep != KeepPolicy::none && kept_member[i] == i)) {
      a.kept.push_back(docs[i].id);
      continue;
    }
    const auto& m = members[docs[i].cluster];
    const size_t dup = keep != KeepPolicy::none ? kept_member[i] : i == m[0] ? m[1] : m[0];
    a.removed_tsv += docs[i].id + "\t" + docs[dup].id + "\n";
  }
  for (size_t n = 0; n < order.size(); ++n) {
    const auto& m = members[order[n]];
    a.clusters_jsonl += "{\"cluster\": " + std::to_string(n) + ", \"representative\": " +
                        (keep == KeepPolicy::none ? std::string("null") : "\"" + docs[kept_member[m[0]]].id + "\"") +
                        ", \"members\": [";
    for (size_t k = 0; k < m.size(); ++k) a.clusters_jsonl += (k ? ", \"" : "\"") + docs[m[k]].id + "\"";
    a.clusters_jsonl += "]}\n";
  }
  return a;
}

}  // namespace test_support

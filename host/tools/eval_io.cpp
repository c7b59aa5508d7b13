// Reading clusterings for eval: clusters JSONL, pairs TSV (connected components), id lists.
#include <simdjson.h>

#include <algorithm>
#include <fstream>

#include "gpudedup/errors.hpp"
#include "gpudedup/eval.hpp"
#include "host/core/union_find.hpp"

namespace gpudedup {
namespace {

std::ifstream open_input(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw data_error(path + ": cannot open");
  return f;
}

std::string where(const std::string& path, uint64_t line) { return path + ":" + std::to_string(line) + ": "; }

bool blank(const std::string& s) {
  return s.find_first_not_of(" \t\r") == std::string::npos;
}

// An id given as a JSON string or integer, as text.
std::string json_id(simdjson::dom::element e, const std::string& at) {
  if (e.is_string()) return std::string(std::string_view(e.get_string().value()));
  if (e.is_int64()) return std::to_string(int64_t(e.get_int64().value()));
  if (e.is_uint64()) return std::to_string(uint64_t(e.get_uint64().value()));
  throw data_error(at + "an id must be a string or an integer");
}

uint32_t lookup(IdIndex& ids, std::string_view id, const std::string& at) {
  const uint32_t n = ids.get(id);
  if (n == UINT32_MAX) throw data_error(at + "id '" + std::string(id) + "' is not in the id list (--ids)");
  return n;
}

}  // namespace

Clusters read_clusters_jsonl(const std::string& path, IdIndex& ids) {
  auto f = open_input(path);
  simdjson::dom::parser parser;
  Clusters clusters;
  std::vector<uint8_t> seen;
  std::string line;
  for (uint64_t no = 1; std::getline(f, line); ++no) {
    if (blank(line)) continue;
    const std::string at = where(path, no);
    simdjson::dom::element doc;
    if (parser.parse(line).get(doc)) throw data_error(at + "malformed JSON");
    simdjson::dom::array members;
    if (doc["members"].get_array().get(members))
      throw data_error(at + "expected {\"cluster\": n, \"members\": [ids]}: no \"members\" array");
    std::vector<uint32_t> cluster;
    for (auto e : members) {
      const uint32_t d = lookup(ids, json_id(e, at), at);
      if (d >= seen.size()) seen.resize(std::max<size_t>(d + 1, seen.size() * 2));
      if (seen[d]) throw data_error(at + "id '" + json_id(e, at) + "' appears in two clusters (or twice)");
      seen[d] = 1;
      cluster.push_back(d);
    }
    if (cluster.size() >= 2) clusters.push_back(std::move(cluster));
  }
  if (f.bad()) throw data_error(path + ": read error");
  return clusters;
}

Clusters read_pairs_tsv(const std::string& path, IdIndex& ids) {
  auto f = open_input(path);
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  std::string line;
  for (uint64_t no = 1; std::getline(f, line); ++no) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (blank(line) || line[0] == '#') continue;
    const std::string at = where(path, no);
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) throw data_error(at + "expected id_a<TAB>id_b[<TAB>similarity]");
    const size_t tab2 = line.find('\t', tab + 1);
    const std::string_view view(line);
    const auto a = view.substr(0, tab);
    const auto b = view.substr(tab + 1, tab2 == std::string::npos ? std::string::npos : tab2 - tab - 1);
    if (a.empty() || b.empty()) throw data_error(at + "an empty id");
    const uint32_t first = lookup(ids, a, at);  // separate statements: a is numbered first
    pairs.emplace_back(first, lookup(ids, b, at));
  }
  if (f.bad()) throw data_error(path + ": read error");
  detail::UnionFind uf(ids.size());
  for (const auto& [a, b] : pairs) uf.unite(a, b);
  // Components keyed by their root, the smallest member: clusters come out in that order.
  std::vector<uint32_t> slot(ids.size(), UINT32_MAX);
  Clusters all;
  for (uint32_t d = 0; d < ids.size(); ++d) {
    const uint32_t root = uf.find(d);
    if (slot[root] == UINT32_MAX) slot[root] = uint32_t(all.size()), all.emplace_back();
    all[slot[root]].push_back(d);
  }
  Clusters clusters;
  for (auto& c : all) {
    if (c.size() >= 2) clusters.push_back(std::move(c));
  }
  return clusters;
}

void read_id_list(const std::string& path, IdIndex& ids) {
  auto f = open_input(path);
  simdjson::dom::parser parser;
  std::string line;
  for (uint64_t no = 1; std::getline(f, line); ++no) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (blank(line)) continue;
    const size_t first = line.find_first_not_of(" \t");
    if (line[first] != '{') {
      ids.get(line);
      continue;
    }
    const std::string at = where(path, no);
    simdjson::dom::element doc, id;
    if (parser.parse(line).get(doc)) throw data_error(at + "malformed JSON");
    if (doc["id"].get(id)) throw data_error(at + "a JSON record without an \"id\" field");
    ids.get(json_id(id, at));
  }
  if (f.bad()) throw data_error(path + ": read error");
}

}  // namespace gpudedup

// gpudedup eval: scores a clustering or pairs against planted clusters or exact pairs.
#include <cstdio>
#include <iostream>

#include "gpudedup/errors.hpp"
#include "gpudedup/eval.hpp"
#include "host/cli/command.hpp"
#include "host/cli/options.hpp"

namespace gpudedup::cli {
namespace {

std::string text(const cxxopts::ParseResult& r, const std::string& name) {
  try {
    return r[name].as<std::string>();
  } catch (const cxxopts::exceptions::exception& e) {
    throw usage_error("--" + name + ": " + e.what());
  }
}

// Exactly one of two options names the file; returns {option, path}.
std::pair<std::string, std::string> one_of(const cxxopts::ParseResult& r, const char* a, const char* b) {
  const bool has_a = r.count(a) > 0, has_b = r.count(b) > 0;
  if (has_a == has_b)
    throw usage_error(std::string("give exactly one of --") + a + " and --" + b + " (see --help)");
  return has_a ? std::make_pair(std::string(a), text(r, a)) : std::make_pair(std::string(b), text(r, b));
}

Clusters read_clustering(const std::pair<std::string, std::string>& source, IdIndex& ids) {
  const bool pairs = source.first == "pairs" || source.first == "truth-pairs";
  return pairs ? read_pairs_tsv(source.second, ids) : read_clusters_jsonl(source.second, ids);
}

void describe(const char* what, const std::string& path, const Clusters& c) {
  uint64_t docs = 0, pairs = 0;
  for (const auto& m : c) docs += m.size(), pairs += uint64_t(m.size()) * (m.size() - 1) / 2;
  std::cout << what << path << ": " << c.size() << " clusters, " << docs << " documents in them, " << pairs
            << " pairs\n";
}

int run_eval(int argc, char** argv) {
  cxxopts::Options o(argv[0],
      "Score a run against a truth: pair precision, recall, F1 and the adjusted Rand index.\n"
      "A pair is two documents in one cluster; pairs files are turned into clusters (connected\n"
      "components). Documents in no cluster are singletons; there are --documents N of them\n"
      "in all, or the ids in --ids FILE, or else the ids seen in the two files.\n"
      "examples:\n"
      "  gpudedup eval --truth truth.jsonl --clusters clusters.jsonl --documents 100000\n"
      "  gpudedup eval --truth-pairs exact_pairs.tsv --pairs minhash_pairs.tsv --ids corpus.jsonl");
  o.add_options()
    ("truth", "planted clusters: JSONL {\"cluster\": n, \"members\": [ids]} (gpudedup gen --truth)",
     cxxopts::value<std::string>())
    ("truth-pairs", "true pairs: TSV id_a<TAB>id_b[<TAB>similarity] (dedup --method exact --pairs)",
     cxxopts::value<std::string>())
    ("clusters", "predicted clusters: JSONL (dedup --clusters)", cxxopts::value<std::string>())
    ("pairs", "predicted pairs: TSV (dedup --pairs)", cxxopts::value<std::string>())
    ("ids", "every document id: one per line, or JSONL records with an \"id\" field",
     cxxopts::value<std::string>())
    ("documents", "number of documents in the corpus, 1..4294967295", cxxopts::value<uint64_t>());
  cxxopts::ParseResult r;
  if (!parse_or_help(o, argc, argv, r)) return 0;
  const auto truth = one_of(r, "truth", "truth-pairs");
  const auto predicted = one_of(r, "clusters", "pairs");
  if (r.count("ids") && r.count("documents")) throw usage_error("give at most one of --ids and --documents");
  uint64_t documents = 0;
  if (r.count("documents")) {
    documents = option<uint64_t>(r, "documents");
    GD_EXPECTS(documents >= 1 && documents <= UINT32_MAX,  // documents are numbered in 32 bits
               "--documents must be in 1..4294967295, got " + std::to_string(documents));
  }
  IdIndex ids;
  if (r.count("ids")) {
    read_id_list(text(r, "ids"), ids);
    ids.freeze();
  }
  const Clusters t = read_clustering(truth, ids);
  const Clusters p = read_clustering(predicted, ids);
  if (documents && ids.size() > documents)
    throw usage_error("--documents " + std::to_string(documents) + " is less than the " +
                      std::to_string(ids.size()) + " distinct ids in the two files");
  if (!documents) documents = ids.size();
  const ClusterScores s = score_clustering(cluster_labels(t, documents), cluster_labels(p, documents));
  describe("truth:      ", truth.second, t);
  describe("prediction: ", predicted.second, p);
  std::cout << "documents:  " << documents << "\n"
            << "pairs:      " << s.common_pairs << " in both, " << s.truth_pairs - s.common_pairs
            << " missed (truth only), " << s.predicted_pairs - s.common_pairs << " wrong (prediction only)\n";
  char line[160];
  std::snprintf(line, sizeof line, "precision=%.4f recall=%.4f f1=%.4f ari=%.4f", s.precision, s.recall, s.f1, s.ari);
  std::cout << line << std::endl;
  return 0;
}

}  // namespace

GD_REGISTER_COMMAND(eval, "eval", "score clusters or pairs against a truth (precision, recall, F1, ARI)", run_eval);

}  // namespace gpudedup::cli

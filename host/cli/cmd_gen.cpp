// gpudedup gen: a deterministic synthetic corpus with planted near-duplicate clusters.
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "gpudedup/corpus_gen.hpp"
#include "gpudedup/errors.hpp"
#include "host/cli/command.hpp"
#include "host/cli/line_counting_buf.hpp"
#include "host/cli/progress_reporter.hpp"
#include "host/cli/options.hpp"
#include "gpudedup/io.hpp"

namespace gpudedup::cli {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw data_error(path + ": cannot open the training text given to --train");
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

int run_gen(int argc, char** argv) {
  const CorpusOptions d;
  cxxopts::Options o(argv[0],
      "Generate a synthetic corpus with planted near-duplicate clusters and its truth file.\n"
      "The same options give byte-identical files on every machine and thread count.\n"
      "examples:\n"
      "  gpudedup gen --documents 100000 --seed 7 --output corpus.jsonl --truth truth.jsonl\n"
      "  gpudedup gen --documents 10000 --train book.txt --substitute-rate 0.03 \\\n"
      "      --output corpus.jsonl --truth truth.jsonl");
  auto num = [](double v) { std::ostringstream s; s << v; return s.str(); };
  o.add_options("Corpus")
    ("documents", "documents to generate (clusters included), 1..4294967295", cxxopts::value<uint64_t>())
    ("seed", "random seed", cxxopts::value<uint64_t>()->default_value("1"))
    ("output", "corpus FILE: JSONL {\"id\": \"...\", \"text\": \"...\"}", cxxopts::value<std::string>())
    ("q,quiet", "no progress line")
    ("truth", "truth FILE: JSONL {\"cluster\": n, \"members\": [ids]} per planted cluster",
     cxxopts::value<std::string>())
    ("train", "text FILE to train the Markov word model on (default: built-in vocabulary)",
     cxxopts::value<std::string>())
    ("vocabulary", "built-in model: distinct words, 2..10000000", cxxopts::value<uint32_t>()->default_value(std::to_string(d.vocabulary)))
    ("mean-words", "median words per base document", cxxopts::value<double>()->default_value(num(d.mean_words)))
    ("length-sigma", "sigma of the lognormal length", cxxopts::value<double>()->default_value(num(d.length_sigma)))
    ("threads", "threads, 0..1024 (0 = all cores); the output does not depend on it",
     cxxopts::value<int>()->default_value("0"));
  o.add_options("Clusters")
    ("cluster-fraction", "share of documents in planted clusters",
     cxxopts::value<double>()->default_value(num(d.cluster_fraction)))
    ("max-cluster-size", "largest cluster", cxxopts::value<uint32_t>()->default_value(std::to_string(d.max_cluster_size)))
    ("cluster-exponent", "cluster size k has probability ~ k^-exponent",
     cxxopts::value<double>()->default_value(num(d.cluster_size_exponent)));
  o.add_options("Edits of cluster members")
    ("insert-rate", "per word: a random word inserted after it", cxxopts::value<double>()->default_value(num(d.edits.insert)))
    ("delete-rate", "per word: deleted", cxxopts::value<double>()->default_value(num(d.edits.remove)))
    ("substitute-rate", "per word: replaced", cxxopts::value<double>()->default_value(num(d.edits.substitute)))
    ("reorder-rate", "per member: one sentence moved", cxxopts::value<double>()->default_value(num(d.edits.reorder)))
    ("boilerplate-rate", "per member: boilerplate prefix and/or suffix",
     cxxopts::value<double>()->default_value(num(d.edits.boilerplate)))
    ("truncate-rate", "per member: the end cut off", cxxopts::value<double>()->default_value(num(d.edits.truncate)))
    ("max-truncate", "largest share of words a truncation cuts",
     cxxopts::value<double>()->default_value(num(d.edits.max_truncate)));
  cxxopts::ParseResult r;
  if (!parse_or_help(o, argc, argv, r)) return 0;
  for (const char* required : {"documents", "output", "truth"}) {
    if (!r.count(required)) throw usage_error(std::string("--") + required + " is required (see --help)");
  }
  CorpusOptions c;
  c.documents = option<uint64_t>(r, "documents");
  c.seed = option<uint64_t>(r, "seed");
  c.vocabulary = option<uint32_t>(r, "vocabulary");
  c.mean_words = option<double>(r, "mean-words");
  c.length_sigma = option<double>(r, "length-sigma");
  c.threads = threads_option(r, "threads");
  c.cluster_fraction = option<double>(r, "cluster-fraction");
  c.max_cluster_size = option<uint32_t>(r, "max-cluster-size");
  c.cluster_size_exponent = option<double>(r, "cluster-exponent");
  c.edits.insert = option<double>(r, "insert-rate");
  c.edits.remove = option<double>(r, "delete-rate");
  c.edits.substitute = option<double>(r, "substitute-rate");
  c.edits.reorder = option<double>(r, "reorder-rate");
  c.edits.boilerplate = option<double>(r, "boilerplate-rate");
  c.edits.truncate = option<double>(r, "truncate-rate");
  c.edits.max_truncate = option<double>(r, "max-truncate");
  c.validate();  // before reading a large training file
  const std::string train = r.count("train") ? option<std::string>(r, "train") : std::string();
  OutputSet files({{"gen.output", option<std::string>(r, "output")}, {"gen.truth", option<std::string>(r, "truth")}},
                  {{"gen.train", train}});
  if (r.count("train")) {
    c.train_name = option<std::string>(r, "train");
    c.train_text = read_file(c.train_name);
  }
  const auto start = std::chrono::steady_clock::now();
  const uint64_t total = c.documents;
  const CorpusGenerator gen(std::move(c));
  ProgressReporter progress("gpudedup gen", !r.count("quiet"));
  // The corpus is written a line per document: its newlines are the progress.
  LineCountingBuf counted(files.file("gen.output")->stream().rdbuf(), [&](uint64_t lines) {
    progress.update("generate", lines, "docs", 0, total ? double(lines) / double(total) : -1);
  });
  std::ostream corpus(&counted);
  const CorpusSummary s = gen.write(corpus, files.file("gen.truth")->stream());
  progress.finish();
  files.commit();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cerr << "gen: " << s.documents << " documents (" << s.bytes / 1e6 << " MB), " << s.clusters
            << " planted clusters holding " << s.clustered_documents << " documents, largest "
            << s.largest_cluster << "; " << seconds << " s\n";
  return 0;
}

}  // namespace

GD_REGISTER_COMMAND(gen, "gen", "generate a synthetic corpus with planted near-duplicates", run_gen);

}  // namespace gpudedup::cli

#include "host/cli/options.hpp"

#include <fstream>
#include <iostream>

#include "gpudedup/device.hpp"
#include "gpudedup/errors.hpp"
#include "host/cli/strict_options.hpp"
#include "host/io/read/input_list.hpp"

namespace gpudedup::cli {

void add_input_options(cxxopts::Options& o) {
  o.add_options("Input")
    ("inputs", "input files, folders, or - for stdin", cxxopts::value<std::vector<std::string>>())
    ("input-list", "FILE naming the inputs, one path per line (after those given as arguments)",
     cxxopts::value<std::string>())
    ("input-format", "auto, jsonl, text, dir or parquet (auto: Parquet by content, JSONL by name, else text; in "
     "a folder, a file neither Parquet nor JSONL is one document; zstd and gzip are told by content)",
     cxxopts::value<std::string>()->default_value("auto"))
    ("text-field", "JSONL field or Parquet column holding the text", cxxopts::value<std::string>()->default_value("text"))
    ("id-field", "JSONL field or Parquet column holding the id (string or number); default: record number",
     cxxopts::value<std::string>()->default_value(""))
    ("strict", "stop at the first malformed record (exit 1) instead of skipping it")
    ("reader-threads", "threads parsing records while one reads and decompresses, 0..256 (1: one thread does both; "
     "0: 1 on 2 cores or fewer, else one per core less one, at most 4); same records, numbers and reports whatever N",
     cxxopts::value<unsigned>()->default_value("0"))
    ("batch-size", "documents per batch, 1..67108864", cxxopts::value<size_t>()->default_value("65536"));
  o.parse_positional({"inputs"});
}

InputOptions read_input_options(const cxxopts::ParseResult& r) {
  InputOptions in;
  if (r.count("inputs")) in.paths = option<std::vector<std::string>>(r, "inputs");
  if (r.count("input-list")) {
    for (auto& p : io::read_path_list(option<std::string>(r, "input-list"))) in.paths.push_back(std::move(p));
  }
  GD_EXPECTS(!in.paths.empty(), "no input given: name files, folders, - for stdin, or --input-list FILE");
  in.format = enum_option<InputFormat>(r, "input-format");
  in.text_field = option<std::string>(r, "text-field");
  in.id_field = option<std::string>(r, "id-field");
  in.strict = r.count("strict") > 0;
  in.reader_threads = option<unsigned>(r, "reader-threads");
  GD_EXPECTS(in.reader_threads <= 256, "--reader-threads must be in 0..256, got " + std::to_string(in.reader_threads));
  return in;
}

void add_numbering_options(cxxopts::Options& o) {
  o.add_options("Input")
    ("first-document-number", "number of the first document and record (ids of records without one start "
     "there): a run that is one part of a larger numbering", cxxopts::value<uint64_t>()->default_value("0"));
}

uint64_t first_document_number(const cxxopts::ParseResult& r) { return option<uint64_t>(r, "first-document-number"); }

size_t batch_size(const cxxopts::ParseResult& r) {
  const auto n = option<size_t>(r, "batch-size");
  GD_EXPECTS(n >= 1 && n <= (size_t(1) << 26), "--batch-size must be in 1..67108864, got " + std::to_string(n));
  return n;
}

void add_sketch_options(cxxopts::Options& o) {
  o.add_options("Shingles and sketches")
    ("shingle", "char or word", cxxopts::value<std::string>()->default_value("char"))
    ("ngram", "shingle length k, 1..64: code points (char) or tokens (word)", cxxopts::value<int64_t>()->default_value("5"))
    ("stopwords", "word list FILE (one per line): stop words removed before word shingling",
     cxxopts::value<std::string>())
    ("stopword-anchored", "word shingles = a stop word plus the next two words "
     "(built-in English list unless --stopwords)")
    ("normalize", "text normalization before shingling, a comma list: fold (simple case folding, every "
     "script), ascii (A-Z only), nfkc (Unicode NFKC first), punct (remove punctuation, category P*); "
     "or none. White space is always collapsed", cxxopts::value<std::string>()->default_value("fold"))
    ("tokenizer", "word tokens for word shingles and SimHash: simple (spaces; each CJK character a "
     "token) or icu (ICU word segmentation, dictionaries for Chinese, Japanese, Thai)",
     cxxopts::value<std::string>()->default_value("simple"))
    ("num-perm", "MinHash permutations P, 1..4096", cxxopts::value<int64_t>()->default_value("256"))
    ("sketch", "MinHash family: classic (P permutations of every shingle) or oph (one permutation hashing "
     "into P bins, optimal densification: shingles + P work; docs/sketches.md)",
     cxxopts::value<std::string>()->default_value("classic"))
    ("seed", "seed of the permutation family", cxxopts::value<uint64_t>()->default_value("1"));
}

void read_sketch_options(const cxxopts::ParseResult& r, Config& c) {
  c.shingle.kind = enum_option<ShingleKind>(r, "shingle");
  const auto k = option<int64_t>(r, "ngram");
  GD_EXPECTS(k >= 1 && k <= 64, "--ngram must be in 1..64, got " + std::to_string(k));
  c.shingle.ngram = uint32_t(k);
  if (r.count("stopwords")) {
    c.shingle.stop_words = read_word_list(option<std::string>(r, "stopwords"));
    c.shingle.remove_stop_words = true;
  }
  c.shingle.stop_word_anchored = r.count("stopword-anchored") > 0;
  if (c.shingle.stop_word_anchored) c.shingle.remove_stop_words = false;
  const auto normalize = parse_normalize(option<std::string>(r, "normalize"));
  GD_EXPECTS(normalize, "--normalize takes a comma list of fold, ascii, nfkc, punct (fold and ascii "
                        "exclusive), or none alone; got \"" + option<std::string>(r, "normalize") + "\"");
  c.shingle.normalize = *normalize;
  c.shingle.tokenizer = enum_option<Tokenizer>(r, "tokenizer");
  const auto p = option<int64_t>(r, "num-perm");
  GD_EXPECTS(p >= 1 && p <= 4096, "--num-perm must be in 1..4096, got " + std::to_string(p));
  c.minhash.num_perm = uint32_t(p);
  c.minhash.family = enum_option<SketchFamily>(r, "sketch");
  c.seed = option<uint64_t>(r, "seed");
}

void add_backend_options(cxxopts::Options& o) {
  o.add_options("Backend")
    ("backend", "auto, cpu or cuda (auto: CUDA when a device is found)",
     cxxopts::value<std::string>()->default_value("auto"))
    ("threads", "CPU threads, 0..1024 (0 = all cores)", cxxopts::value<int>()->default_value("0"))
    ("device", "CUDA device ordinal", cxxopts::value<int>()->default_value("0"));
}

int threads_option(const cxxopts::ParseResult& r, const std::string& name) {
  const int n = option<int>(r, name);
  GD_EXPECTS(n >= 0 && n <= max_threads, "--" + name + " must be in 0.." + std::to_string(max_threads) +
                                             " (0 = all cores), got " + std::to_string(n));
  return n;
}

void read_backend_options(const cxxopts::ParseResult& r, Config& c) {
  c.backend = enum_option<Backend>(r, "backend");
  if (c.backend == Backend::automatic) {
    // A GPU this build cannot run is worth a word: auto falls back to the CPU silently
    // only when there is no GPU at all.
    const CudaStatus status = cuda_status();
    if (status.devices.empty() && !status.unusable.empty()) {
      std::cerr << "gpudedup: --backend auto runs on the CPU: " << status.reason << "\n";
    }
  }
  c.threads = threads_option(r, "threads");
  c.device = option<int>(r, "device");
  GD_EXPECTS(c.device >= 0, "--device must be >= 0");
}

bool parse_or_help(cxxopts::Options& o, int argc, char** argv, cxxopts::ParseResult& out) {
  o.add_options()("h,help", "show this help");
  const auto shapes = option_shapes(o);
  try {
    out = o.parse(argc, argv);
  } catch (const cxxopts::exceptions::incorrect_argument_type& e) {
    // cxxopts names the text, not the option: find the option it was given to.
    const std::string why = bad_number_message(shapes, argc, argv);
    throw usage_error(why.empty() ? std::string(e.what()) + " (see --help)" : why);
  } catch (const cxxopts::exceptions::exception& e) {
    throw usage_error(std::string(e.what()) + " (see --help)");
  }
  if (out.count("help")) {
    std::cout << help_with_kinds(o.help(), shapes) << std::endl;
    return false;
  }
  check_arguments(shapes, out);
  return true;
}

std::vector<std::string> read_word_list(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw data_error(path + ": cannot open the word list; check the path given to --stopwords");
  std::vector<std::string> words;
  std::string line;
  while (std::getline(f, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) words.push_back(line);
  }
  return words;
}

}  // namespace gpudedup::cli

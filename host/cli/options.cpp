#include "host/cli/options.hpp"

#include <fstream>
#include <iostream>

#include "gpudedup/device.hpp"
#include "gpudedup/errors.hpp"
#include "host/cli/strict_options.hpp"
#include "host/cli/table_options.hpp"
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

namespace {

/// --first-document-number.
std::vector<OptionRow> numbering_rows() { return shared_rows({"first_document_number"}); }

/// The shingle and sketch rows, in help order, around --normalize, whose message is the
/// program's own.
std::vector<OptionRow> rows_before_normalize() {
  return shared_rows({"shingle.kind", "shingle.ngram", "shingle.stop_words", "shingle.stop_word_anchored"});
}
std::vector<OptionRow> rows_from_normalize() {
  return shared_rows({"shingle.normalize", "shingle.tokenizer", "minhash.num_perm", "minhash.family", "seed"});
}

}  // namespace

void add_numbering_options(cxxopts::Options& o) { add_option_rows(o, numbering_rows()); }

uint64_t first_document_number(const cxxopts::ParseResult& r) {
  Config c;
  read_option_rows(r, numbering_rows(), c);
  return c.first_document_number;
}

size_t batch_size(const cxxopts::ParseResult& r) {
  const auto n = option<size_t>(r, "batch-size");
  GD_EXPECTS(n >= 1 && n <= (size_t(1) << 26), "--batch-size must be in 1..67108864, got " + std::to_string(n));
  return n;
}

void add_sketch_options(cxxopts::Options& o) {
  add_option_rows(o, rows_before_normalize());
  add_option_rows(o, rows_from_normalize());
}

void read_sketch_options(const cxxopts::ParseResult& r, Config& c) {
  read_option_rows(r, rows_before_normalize(), c);
  if (r.count("stopwords")) c.shingle.remove_stop_words = true;  // a list given is a list to remove
  // The program's own wording (the row's is the library's, which Python writes).
  const auto normalize = option<std::string>(r, "normalize");
  GD_EXPECTS(parse_normalize(normalize), "--normalize takes a comma list of fold, ascii, nfkc, punct (fold and ascii "
                                         "exclusive), or none alone; got \"" + normalize + "\"");
  read_option_rows(r, rows_from_normalize(), c);
  if (c.shingle.stop_word_anchored) c.shingle.remove_stop_words = false;
}

namespace {

std::vector<OptionRow> backend_rows() { return shared_rows({"backend"}); }
std::vector<OptionRow> threads_and_device_rows() { return shared_rows({"threads", "device"}); }

}  // namespace

void add_backend_options(cxxopts::Options& o) {
  add_option_rows(o, backend_rows());
  add_option_rows(o, threads_and_device_rows());
}

int threads_option(const cxxopts::ParseResult& r, const std::string& name) {
  const int n = option<int>(r, name);
  GD_EXPECTS(n >= 0 && n <= max_threads, "--" + name + " must be in 0.." + std::to_string(max_threads) +
                                             " (0 = all cores), got " + std::to_string(n));
  return n;
}

void read_backend_options(const cxxopts::ParseResult& r, Config& c) {
  read_option_rows(r, backend_rows(), c);
  if (c.backend == Backend::automatic) {
    // A GPU this build cannot run is worth a word: auto falls back to the CPU silently
    // only when there is no GPU at all.
    const CudaStatus status = cuda_status();
    if (status.devices.empty() && !status.unusable.empty()) {
      std::cerr << "gpudedup: --backend auto runs on the CPU: " << status.reason << "\n";
    }
  }
  read_option_rows(r, threads_and_device_rows(), c);
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

#pragma once
// Option groups shared by several subcommands, so `dedup`, `sketch`, `index` and the
// tools read input and shingles the same way.
#include <cxxopts.hpp>
#include <initializer_list>
#include <string>

#include "gpudedup/config.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/io.hpp"

namespace gpudedup::cli {

/// r[name] as T; a value of the wrong type becomes a usage_error naming --name.
template <class T>
T option(const cxxopts::ParseResult& r, const std::string& name) {
  try {
    return r[name].as<T>();
  } catch (const cxxopts::exceptions::exception& e) {
    throw usage_error("--" + name + ": " + e.what());
  }
}

/// The enum value named by option `name`, else a usage_error that lists the names:
/// "--backend must be auto, cpu or cuda, got 'gpu'".
template <class Enum>
Enum enum_option(const cxxopts::ParseResult& r, const std::string& name) {
  const auto text = option<std::string>(r, name);
  if (const auto value = from_string<Enum>(text)) return *value;
  throw usage_error("--" + name + " must be " + names_of<Enum>() + ", got '" + text + "'");
}

/// --input-format, --text-field, --id-field, --strict, --batch-size, positional inputs.
void add_input_options(cxxopts::Options& options);
InputOptions read_input_options(const cxxopts::ParseResult& r);
/// --first-document-number (dedup, sketch), from its row of the option table:
/// Config::first_document_number and InputOptions::first_record_number, for a run that is
/// one part of a larger numbering.
void add_numbering_options(cxxopts::Options& options);
uint64_t first_document_number(const cxxopts::ParseResult& r);
/// Documents per batch (--batch-size) and its byte cap.
size_t batch_size(const cxxopts::ParseResult& r);
constexpr size_t batch_max_bytes = size_t(256) << 20;  // bounds a batch's text in memory

/// --shingle, --ngram, --stopwords, --stopword-anchored, --normalize, --tokenizer,
/// --num-perm, --sketch, --seed: the shared rows of the option table (gpudedup/options.hpp),
/// each read when sketching (--stopwords names a FILE of words).
void add_sketch_options(cxxopts::Options& options);
/// Fills config.shingle, config.minhash and config.seed with the options given.
/// @throws usage_error naming the option.
void read_sketch_options(const cxxopts::ParseResult& r, Config& config);

/// Bound of --threads: more threads than this are no use, and far more (65536) crash the
/// OpenMP runtime.
constexpr int max_threads = 1024;
/// Option `name` in 0..max_threads, for a command's own --threads (gen; the run's
/// --threads is a row of the option table). @throws usage_error naming it.
int threads_option(const cxxopts::ParseResult& r, const std::string& name);

/// --backend, --threads, --device: the shared rows of the option table.
void add_backend_options(cxxopts::Options& options);
void read_backend_options(const cxxopts::ParseResult& r, Config& config);

/// Throws usage_error("--NAME " + why) for the first of `names` given on the command line:
/// an option that does not apply must not be silently ignored.
inline void refuse_options(const cxxopts::ParseResult& r, std::initializer_list<const char*> names,
                           const std::string& why) {
  for (const char* name : names) {
    if (r.count(name)) throw usage_error(std::string("--") + name + " " + why);
  }
}

/// Parses argv; prints help and returns false for --help. @throws usage_error for what
/// cxxopts refuses and for what check_arguments() refuses (host/cli/strict_options.hpp).
bool parse_or_help(cxxopts::Options& options, int argc, char** argv, cxxopts::ParseResult& out);

/// Reads a stop-word file: one word per line. @throws data_error naming the path.
std::vector<std::string> read_word_list(const std::string& path);

}  // namespace gpudedup::cli

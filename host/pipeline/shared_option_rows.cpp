// The options every method reads (group ""): the method, threshold, seed, shingles,
// backend, keep policy and numbering, each declared once (gpudedup/options.hpp). The
// program registers and reads their flags from these rows (host/cli/options.cpp,
// cmd_dedup.cpp), so the help, default and checks here are the program's; the shingle and
// sketch rows are read when sketching (OptionRow::sketching).
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"
#include "host/pipeline/option_row_makers.hpp"

namespace gpudedup::detail {
namespace {

OptionRow method_row() {
  // Every row of the method table, as it stands when the table is read (a method
  // registered by a program is listed too).
  std::string help = "one of:";
  for (const MethodEntry& m : method_table()) help += " " + m.name + " (" + m.description + ");";
  help.back() = '.';
  OptionRow r = named(OptionRow{}, "method", "method", help);
  r.param = "method";
  r.set = [](Config& c, const OptionValue& v) { c.method = v.text; };
  r.get = [](const Config& c) { return c.method; };
  return r;
}

OptionRow threshold_row() {
  OptionRow r = named(real_option("threshold", GD_OPTION_FIELD(threshold)), "threshold", "threshold",
                      "similarity threshold in (0, 1]");
  r.check = [](const Config&, double t) {
    GD_EXPECTS(t > 0 && t <= 1, "`threshold` must be in (0, 1], got " + std::to_string(t));
  };
  return r;
}

/// A count whose range is its field's type (any seed, any first number).
template <class Field>
OptionRow whole_option(std::string param, Field field) {
  OptionRow r = count_option(std::move(param), field, 0, 0);
  r.check = [](const Config&, double) {};
  return r;
}

OptionRow threads_row() {
  OptionRow r = named(count_option("threads", GD_OPTION_FIELD(threads), 0, 1024), "threads", "threads",
                      "CPU threads, 0..1024 (0 = all cores)");
  // More threads than 1024 are no use, and far more (65536) crash the OpenMP runtime.
  r.check = [](const Config&, double n) {
    GD_EXPECTS(n >= 0 && n <= 1024,
               "`threads` must be in 0..1024 (0 = all cores), got " + std::to_string(int64_t(n)));
  };
  return r;
}

OptionRow device_row() {
  OptionRow r = named(whole_option("device", GD_OPTION_FIELD(device)), "device", "device", "CUDA device ordinal");
  r.check = [](const Config&, double d) { GD_EXPECTS(d >= 0, "`device` must be >= 0"); };
  return r;
}

OptionRow normalize_row() {
  OptionRow r = named(OptionRow{}, "normalize", "normalize",
                      "text normalization before shingling, a comma list: fold (simple case folding, every script), "
                      "ascii (A-Z only), nfkc (Unicode NFKC first), punct (remove punctuation, category P*); or none. "
                      "White space is always collapsed");
  r.param = "shingle.normalize";
  r.set = [](Config& c, const OptionValue& v) {
    const auto n = parse_normalize(v.text);
    GD_EXPECTS(n, "`shingle.normalize` must be a comma list of fold, ascii, nfkc, punct (fold and ascii "
                  "exclusive), or none alone; got '" + v.text + "'");
    c.shingle.normalize = *n;
  };
  r.get = [](const Config& c) { return to_string(c.shingle.normalize); };
  r.copy = copy_of(GD_OPTION_FIELD(shingle.normalize));
  return r;
}

/// Copies the stop-word settings, which the program's --stopwords and --stopword-anchored
/// set together (a list turns removal on, anchoring turns it off).
void copy_stop_word_settings(Config& to, const Config& from) {
  to.shingle.stop_words = from.shingle.stop_words;
  to.shingle.remove_stop_words = from.shingle.remove_stop_words;
  to.shingle.stop_word_anchored = from.shingle.stop_word_anchored;
}

OptionRow stop_words_row() {
  OptionRow r = named(OptionRow{}, "stopwords", "stop_words", "stop words (the program reads them from a FILE)");
  r.file_help = "word list FILE (one per line): stop words removed before word shingling";
  r.param = "shingle.stop_words";
  r.kind = OptionKind::list;
  r.has_default = false;
  r.set = [](Config& c, const OptionValue& v) { c.shingle.stop_words = v.list; };
  r.get = [](const Config&) { return std::string(); };
  r.copy = copy_stop_word_settings;
  return r;
}

OptionRow stop_word_anchored_row() {
  OptionRow r = named(real_option("shingle.stop_word_anchored", GD_OPTION_FIELD(shingle.stop_word_anchored)),
                      "stopword-anchored", "stop_word_anchored",
                      "word shingles = a stop word plus the next two words (built-in English list unless --stopwords)");
  r.copy = copy_stop_word_settings;
  return r;
}

std::vector<OptionRow> numbering_rows() {
  return {named(whole_option("first_document_number", GD_OPTION_FIELD(first_document_number)),
                "first-document-number", "first_document_number",
                "number of the first document and record (ids of records without one start there): a run that is "
                "one part of a larger numbering")};
}

// Every row here decides a document's signature.
std::vector<OptionRow> shingle_rows() {
  return read_when_sketching({
      named(choice_option<ShingleKind>("shingle.kind", GD_OPTION_FIELD(shingle.kind)), "shingle", "shingle",
            "char or word"),
      named(count_option("shingle.ngram", GD_OPTION_FIELD(shingle.ngram), 1, 64), "ngram", "ngram",
            "shingle length k, 1..64: code points (char) or tokens (word)"),
      stop_words_row(),
      named(real_option("shingle.remove_stop_words", GD_OPTION_FIELD(shingle.remove_stop_words)), "",
            "remove_stop_words", "drop the stop words before word shingling"),
      stop_word_anchored_row(),
      normalize_row(),
      named(choice_option<Tokenizer>("shingle.tokenizer", GD_OPTION_FIELD(shingle.tokenizer)), "tokenizer",
            "tokenizer",
            "word tokens for word shingles and SimHash: simple (spaces; each CJK character a token) or icu (ICU "
            "word segmentation, dictionaries for Chinese, Japanese, Thai)"),
      named(count_option("minhash.num_perm", GD_OPTION_FIELD(minhash.num_perm), 1, 4096), "num-perm", "num_perm",
            "MinHash permutations P, 1..4096"),
      named(choice_option<SketchFamily>("minhash.family", GD_OPTION_FIELD(minhash.family)), "sketch", "sketch",
            "MinHash family: classic (P permutations of every shingle), oph (one permutation hashing into P "
            "bins, optimal densification: shingles + P work) or fss (OPH's bins, each bin no shingle reached from "
            "its own permutation: about shingles work on long texts; docs/sketches.md)"),
      named(whole_option("seed", GD_OPTION_FIELD(seed)), "seed", "seed", "seed of the permutation family")});
}

std::vector<OptionRow> run_rows() {
  return {method_row(), threshold_row(),
          named(real_option("all_pairs", GD_OPTION_FIELD(all_pairs)), "all-pairs", "all_pairs",
                "with --pairs: list every verified pair, not only those that joined clusters"),
          named(choice_option<KeepPolicy>("keep", GD_OPTION_FIELD(keep)), "keep", "keep",
                "which member of each cluster to keep: first (in input order), longest or shortest (text bytes; "
                "ties: the first), or none (remove every member)")};
}

std::vector<OptionRow> backend_rows() {
  return {named(choice_option<Backend>("backend", GD_OPTION_FIELD(backend)), "backend", "backend",
                "auto, cpu or cuda (auto: CUDA when a device is found)"),
          threads_row(), device_row()};
}

}  // namespace

std::vector<OptionRow> shared_option_rows() {
  std::vector<OptionRow> rows;
  for (auto [section, heading] : {std::pair{numbering_rows(), "Input"},
                                  std::pair{shingle_rows(), "Shingles and sketches"},
                                  std::pair{run_rows(), "Method"}, std::pair{backend_rows(), "Backend"}}) {
    for (OptionRow& r : in_group(std::move(section), "", heading)) rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace gpudedup::detail

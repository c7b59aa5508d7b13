// The options every method reads (group ""): the method, threshold, seed, shingles,
// backend, keep policy and numbering, each declared once (gpudedup/options.hpp).
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "host/pipeline/option_row_makers.hpp"

namespace gpudedup::detail {
namespace {

OptionRow method_row() {
  OptionRow r = named(OptionRow{}, "method", "method", "a name of the method table (methods())");
  r.param = "method";
  r.set = [](Config& c, const OptionValue& v) { c.method = v.text; };
  r.get = [](const Config& c) { return c.method; };
  return r;
}

OptionRow normalize_row() {
  OptionRow r = named(OptionRow{}, "normalize", "normalize",
                      "text normalization before shingling, a comma list: fold, ascii, nfkc, punct; or none");
  r.param = "shingle.normalize";
  r.set = [](Config& c, const OptionValue& v) {
    const auto n = parse_normalize(v.text);
    GD_EXPECTS(n, "`shingle.normalize` must be a comma list of fold, ascii, nfkc, punct (fold and ascii "
                  "exclusive), or none alone; got '" + v.text + "'");
    c.shingle.normalize = *n;
  };
  r.get = [](const Config& c) { return to_string(c.shingle.normalize); };
  return r;
}

OptionRow stop_words_row() {
  OptionRow r = named(OptionRow{}, "stopwords", "stop_words", "stop words (the program reads them from a FILE)");
  r.param = "shingle.stop_words";
  r.kind = OptionKind::list;
  r.has_default = false;
  r.set = [](Config& c, const OptionValue& v) { c.shingle.stop_words = v.list; };
  r.get = [](const Config&) { return std::string(); };
  return r;
}

}  // namespace

std::vector<OptionRow> shared_option_rows() {
  return in_group(
      {method_row(),
       named(real_option("threshold", GD_OPTION_FIELD(threshold)), "threshold", "threshold",
             "similarity threshold in (0, 1]"),
       named(count_option("seed", GD_OPTION_FIELD(seed), 0, 0), "seed", "seed", "seed of the permutation family"),
       named(count_option("first_document_number", GD_OPTION_FIELD(first_document_number), 0, 0),
             "first-document-number", "first_document_number", "number of the first document"),
       named(choice_option<Backend>("backend", GD_OPTION_FIELD(backend)), "backend", "backend", "auto, cpu or cuda"),
       named(count_option("threads", GD_OPTION_FIELD(threads), 0, 1024), "threads", "threads",
             "CPU threads, 0..1024 (0 = all cores)"),
       named(count_option("device", GD_OPTION_FIELD(device), 0, 0), "device", "device", "CUDA device ordinal"),
       named(choice_option<ShingleKind>("shingle.kind", GD_OPTION_FIELD(shingle.kind)), "shingle", "shingle",
             "char or word"),
       named(count_option("shingle.ngram", GD_OPTION_FIELD(shingle.ngram), 1, 64), "ngram", "ngram",
             "shingle length k, 1..64"),
       stop_words_row(),
       named(real_option("shingle.remove_stop_words", GD_OPTION_FIELD(shingle.remove_stop_words)), "",
             "remove_stop_words", "drop the stop words before word shingling"),
       named(real_option("shingle.stop_word_anchored", GD_OPTION_FIELD(shingle.stop_word_anchored)),
             "stopword-anchored", "stop_word_anchored", "word shingles = a stop word plus the next two words"),
       normalize_row(),
       named(choice_option<Tokenizer>("shingle.tokenizer", GD_OPTION_FIELD(shingle.tokenizer)), "tokenizer",
             "tokenizer", "simple or icu"),
       named(count_option("minhash.num_perm", GD_OPTION_FIELD(minhash.num_perm), 1, 4096), "num-perm", "num_perm",
             "MinHash permutations P, 1..4096"),
       named(choice_option<SketchFamily>("minhash.family", GD_OPTION_FIELD(minhash.family)), "sketch", "sketch",
             "MinHash family: classic (P permutations of every shingle) or oph (one permutation hashing into P "
             "bins, optimal densification: shingles + P work; docs/sketches.md)"),
       named(real_option("all_pairs", GD_OPTION_FIELD(all_pairs)), "all-pairs", "all_pairs",
             "list every verified pair, not only those that joined clusters"),
       named(choice_option<KeepPolicy>("keep", GD_OPTION_FIELD(keep)), "keep", "keep",
             "first, longest, shortest or none")},
      "", "");
}

}  // namespace gpudedup::detail

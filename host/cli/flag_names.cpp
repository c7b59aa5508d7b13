#include "host/cli/flag_names.hpp"

#include <map>

namespace gpudedup::cli {
namespace {

/// The library's parameter names (Config, InputOptions, DedupJob fields, and the names
/// the commands give their files in an OutputSet) and the flags that set them.
const std::map<std::string_view, std::string_view>& flag_of() {
  static const std::map<std::string_view, std::string_view> flags = {
      {"all_pairs", "--all-pairs"},
      {"backend", "--backend"},
      {"batch_size", "--batch-size"},
      {"bloom.all_pairs_limit", "--bloom-all-pairs-max"},
      {"bloom.bits", "--bloom-bits"},
      {"bloom.hashes", "--bloom-hashes"},
      {"bloom.lsh_bits", "--bloom-lsh-bits"},
      {"bloom.lsh_tables", "--bloom-lsh-tables"},
      {"bloom.sample_long", "--bloom-long"},
      {"device", "--device"},
      {"filter.output", "--output"},
      {"filter.output_dir", "--output-dir"},
      {"filter.removed", "--removed"},
      {"gen.output", "--output"},
      {"gen.train", "--train"},
      {"gen.truth", "--truth"},
      {"index.answers", "--answers"},
      {"index.dir", "the index folder"},
      {"index.output", "--output"},
      {"input.format", "--input-format"},
      {"input.id_field", "--id-field"},
      {"input.meta_field", "--meta-field"},
      {"input.paths", "the input"},
      {"input.strict", "--strict"},
      {"input.text_field", "--text-field"},
      {"keep", "--keep"},
      {"lsh.bands", "--bands"},
      {"lsh.rows", "--rows"},
      {"memory_limit", "--memory-limit"},
      {"method", "--method"},
      {"minhash.num_perm", "--num-perm"},
      {"minhash.family", "--sketch"},
      {"outputs.clusters", "--clusters"},
      {"outputs.output", "--output"},
      {"outputs.output_dir", "--output-dir"},
      {"outputs.pairs", "--pairs"},
      {"outputs.removed", "--removed"},
      {"outputs.stats", "--stats"},
      {"sampling.kind", "--sample"},
      {"sampling.mod", "--sample-mod"},
      {"sampling.size", "--sample-size"},
      {"seed", "--seed"},
      {"first_document_number", "--first-document-number"},
      {"shingle.kind", "--shingle"},
      {"shingle.ngram", "--ngram"},
      {"shingle.normalize", "--normalize"},
      {"shingle.stop_word_anchored", "--stopword-anchored"},
      {"shingle.stop_words", "--stopwords"},
      {"shingle.tokenizer", "--tokenizer"},
      {"sketches", "the sketch files (--from-sketches)"},
      {"simhash.blocks", "--blocks"},
      {"simhash.hamming", "--hamming"},
      {"simhash.len_mu", "--len-mu"},
      {"simhash.len_sigma", "--len-sigma"},
      {"simhash.meta_field", "--meta-field"},
      {"simhash.meta_weight", "--meta-weight"},
      {"simhash.min_score", "--min-score"},
      {"simhash.split_factor", "--split-factor"},
      {"simhash.verify", "--verify"},
      {"simhash.weights", "--weights"},
      {"similarity", "--similarity"},
      {"sketch.output", "--output"},
      {"temp_dir", "--temp-dir"},
      {"threads", "--threads"},
      {"threshold", "--threshold"},
      {"verify", "--verify"},
  };
  return flags;
}

}  // namespace

std::string with_flags(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  size_t p = 0;
  while (p < message.size()) {
    const size_t open = message.find('`', p);
    const size_t close = open == std::string_view::npos ? open : message.find('`', open + 1);
    if (close == std::string_view::npos) break;
    const std::string_view name = message.substr(open + 1, close - open - 1);
    const auto flag = flag_of().find(name);
    out.append(message.substr(p, open - p));
    out.append(flag != flag_of().end() ? flag->second : name);
    p = close + 1;
  }
  out.append(message.substr(p));
  return out;
}

}  // namespace gpudedup::cli

// gpudedup gen: plans clusters and the output order, then generates each document from
// its own PRNG stream, so threads change the speed and never the bytes.
#include "gpudedup/corpus_gen.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <ostream>

#include "gpudedup/errors.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/tools/random.hpp"
#include "host/tools/word_model.hpp"

namespace gpudedup {
namespace {

using tools::Rng;
using tools::stream_seed;
using tools::WordDocument;

// Stream tags: each kind of decision draws from its own stream.
enum : uint64_t { tag_plan = 0, tag_base = 1, tag_edit = 2, tag_shuffle = 3 };
// Documents per unit of parallel work: large enough to amortize scheduling.
constexpr uint64_t block_documents = 2048;
// A base document is at most this many times the median length (the lognormal tail).
constexpr double max_length_factor = 50;

void check_rate(double v, const char* option) {
  GD_EXPECTS(v >= 0 && v <= 1, std::string(option) + " must be in [0, 1], got " + std::to_string(v));
}

void append_json_string(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      static const char hex[] = "0123456789abcdef";
      out += "\\u00";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  out += '"';
}

// Cluster sizes k in [2, max] with P(k) ~ k^-exponent until `target` documents are used;
// the last cluster is clipped to what is left (a leftover single document stays alone).
std::vector<uint32_t> plan_clusters(const CorpusOptions& o) {
  const uint64_t target = uint64_t(std::llround(o.cluster_fraction * double(o.documents)));
  const uint64_t max_size = std::min<uint64_t>(o.max_cluster_size, std::max<uint64_t>(target, 2));
  std::vector<double> cdf(max_size - 1);
  double total = 0;
  for (uint64_t k = 2; k <= max_size; ++k) cdf[k - 2] = total += std::pow(double(k), -o.cluster_size_exponent);
  Rng rng(stream_seed(o.seed, tag_plan));
  std::vector<uint32_t> sizes;
  uint64_t left = target;
  while (left >= 2) {
    const double u = rng.uniform() * total;
    uint64_t k = 2 + uint64_t(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
    k = std::min({k, max_size, left});
    if (left - k == 1 && k < o.max_cluster_size) ++k;  // no orphan of one
    sizes.push_back(uint32_t(k));
    left -= k;
  }
  return sizes;
}

}  // namespace

void CorpusOptions::validate() const {
  GD_EXPECTS(documents >= 1 && documents <= 0xFFFFFFFFull,
             "--documents must be in 1..4294967295, got " + std::to_string(documents));
  GD_EXPECTS(mean_words >= 1 && mean_words <= 1e6, "--mean-words must be in [1, 1000000]");
  GD_EXPECTS(length_sigma >= 0 && length_sigma <= 3, "--length-sigma must be in [0, 3]");
  check_rate(cluster_fraction, "--cluster-fraction");
  GD_EXPECTS(max_cluster_size >= 2, "--max-cluster-size must be >= 2");
  GD_EXPECTS(cluster_size_exponent >= 0 && cluster_size_exponent <= 10,
             "--cluster-exponent must be in [0, 10]");
  check_rate(edits.insert, "--insert-rate");
  check_rate(edits.remove, "--delete-rate");
  check_rate(edits.substitute, "--substitute-rate");
  GD_EXPECTS(edits.remove + edits.substitute <= 1, "--delete-rate + --substitute-rate must be <= 1");
  check_rate(edits.reorder, "--reorder-rate");
  check_rate(edits.boilerplate, "--boilerplate-rate");
  check_rate(edits.truncate, "--truncate-rate");
  GD_EXPECTS(edits.max_truncate >= 0 && edits.max_truncate < 1, "--max-truncate must be in [0, 1)");
  GD_EXPECTS(vocabulary >= 2 && vocabulary <= 10000000, "--vocabulary must be in 2..10000000");
  GD_EXPECTS(threads >= 0, "--threads must be >= 0");
}

struct CorpusGenerator::Impl {
  CorpusOptions o;
  tools::WordModel model;
  std::vector<uint32_t> sizes;
  std::vector<uint64_t> starts;     // first slot of each cluster; slots past them are singletons
  uint64_t clustered = 0;
  std::vector<uint32_t> slot_at;    // output position -> slot
  std::vector<uint32_t> position_of;  // clustered slot -> output position

  WordDocument base(uint64_t group) const {
    Rng rng(stream_seed(o.seed, tag_base, group));
    const double len = o.mean_words * std::exp(o.length_sigma * rng.normal());
    const double capped = std::min(len, o.mean_words * max_length_factor);
    return model.document(uint32_t(std::max(1.0, std::round(capped))), rng);
  }

  WordDocument edit(const WordDocument& b, uint64_t group, uint32_t member) const {
    const EditRates& e = o.edits;
    Rng rng(stream_seed(o.seed, tag_edit, group, member));
    WordDocument d;
    d.words.reserve(b.words.size() + b.words.size() / 8 + 4);
    // Word edits sentence by sentence; one uniform decides delete / substitute / keep.
    uint32_t begin = 0;
    for (uint32_t end : b.sentence_ends) {
      for (uint32_t i = begin; i < end; ++i) {
        const double u = rng.uniform();
        if (u >= e.remove) d.words.push_back(u < e.remove + e.substitute ? model.other_word(b.words[i], rng) : b.words[i]);
        if (rng.chance(e.insert)) d.words.push_back(model.random_word(rng));
      }
      if (d.words.size() > (d.sentence_ends.empty() ? 0 : d.sentence_ends.back()))
        d.sentence_ends.push_back(uint32_t(d.words.size()));
      begin = end;
    }
    if (rng.chance(e.reorder) && d.sentence_ends.size() >= 2) move_sentence(d, rng);
    if (rng.chance(e.truncate)) {
      const auto most = uint64_t(e.max_truncate * double(d.words.size()));
      if (most >= 1 && d.words.size() > 1) {
        const uint64_t cut = std::min<uint64_t>(1 + rng.below(most), d.words.size() - 1);
        d.words.resize(d.words.size() - cut);
        while (d.sentence_ends.back() > d.words.size() && d.sentence_ends.size() > 1 &&
               d.sentence_ends[d.sentence_ends.size() - 2] >= d.words.size())
          d.sentence_ends.pop_back();
        d.sentence_ends.back() = uint32_t(d.words.size());
      }
    }
    if (rng.chance(e.boilerplate)) {
      const auto where = rng.below(3);  // prefix, suffix or both
      const auto n = tools::WordModel::boilerplate_count();
      if (where != 1) d.prefix = int(rng.below(n));
      if (where != 0) d.suffix = int(rng.below(n));
    }
    return d;
  }

  // Moves one sentence to another place.
  static void move_sentence(WordDocument& d, Rng& rng) {
    const size_t n = d.sentence_ends.size();
    std::vector<std::pair<uint32_t, uint32_t>> spans(n);
    for (size_t s = 0; s < n; ++s) spans[s] = {s ? d.sentence_ends[s - 1] : 0, d.sentence_ends[s]};
    const size_t from = rng.below(n);
    size_t to = rng.below(n - 1);
    if (to >= from) ++to;
    const auto moved = spans[from];
    spans.erase(spans.begin() + long(from));
    spans.insert(spans.begin() + long(to), moved);
    WordDocument out;
    out.words.reserve(d.words.size());
    for (const auto& [b, e] : spans) {
      out.words.insert(out.words.end(), d.words.begin() + b, d.words.begin() + e);
      out.sentence_ends.push_back(uint32_t(out.words.size()));
    }
    d.words.swap(out.words);
    d.sentence_ends.swap(out.sentence_ends);
  }

  std::string member_text(uint64_t group, uint32_t member) const {
    const WordDocument b = base(group);
    std::string out;
    model.render(member == 0 ? b : edit(b, group, member), out);
    return out;
  }

  std::string slot_text(uint64_t slot) const {
    if (slot >= clustered) return member_text(sizes.size() + (slot - clustered), 0);
    const uint64_t c = uint64_t(std::upper_bound(starts.begin(), starts.end(), slot) - starts.begin()) - 1;
    return member_text(c, uint32_t(slot - starts[c]));
  }
};

CorpusGenerator::CorpusGenerator(CorpusOptions options) : impl_(std::make_unique<Impl>()) {
  options.validate();
  Impl& m = *impl_;
  m.o = std::move(options);
  m.model = m.o.train_text.empty() ? tools::WordModel::builtin(m.o.vocabulary)
                                   : tools::WordModel::trained(m.o.train_text, m.o.train_name);
  m.o.train_text.clear();  // the model holds what it needs
  m.sizes = plan_clusters(m.o);
  for (uint32_t s : m.sizes) m.starts.push_back(m.clustered), m.clustered += s;
  const uint64_t n = m.o.documents;
  m.slot_at.resize(n);
  for (uint64_t i = 0; i < n; ++i) m.slot_at[i] = uint32_t(i);
  Rng rng(stream_seed(m.o.seed, tag_shuffle));
  for (uint64_t i = n - 1; i > 0; --i) std::swap(m.slot_at[i], m.slot_at[rng.below(i + 1)]);  // Fisher-Yates
  m.position_of.resize(m.clustered);
  for (uint64_t p = 0; p < n; ++p) {
    if (m.slot_at[p] < m.clustered) m.position_of[m.slot_at[p]] = uint32_t(p);
  }
}

CorpusGenerator::~CorpusGenerator() = default;
CorpusGenerator::CorpusGenerator(CorpusGenerator&&) noexcept = default;
CorpusGenerator& CorpusGenerator::operator=(CorpusGenerator&&) noexcept = default;

const CorpusOptions& CorpusGenerator::options() const { return impl_->o; }
const std::vector<uint32_t>& CorpusGenerator::cluster_sizes() const { return impl_->sizes; }

std::vector<uint64_t> CorpusGenerator::cluster_members(uint64_t c) const {
  GD_EXPECTS(c < impl_->sizes.size(), "cluster number out of range");
  std::vector<uint64_t> ids(impl_->sizes[c]);
  for (uint32_t m = 0; m < ids.size(); ++m) ids[m] = impl_->position_of[impl_->starts[c] + m];
  return ids;
}

std::string CorpusGenerator::member_text(uint64_t c, uint32_t m) const {
  GD_EXPECTS(c < impl_->sizes.size() && m < impl_->sizes[c], "cluster member out of range");
  return impl_->member_text(c, m);
}

std::string CorpusGenerator::text(uint64_t id) const {
  GD_EXPECTS(id < impl_->o.documents, "document id out of range");
  return impl_->slot_text(impl_->slot_at[id]);
}

CorpusSummary CorpusGenerator::write(std::ostream& corpus, std::ostream& truth) const {
  const Impl& m = *impl_;
  const uint64_t n = m.o.documents;
  const int threads = m.o.threads > 0 ? m.o.threads : omp_get_max_threads();
  const uint64_t blocks = (n + block_documents - 1) / block_documents;
  const uint64_t per_round = uint64_t(threads) * 4;  // a few blocks each: dynamic balance
  std::vector<std::string> out(per_round);
  CorpusSummary s;
  for (uint64_t round = 0; round < blocks; round += per_round) {
    const uint64_t count = std::min(per_round, blocks - round);
    detail::ParallelErrors errors;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int64_t k = 0; k < int64_t(count); ++k) errors.run([&] {
      std::string& buf = out[size_t(k)];
      buf.clear();
      const uint64_t first = (round + uint64_t(k)) * block_documents;
      const uint64_t last = std::min(n, first + block_documents);
      for (uint64_t p = first; p < last; ++p) {
        buf += "{\"id\": \"";
        buf += std::to_string(p);
        buf += "\", \"text\": ";
        append_json_string(buf, m.slot_text(m.slot_at[p]));
        buf += "}\n";
      }
    });
    errors.rethrow();
    for (uint64_t k = 0; k < count; ++k) {
      corpus.write(out[k].data(), std::streamsize(out[k].size()));
      s.bytes += out[k].size();
    }
  }
  std::string line;
  for (uint64_t c = 0; c < m.sizes.size(); ++c) {
    line = "{\"cluster\": " + std::to_string(c) + ", \"members\": [";
    for (uint32_t j = 0; j < m.sizes[c]; ++j) {
      if (j) line += ", ";
      line += '"' + std::to_string(m.position_of[m.starts[c] + j]) + '"';
    }
    line += "]}\n";
    truth << line;
    s.largest_cluster = std::max<uint64_t>(s.largest_cluster, m.sizes[c]);
  }
  s.documents = n;
  s.clusters = m.sizes.size();
  s.clustered_documents = m.clustered;
  return s;
}

}  // namespace gpudedup

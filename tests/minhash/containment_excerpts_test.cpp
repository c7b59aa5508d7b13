// Containment search on planted excerpts: contiguous spans of 5%-100% of a source, one
// word edited, among unrelated documents. Measured against the exact join: recall over
// the pairs whose size ratio is within the bound, bounded by the LSH S-curve at the bands
// of each pair's class distance; precision of the program under --verify auto.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gpudedup/lsh.hpp"
#include "gpudedup/minhash.hpp"
#include "host/exact/exact_join.hpp"
#include "host/minhash/containment_bands.hpp"
#include "support/program.hpp"
#include "support/files.hpp"

using namespace gpudedup;

namespace {

constexpr double threshold = 0.9;
using Pair = std::pair<uint64_t, uint64_t>;

/// Words of a Zipf-like vocabulary: common words make unrelated documents share shingles.
std::vector<std::string> draw_words(std::mt19937_64& rng, size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) {
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    const uint64_t rank = uint64_t(std::pow(5000.0, u));  // log-uniform rank 1..5000
    std::string w;
    for (uint64_t x = rank * 2654435761u + 17, len = 2 + rank % 7; len > 0; --len, x /= 26) w += char('a' + x % 26);
    out.push_back(w);
  }
  return out;
}

std::string join(const std::vector<std::string>& w, size_t from, size_t to) {
  std::string s;
  for (size_t i = from; i < to; ++i) s += (i > from ? " " : "") + w[i];
  return s;
}

/// Sources of 150..3000 words, one excerpt of each (5%..100%, log-uniform, one word
/// replaced), unrelated documents; shuffled so excerpts come before and after sources.
std::vector<std::string> planted_corpus(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<std::string> docs;
  for (int s = 0; s < 80; ++s) {
    auto words = draw_words(rng, size_t(150 * std::pow(20.0, unit(rng))));
    docs.push_back(join(words, 0, words.size()));
    const double share = std::exp(std::log(0.05) * unit(rng));
    const size_t len = std::max<size_t>(1, size_t(words.size() * share));
    const size_t start = rng() % (words.size() - len + 1);
    words[start + rng() % len] = "edited";
    docs.push_back(join(words, start, start + len));
  }
  for (int u = 0; u < 80; ++u) {
    const auto words = draw_words(rng, size_t(150 * std::pow(20.0, unit(rng))));
    docs.push_back(join(words, 0, words.size()));
  }
  std::shuffle(docs.begin(), docs.end(), rng);
  return docs;
}

Config containment_config(VerifyMode verify) {
  Config c;
  c.backend = Backend::cpu;
  c.similarity = Similarity::containment;
  c.threshold = threshold;
  c.verify = verify;
  c.all_pairs = true;
  return c;
}

}  // namespace

TEST(ContainmentExcerpts, RecallWithinTheSCurveBoundAndAtLeast98Percent) {
  for (uint64_t seed : {1, 2}) {
    const auto texts = planted_corpus(seed);
    DocumentBatch batch;
    for (const auto& t : texts) batch.add(t);
    MinHashEngine engine(containment_config(VerifyMode::exact));  // the candidates, verified exactly
    engine.add(batch);
    const DedupResult r = engine.finish();
    std::set<Pair> found;
    for (const auto& p : r.pairs) found.insert({p.a, p.b});

    const ShingleSets sets = engine.shingle_sets(batch);
    const auto truth = detail::exact_similarity_join(sets, threshold, Similarity::containment, 1);
    const auto plan = detail::containment_band_plan(threshold, engine.config().minhash.num_perm);
    size_t promised = 0, missed = 0, excerpts = 0;
    double expected_misses = 0;
    for (const auto& p : truth) {
      const uint64_t na = sets.set_size(p.a), nb = sets.set_size(p.b);
      const uint64_t small = std::min(na, nb), large = std::max(na, nb);
      if (double(small) / large < detail::containment_ratio_bound) continue;  // past the bound: not promised
      ++promised;
      excerpts += double(small) / large < 0.5;
      const auto& d = plan[detail::size_class(uint32_t(large)) - detail::size_class(uint32_t(small))];
      const uint64_t common = uint64_t(std::llround(p.similarity * small));
      expected_misses += 1 - candidate_probability(double(common) / (na + nb - common), d.bands, d.rows);
      missed += !found.count(Pair(p.a, p.b));
    }
    std::cout << "seed " << seed << ": " << promised << " pairs within the bound (" << excerpts << " under 1:2), "
              << missed << " missed, " << expected_misses << " expected from the S-curve\n";
    ASSERT_GE(promised, 70u) << "seed " << seed;
    ASSERT_GE(excerpts, 30u) << "seed " << seed;  // most excerpts are far smaller than their source
    // Each pair is missed independently across bands of its own distance: the misses are
    // a sum of Bernoulli trials; 4 standard deviations (at least 1) over the mean.
    const double bound = expected_misses + 4 * std::max(1.0, std::sqrt(expected_misses));
    EXPECT_LE(double(missed), bound) << "seed " << seed;
    EXPECT_GE(1 - double(missed) / promised, 0.98) << "seed " << seed << ": " << missed << " of " << promised;
    for (const auto& p : r.pairs) EXPECT_GE(p.similarity, threshold);  // verified by the containment
  }
}

TEST(ContainmentExcerpts, ProgramUnderVerifyAutoMatchesTheExactJoin) {
  const auto texts = planted_corpus(3);
  test_support::TempDir dir;
  std::string jsonl;
  for (size_t i = 0; i < texts.size(); ++i) jsonl += "{\"id\": \"" + std::to_string(i) + "\", \"text\": \"" + texts[i] + "\"}\n";
  const std::string corpus = dir.write("corpus.jsonl", jsonl);
  auto pairs_of = [&](const std::string& args, const std::string& name) {
    const auto run = test_support::run_cli("dedup " + corpus + " --quiet --output " + dir.path(name + ".kept") +
                                           " --similarity containment --threshold 0.9 --all-pairs --pairs " +
                                           dir.path(name + ".tsv") + " " + args);
    EXPECT_EQ(run.code, 0) << run.err;
    std::set<Pair> out;
    std::istringstream in(test_support::read_file(dir.path(name + ".tsv")));
    for (std::string a, b, s; in >> a >> b >> s;) out.insert({std::min(std::stoull(a), std::stoull(b)), std::max(std::stoull(a), std::stoull(b))});
    return out;
  };
  const auto exact = pairs_of("--method exact", "exact");
  const auto found = pairs_of("--method minhash --verify auto", "auto");
  size_t hit = 0;
  for (const auto& p : found) hit += exact.count(p);
  ASSERT_GE(exact.size(), 70u);
  EXPECT_GE(double(hit) / found.size(), 0.99) << hit << " of " << found.size();
  // Recall over every exact pair (the few past the size-ratio bound included).
  EXPECT_GE(double(hit) / exact.size(), 0.98) << hit << " of " << exact.size();
}

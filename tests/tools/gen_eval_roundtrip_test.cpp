// gen -> engine -> eval through the library: the planted clusters are recovered.
#include <gtest/gtest.h>

#include <sstream>

#include "gpudedup/corpus_gen.hpp"
#include "gpudedup/minhash.hpp"
#include "gpudedup/eval.hpp"

using namespace gpudedup;

TEST(GenEvalRoundTrip, MinHashRecoversPlantedClusters) {
  CorpusOptions o;
  o.documents = 20000;
  o.seed = 5;
  const CorpusGenerator gen(o);
  Config c;
  c.backend = Backend::cpu;
  MinHashEngine engine(c);
  DocumentBatch batch;
  for (uint64_t id = 0; id < o.documents; ++id) {
    batch.add(gen.text(id));  // document number = id = output position
    if (batch.size() == 4096 || id + 1 == o.documents) {
      engine.add(batch);
      batch.clear();
    }
  }
  const DedupResult r = engine.finish();
  Clusters truth;
  for (uint64_t k = 0; k < gen.cluster_sizes().size(); ++k) {
    truth.emplace_back();
    for (uint64_t id : gen.cluster_members(k)) truth.back().push_back(uint32_t(id));
  }
  std::vector<uint64_t> predicted(r.representative.begin(), r.representative.end());
  const auto s = score_clustering(cluster_labels(truth, o.documents), predicted);
  EXPECT_GE(s.precision, 0.95);
  EXPECT_GE(s.recall, 0.95);
  EXPECT_GE(s.ari, 0.95);
  RecordProperty("precision", std::to_string(s.precision));
  RecordProperty("recall", std::to_string(s.recall));
  std::cout << "precision " << s.precision << " recall " << s.recall << " ari " << s.ari << "\n";
}

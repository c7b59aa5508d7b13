// embed: gpudedup inside an ingestion loop. Documents arrive in batches, the engine
// sketches each batch as it comes (the text is not kept), and finish() tells which
// documents are near-duplicates of which.
//
//   embed               a built-in corpus with planted near-duplicates, once through the
//                       engine and once through a persistent index (gpudedup::Index)
//                       reopened for every batch, as a pipeline restarting would; exits 1
//                       unless both find exactly the planted ones
//   embed corpus.jsonl  JSONL records with a "text" and an "id" field
#include <stdlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gpudedup/config.hpp>
#include <gpudedup/method.hpp>
#include <gpudedup/errors.hpp>
#include <gpudedup/index.hpp>
#include <gpudedup/io.hpp>

namespace {

/// Fills `batch` (cleared first) with the next documents; false when there are no more.
using Source = std::function<bool(gpudedup::InputBatch& batch)>;

/// What counts as a near-duplicate: estimated Jaccard similarity >= 0.8 of the sets of
/// character 5-grams. The backend is chosen at run time: CUDA when a GPU is found.
gpudedup::Config make_config() {
  gpudedup::Config config;
  config.method = "minhash";  // or "exact", "simhash", "bloom": any row of the method table
  config.shingle.kind = gpudedup::ShingleKind::chars;
  config.shingle.ngram = 5;
  config.threshold = 0.8;
  return config;
}

/// The ingestion loop: every batch goes to the engine as it arrives. Returns the id of
/// each document, indexed by the engine's document number.
std::vector<std::string> ingest(gpudedup::DedupMethod& engine, const Source& next) {
  std::vector<std::string> ids;
  gpudedup::InputBatch batch;
  while (next(batch)) {
    engine.add(batch.docs);
    ids.insert(ids.end(), batch.ids.begin(), batch.ids.end());
  }
  return ids;
}

/// Prints "<id> is a near-duplicate of <id>" for every document that is not the first of
/// its cluster; returns the duplicates as id -> id of the kept document.
std::map<std::string, std::string> report(const gpudedup::DedupResult& result,
                                          const std::vector<std::string>& ids) {
  std::map<std::string, std::string> duplicate_of;
  for (size_t doc = 0; doc < result.representative.size(); ++doc) {
    const gpudedup::doc_number kept = result.representative[doc];  // 64-bit; numbered from 0 here
    if (kept == doc) continue;
    std::printf("%s is a near-duplicate of %s\n", ids[doc].c_str(), ids[kept].c_str());
    duplicate_of[ids[doc]] = ids[kept];
  }
  std::printf("%llu documents, %llu near-duplicates in %llu clusters\n",
              (unsigned long long)result.documents, (unsigned long long)result.removed,
              (unsigned long long)result.clusters);
  return duplicate_of;
}

// ---- input: a JSONL file --------------------------------------------------------------

Source jsonl_source(const std::string& path) {
  gpudedup::InputOptions options;
  options.paths = {path};
  options.format = gpudedup::InputFormat::jsonl;
  options.id_field = "id";  // records without one are skipped as malformed
  auto reader = std::make_shared<gpudedup::RecordReader>(options);
  return [reader](gpudedup::InputBatch& batch) {
    return reader->next(batch, /*max_docs=*/4096, /*max_bytes=*/size_t(64) << 20);
  };
}

// ---- input: a built-in corpus with planted near-duplicates ---------------------------

/// A text of `words` made-up words, different for every seed.
std::string made_up_text(uint64_t seed, int words) {
  static const char* const syllables[16] = {"ka", "lo", "mi", "ne", "su", "ta", "ri", "po",
                                            "ve", "du", "ga", "xi", "fo", "be", "ly", "zo"};
  std::string text;
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int w = 0; w < words; ++w) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;  // 64-bit LCG
    if (w) text += ' ';
    for (int s = 0, n = 2 + int(x >> 62); s < n; ++s) text += syllables[(x >> (4 * s + 16)) & 15];
  }
  return text;
}

std::string with_word_replaced(std::string text) {
  const size_t start = text.find(' ', text.size() / 2) + 1, end = text.find(' ', start);
  return text.replace(start, end - start, "ingestion");
}

std::string upper_case_double_spaced(const std::string& text) {
  std::string out;
  for (char c : text) out += c == ' ' ? std::string("  ") : std::string(1, char(c - 'a' + 'A'));
  return out;
}

struct Planted {
  std::string id;
  std::string text;
  std::string duplicate_of;  ///< empty: an original document
};

/// Ten originals and three near-duplicates that arrive in later batches: one word
/// changed, three words appended, and the same text upper-cased with doubled spaces
/// (the same after normalization).
std::vector<Planted> planted_corpus() {
  std::vector<std::string> text;
  for (int i = 0; i < 10; ++i) text.push_back(made_up_text(i, 80));
  return {{"doc-0", text[0], ""},
          {"doc-1", text[1], ""},
          {"doc-2", text[2], ""},
          {"doc-3", text[3], ""},
          {"doc-4", text[4], ""},
          {"edited-1", with_word_replaced(text[1]), "doc-1"},
          {"doc-5", text[5], ""},
          {"doc-6", text[6], ""},
          {"doc-7", text[7], ""},
          {"doc-8", text[8], ""},
          {"appended-4", text[4] + " breaking news update", "doc-4"},
          {"doc-9", text[9], ""},
          {"shouted-7", upper_case_double_spaced(text[7]), "doc-7"}};
}

Source planted_source(const std::vector<Planted>& docs) {
  constexpr size_t batch_size = 4;  // small, so that duplicates cross batches
  size_t next = 0;
  return [&docs, next](gpudedup::InputBatch& batch) mutable {
    batch.clear();
    for (; next < docs.size() && batch.size() < batch_size; ++next) {
      batch.docs.add(docs[next].text);
      batch.ids.push_back(docs[next].id);
    }
    return batch.size() > 0;
  };
}

/// True when the duplicates found are exactly the planted ones.
bool found_planted(const std::vector<Planted>& docs, const std::map<std::string, std::string>& found) {
  std::map<std::string, std::string> expected;
  for (const auto& d : docs)
    if (!d.duplicate_of.empty()) expected[d.id] = d.duplicate_of;
  if (found == expected) return true;
  std::fprintf(stderr, "embed: expected these near-duplicates:\n");
  for (const auto& [id, of] : expected) std::fprintf(stderr, "  %s of %s\n", id.c_str(), of.c_str());
  return false;
}

// ---- the persistent index: "is this new document a near-duplicate of anything seen?" --

/// Each batch opens the index (as a new process would after a restart), keeps only the
/// documents that are new and indexes them. Returns the duplicates as id -> id.
std::map<std::string, std::string> index_loop(const std::string& dir, const Source& next) {
  gpudedup::Index::create(dir, make_config());
  std::map<std::string, std::string> duplicate_of;
  gpudedup::InputBatch batch;
  while (next(batch)) {
    gpudedup::IndexOpenOptions options;
    options.mode = gpudedup::IndexMode::read_write;
    gpudedup::Index index = gpudedup::Index::open(dir, options);
    const auto answers = index.query_insert(batch.docs, batch.ids);
    for (size_t i = 0; i < answers.size(); ++i) {
      if (!answers[i].duplicate) continue;
      std::printf("index: %s is a near-duplicate of %s (%.2f)\n", batch.ids[i].c_str(),
                  answers[i].match_id.c_str(), answers[i].similarity);
      duplicate_of[batch.ids[i]] = answers[i].match_id;
    }
  }
  std::printf("index: %llu documents kept in %s\n",
              (unsigned long long)gpudedup::Index::open(dir).size(), dir.c_str());
  return duplicate_of;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [corpus.jsonl]\n", argv[0]);
    return 2;
  }
  try {
    const std::unique_ptr<gpudedup::DedupMethod> engine = gpudedup::make_method(make_config());
    std::printf("backend: %s\n", gpudedup::to_string(engine->backend()));
    if (argc == 2) {
      const auto ids = ingest(*engine, jsonl_source(argv[1]));
      report(engine->finish(), ids);
      return 0;
    }
    const auto docs = planted_corpus();
    const auto ids = ingest(*engine, planted_source(docs));
    const bool engine_ok = found_planted(docs, report(engine->finish(), ids));
    char dir[] = "/tmp/gpudedup-embed-XXXXXX";
    if (!mkdtemp(dir)) throw std::runtime_error("cannot create a temporary folder");
    const bool index_ok = found_planted(docs, index_loop(std::string(dir) + "/index", planted_source(docs)));
    std::system((std::string("rm -rf ") + dir).c_str());
    return engine_ok && index_ok ? 0 : 1;
  } catch (const gpudedup::usage_error& e) {
    std::fprintf(stderr, "embed: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "embed: %s\n", e.what());
    return 1;
  }
}

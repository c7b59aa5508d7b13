// Index at scale: fills an index with N synthetic documents (random signatures written
// straight into segments, since sketching N texts would only measure sketching), adds
// real documents, then times open, a query batch and reports memory and disk per document.
//
//   index_bench --dir /scratch/idx --documents 100000000 --segment-docs 10000000
//               --text corpus.jsonl --insert 50000 --queries 100000
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpudedup/minhash.hpp"
#include "gpudedup/index.hpp"
#include "gpudedup/io.hpp"
#include "host/index/durable_file.hpp"
#include "host/index/manifest.hpp"
#include "host/index/segment_writer.hpp"

using namespace gpudedup;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

long rss_mb() {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Appends `count` documents with random signatures as segments of `per_segment`.
void fill_synthetic(const std::string& dir, uint64_t count, uint64_t per_segment, int threads) {
  auto m = detail::decode_manifest(detail::read_whole_file(dir + "/MANIFEST"), dir + "/MANIFEST");
  const uint32_t P = m.params.num_perm;
  uint64_t seed = 42;
  for (uint64_t done = 0; done < count;) {
    const uint64_t n = std::min(per_segment, count - done);
    std::vector<uint32_t> sigs(n * P), sizes(n, 100);
    std::vector<std::string> ids(n);
    for (auto& v : sigs) v = uint32_t(splitmix(seed));
    for (uint64_t i = 0; i < n; ++i) ids[i] = "syn" + std::to_string(m.documents() + i);
    char name[32];
    std::snprintf(name, sizeof name, "seg-%08llu.gds", static_cast<unsigned long long>(m.next_segment++));
    const detail::SegmentBase base{m.params.hash(), P, m.params.bands, m.params.rows, m.documents()};
    const detail::SegmentRows rows{sigs.data(), sizes.data(), &ids, n};
    const auto h = detail::write_segment(dir + "/" + name, base, rows, threads);
    m.segments.push_back({name, n, h.file_bytes, h.header_checksum});
    ++m.generation;
    detail::write_file_durably(dir, "MANIFEST", detail::encode_manifest(m));
    done += n;
    std::fprintf(stderr, "index_bench: %llu synthetic documents written\n", static_cast<unsigned long long>(m.documents()));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir, text;
  uint64_t documents = 1000000, per_segment = 10000000, insert = 50000, queries = 100000;
  uint32_t num_perm = 256;
  int threads = 0;
  bool reuse = false;
  Backend backend = Backend::automatic;  // --backend cpu|cuda|auto: where queries sketch and probe  // --reuse 1: the index exists; measure open and query only (clean RSS)
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--dir") dir = v;
    else if (a == "--text") text = v;
    else if (a == "--documents") documents = std::stoull(v);
    else if (a == "--segment-docs") per_segment = std::stoull(v);
    else if (a == "--insert") insert = std::stoull(v);
    else if (a == "--queries") queries = std::stoull(v);
    else if (a == "--num-perm") num_perm = uint32_t(std::stoul(v));
    else if (a == "--threads") threads = std::stoi(v);
    else if (a == "--reuse") reuse = v == "1";
    else if (a == "--backend") backend = v == "cpu" ? Backend::cpu : v == "cuda" ? Backend::cuda : Backend::automatic;
    else { std::fprintf(stderr, "unknown option %s\n", a.c_str()); return 2; }
  }
  if (dir.empty() || text.empty()) {
    std::fprintf(stderr, "usage: index_bench --dir DIR --text CORPUS.jsonl [--documents N] [--segment-docs S]\n"
                         "       [--insert I] [--queries Q] [--num-perm P] [--threads T] [--backend cpu|cuda|auto]\n"
                         "       [--reuse 1: measure an existing index]\n");
    return 2;
  }
  Config c;
  c.minhash.num_perm = num_perm;
  c.backend = Backend::cpu;
  c.threads = threads;
  double t0 = now();
  if (!reuse) {
    std::system(("rm -rf " + dir).c_str());
    Index::create(dir, c);
    fill_synthetic(dir, documents, per_segment, threads > 0 ? threads : 2);
  }
  const double fill_s = now() - t0;

  InputOptions in;
  in.paths = {text};
  in.id_field = "id";
  RecordReader reader(in);
  InputBatch first, second;
  reader.next(first, insert, size_t(1) << 34);
  reader.next(second, queries, size_t(1) << 34);
  if (!reuse) {
    IndexOpenOptions w;
    w.mode = IndexMode::read_write;
    w.backend = Backend::cpu;
    w.threads = threads;
    Index idx = Index::open(dir, w);
    idx.insert(first.docs, first.ids);
  }
  std::system("sync");
  IndexOpenOptions ro;
  ro.backend = backend;
  ro.threads = threads;
  t0 = now();
  const Index idx = Index::open(dir, ro);
  const double open_s = now() - t0;
  const long rss_open = rss_mb();
  t0 = now();
  const auto answers = idx.query(second.docs, second.ids);
  const double query_s = now() - t0;
  uint64_t dups = 0;
  for (const auto& a : answers) dups += a.duplicate;
  t0 = now();
  Config sketch_config = c;
  sketch_config.backend = idx.backend();
  MinHashEngine(sketch_config).sketch(second.docs);  // the share of the query time that is sketching
  const double sketch_s = now() - t0;
  const IndexStats st = idx.stats();
  std::printf("index_bench: %s backend; %llu documents (%llu synthetic + %zu text) in %llu segments, P=%u, "
              "bands %u x %u\n", to_string(idx.backend()), (unsigned long long)st.documents, (unsigned long long)documents, first.size(),
              (unsigned long long)st.segments, st.num_perm, st.lsh.bands, st.lsh.rows);
  std::printf("  fill %.1f s; disk %.2f GB, %.1f bytes per document\n", fill_s, double(st.disk_bytes) / 1e9,
              st.bytes_per_document);
  std::printf("  open %.3f s (max RSS after open %ld MB)\n", open_s, rss_open);
  std::printf("  query %zu documents: %.2f s (%.0f docs/s; sketching alone %.2f s), %llu near-duplicates; "
              "max RSS %ld MB\n", second.size(), query_s, double(second.size()) / query_s, sketch_s,
              (unsigned long long)dups, rss_mb());
  return 0;
}

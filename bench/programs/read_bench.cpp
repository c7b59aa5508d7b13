// Reading speed of RecordReader alone (no sketching): every input given, in batches as
// `dedup` reads them, timed over the whole first pass. For comparing input formats on the
// same corpus (docs/benchmarks.md, "Reading speed per input format and compression").
// --threads N is InputOptions::reader_threads (1: one thread reads and parses).
//   read_bench [--id-field F] [--text-field F] [--threads N] FILE...
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "gpudedup/io.hpp"

int main(int argc, char** argv) {
  gpudedup::InputOptions options;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--id-field") && has_value) {
      options.id_field = argv[++i];
    } else if (!std::strcmp(argv[i], "--text-field") && has_value) {
      options.text_field = argv[++i];
    } else if (!std::strcmp(argv[i], "--threads") && has_value) {
      options.reader_threads = unsigned(std::strtoul(argv[++i], nullptr, 10));
    } else {
      options.paths.push_back(argv[i]);
    }
  }
  if (options.paths.empty()) {
    std::fprintf(stderr, "usage: read_bench [--id-field F] [--text-field F] [--threads N] FILE...\n");
    return 2;
  }
  try {
    const auto t0 = std::chrono::steady_clock::now();
    gpudedup::RecordReader reader(options);
    gpudedup::InputBatch batch;
    uint64_t text_bytes = 0, id_bytes = 0;
    while (reader.next(batch, 65536, 0)) {  // dedup's default batch
      text_bytes += batch.docs.bytes.size();
      for (const auto& id : batch.ids) id_bytes += id.size();
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const auto& st = reader.stats();
    std::printf("%u reader threads: %llu documents, %llu skipped, %.1f MB of text (ids %.1f MB), %.2f s: %.0f MB/s of text, peak RSS %ld MiB\n",
                options.reader_threads, (unsigned long long)st.documents, (unsigned long long)st.skipped, text_bytes / 1e6, id_bytes / 1e6, s,
                text_bytes / 1e6 / s, ru.ru_maxrss / 1024);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "read_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}

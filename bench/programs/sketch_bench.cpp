// Signature-stage and end-to-end timings of the engine on synthetic documents.
//
//   sketch_bench [--documents N] [--doc-bytes B] [--backend cpu|cuda|all] [--perms 64,128,256,512]
//                [--gpu-kernel classic|fused|both]
//
// N deterministic random documents of about B bytes (words from a fixed vocabulary, 10%
// near copies so that clustering has work). For each backend and P: MinHashEngine::sketch on a
// warm-up batch, then on the whole corpus, timed by wall clock on the host (the CUDA
// backend's sketch() returns only when the signatures are in host memory, so this
// includes the copies both ways). Then end to end (add in batches + finish) at P = 256
// with the engine's per-stage seconds. Prints markdown tables. The CUDA backend runs once
// per sketch kernel (GPUDEDUP_GPU_KERNEL, kernels/minhash/sketch_kernel_choice.hpp): rows
// `cuda` (classic kernels) and `cuda-fused`, side by side (--gpu-kernel both, the default).
// Rows `cpu` and `cuda` sketch with the default MinHash family (fss); `cpu-classic`,
// `cuda-classic` and `cuda-fused` with the classic family, the fused kernels' own.
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gpudedup/device.hpp"
#include "gpudedup/minhash.hpp"
#include "gpudedup/errors.hpp"

using namespace gpudedup;

namespace {

/// Documents per add() call in the end-to-end run (the CLI's default batch size order).
constexpr size_t end_to_end_batch = 100000;
/// A backend as the tables name it: the CUDA rows also say which sketch kernels ran.
struct Runner {
  Backend backend;
  const char* kernel;  ///< GPUDEDUP_GPU_KERNEL for the CUDA backend; null for the CPU
  const char* label;
  SketchFamily family;  ///< the fused kernels are the classic family's
};

/// Sets GPUDEDUP_GPU_KERNEL for the engines made next (the CUDA backend reads it then).
void select_kernel(const Runner& r) {
  if (r.kernel) setenv("GPUDEDUP_GPU_KERNEL", r.kernel, 1);
}

/// Documents in the warm-up sketch (CUDA context, pool growth, CPU thread start-up).
constexpr size_t warm_up_documents = 2000;

DocumentBatch make_corpus(size_t docs, size_t doc_bytes) {
  std::mt19937_64 rng(42);
  std::vector<std::string> vocab;
  for (int i = 0; i < 5000; ++i) {
    std::string w;
    const int len = 2 + int(rng() % 9);
    for (int j = 0; j < len; ++j) w += char('a' + rng() % 26);
    vocab.push_back(w);
  }
  DocumentBatch b;
  std::string t;
  for (size_t d = 0; d < docs; ++d) {
    if (d > 0 && rng() % 10 == 0) {  // a near copy of an earlier document
      t = std::string(b.text(rng() % d));
      if (!t.empty()) t[rng() % t.size()] = 'X';
    } else {
      t.clear();
      while (t.size() < doc_bytes) {
        t += vocab[rng() % vocab.size()];
        t += ' ';
      }
    }
    b.add(t);
  }
  return b;
}

DocumentBatch slice(const DocumentBatch& all, size_t d0, size_t d1) {
  DocumentBatch b;
  for (size_t d = d0; d < d1; ++d) b.add(all.text(d));
  return b;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<uint32_t> parse_list(const std::string& s) {
  std::vector<uint32_t> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(uint32_t(std::stoul(item)));
  return out;
}

[[noreturn]] void usage(const char* msg) {
  std::fprintf(stderr, "sketch_bench: %s\nusage: sketch_bench [--documents N] [--doc-bytes B] "
                       "[--backend cpu|cuda|all] [--perms 64,128,256,512] [--gpu-kernel classic|fused|both]\n", msg);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  size_t docs = 100000, doc_bytes = 1024;
  std::string backend = "all";
  std::string gpu_kernel = "both";
  std::vector<uint32_t> perms = {64, 128, 256, 512};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value for " + a).c_str());
      return argv[++i];
    };
    if (a == "--documents") docs = std::stoull(value());
    else if (a == "--doc-bytes") doc_bytes = std::stoull(value());
    else if (a == "--backend") backend = value();
    else if (a == "--perms") perms = parse_list(value());
    else if (a == "--gpu-kernel") gpu_kernel = value();
    else usage(("unknown option " + a).c_str());
  }
  if (backend != "cpu" && backend != "cuda" && backend != "all") usage("--backend must be cpu, cuda or all");
  if (gpu_kernel != "classic" && gpu_kernel != "fused" && gpu_kernel != "both") {
    usage("--gpu-kernel must be classic, fused or both");
  }

  const CudaStatus cuda = cuda_status();
  std::vector<Runner> backends;
  // Rows `cpu` and `cuda`: the default MinHash family (fss); `cpu-classic`, `cuda-classic`
  // and `cuda-fused`: the classic family, which the fused kernels compute.
  const SketchFamily fallback = Config().minhash.family;
  if (backend != "cuda") {
    backends.push_back({Backend::cpu, nullptr, "cpu", fallback});
    backends.push_back({Backend::cpu, nullptr, "cpu-classic", SketchFamily::classic});
  }
  if (backend != "cpu") {
    if (!cuda.devices.empty()) {
      if (gpu_kernel != "fused") {
        backends.push_back({Backend::cuda, "classic", "cuda", fallback});
        backends.push_back({Backend::cuda, "classic", "cuda-classic", SketchFamily::classic});
      }
      if (gpu_kernel != "classic") backends.push_back({Backend::cuda, "fused", "cuda-fused", SketchFamily::classic});
    }
    else if (backend == "cuda") { std::fprintf(stderr, "sketch_bench: %s\n", cuda.reason.c_str()); return 2; }
    else std::printf("CUDA: skipped (%s)\n\n", cuda.reason.c_str());
  }

  const DocumentBatch corpus = make_corpus(docs, doc_bytes);
  const double gb = double(corpus.bytes.size()) / 1e9;
  std::printf("corpus: %zu documents, %.1f MB of text; host threads: %d", docs, gb * 1e3, omp_get_max_threads());
  for (const auto& d : cuda.devices) std::printf("; GPU %d: %s", d.ordinal, d.name.c_str());
  std::printf("\n\n## Signature stage (MinHashMinHashEngine::sketch, char 5-grams)\n\n");
  std::printf("| backend | P | seconds | GB/s of text | documents/s |\n|---|---:|---:|---:|---:|\n");
  const DocumentBatch warm = slice(corpus, 0, std::min(docs, warm_up_documents));
  for (const Runner& be : backends) {
    select_kernel(be);
    for (uint32_t P : perms) {
      Config c;
      c.backend = be.backend;
      c.minhash.family = be.family;
      c.minhash.num_perm = P;
      try {
        MinHashEngine e(c);
        e.sketch(warm);
        const auto t0 = std::chrono::steady_clock::now();
        const Signatures s = e.sketch(corpus);
        const double t = seconds_since(t0);
        std::printf("| %s | %u | %.3f | %.4g | %.0f |\n", be.label, P, t, gb / t, double(docs) / t);
      } catch (const std::exception& ex) {
        std::printf("| %s | %u | error: %s | | |\n", be.label, P, ex.what());
      }
    }
  }

  std::printf("\n## End to end (add in batches of %zu + finish, P = 256, threshold 0.8)\n\n", end_to_end_batch);
  std::printf("| backend | total s | sketch s | candidates+verify s | cluster s | GB/s | candidates | removed |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Runner& be : backends) {
    select_kernel(be);
    Config c;
    c.backend = be.backend;
    c.minhash.family = be.family;
    try {
      MinHashEngine warm_engine(c);
      warm_engine.add(warm);
      warm_engine.finish();
      MinHashEngine e(c);
      const auto t0 = std::chrono::steady_clock::now();
      for (size_t d = 0; d < docs; d += end_to_end_batch) e.add(slice(corpus, d, std::min(docs, d + end_to_end_batch)));
      const DedupResult r = e.finish();
      const double t = seconds_since(t0);
      std::printf("| %s | %.3f | %.3f | %.3f | %.3f | %.4g | %llu | %llu |\n", be.label, t, r.seconds.sketch,
                  r.seconds.candidates + r.seconds.candidates, r.seconds.cluster, gb / t,
                  (unsigned long long)r.candidate_pairs, (unsigned long long)r.removed);
    } catch (const std::exception& ex) {
      std::printf("| %s | error: %s | | | | | | |\n", be.label, ex.what());
    }
  }
  return 0;
}

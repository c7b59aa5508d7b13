// gpudedup: dispatches to a registered subcommand and maps errors to exit codes
// (0 ok, 1 runtime or data error, 2 usage error). Running out of memory is an error like
// any other (exit 1, outputs' temporaries removed as the exception unwinds), never an abort.
#include <cstring>
#include <iostream>
#include <new>

#include "gpudedup/errors.hpp"
#include "host/cli/command.hpp"
#include "host/cli/flag_names.hpp"

namespace {

void print_usage() {
  std::cout << "gpudedup " << GPUDEDUP_VERSION
            << " - near-duplicate detection with MinHash-LSH on GPU and CPU\n\n"
               "usage: gpudedup COMMAND [options]   (gpudedup COMMAND --help for each)\n\ncommands:\n";
  for (const auto& c : gpudedup::cli::commands()) {
    std::cout << "  " << c.name << std::string(c.name.size() < 10 ? 10 - c.name.size() : 1, ' ')
              << c.summary << "\n";
  }
  std::cout << "\nexample:\n  gpudedup dedup corpus.jsonl --output kept.jsonl --removed removed.tsv\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") ||
      !std::strcmp(argv[1], "help")) {
    print_usage();
    return argc < 2 ? 2 : 0;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::cout << "gpudedup " << GPUDEDUP_VERSION << "\n";
    return 0;
  }
  for (const auto& c : gpudedup::cli::commands()) {
    if (c.name != argv[1]) continue;
    std::string name = std::string("gpudedup ") + argv[1];
    argv[1] = name.data();
    // `index add`, `index query`: the subcommand, taken now (the command rewrites argv).
    const std::string sub = c.name == "index" && argc > 2 && argv[2][0] != '-' ? std::string(" ") + argv[2] : "";
    try {
      return c.run(argc - 1, argv + 1);
    } catch (const std::bad_alloc&) {
      // dedup, index and sketch read their input in batches (--batch-size): a smaller
      // batch needs less memory. The other commands have no such flag.
      const bool batched = c.name == "dedup" || c.name == "index" || c.name == "sketch";
      std::cerr << "gpudedup " << c.name << ": error: out of memory while running " << c.name << sub
                << (batched ? "; try a smaller --batch-size" : "") << "\n";
      return 1;
    } catch (const gpudedup::usage_error& e) {
      std::cerr << "gpudedup " << c.name << ": " << gpudedup::cli::with_flags(e.what()) << "\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "gpudedup " << c.name << ": error: " << gpudedup::cli::with_flags(e.what()) << "\n";
      return 1;
    }
  }
  std::cerr << "gpudedup: unknown command '" << argv[1] << "' (see gpudedup --help)\n";
  return 2;
}

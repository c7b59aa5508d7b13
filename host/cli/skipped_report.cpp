#include "host/cli/skipped_report.hpp"

#include <cstdio>

#include "host/cli/flag_names.hpp"

namespace gpudedup::cli {
namespace {

void print_list(const char* prefix, const std::vector<std::string>& reports, uint64_t count, const char* what) {
  for (const auto& line : reports) std::fprintf(stderr, "%s: skipped %s\n", prefix, with_flags(line).c_str());
  if (count > reports.size())
    std::fprintf(stderr, "%s: ... and %llu more skipped %s\n", prefix, (unsigned long long)(count - reports.size()), what);
}

}  // namespace

void print_skipped(const char* prefix, const InputStats& in) {
  print_list(prefix, in.file_reports, in.skipped_files, "files");
  print_list(prefix, in.reports, in.skipped, "records");
}

}  // namespace gpudedup::cli

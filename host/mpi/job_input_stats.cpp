// The job's input counts and skip reports gathered from the ranks (job_input_stats.hpp).
#include "host/mpi/job_input_stats.hpp"

#include <string>
#include <vector>

namespace gpudedup::mpi {
namespace {

// A rank's reports travel as one string: each report its kind, its text and a NUL.
constexpr char kFile = 'F', kRecord = 'R';

void append(std::string& out, char kind, const std::vector<std::string>& reports) {
  for (const auto& r : reports) out += kind + r + '\0';
}

}  // namespace

InputStats job_input_stats(Exchange& ex, const InputStats& mine, size_t report_limit) {
  InputStats all;
  all.records = ex.sum(mine.records);
  all.documents = ex.sum(mine.documents);
  all.skipped = ex.sum(mine.skipped);
  all.blank_lines = ex.sum(mine.blank_lines);
  all.bytes = ex.sum(mine.bytes);
  all.skipped_files = ex.sum(mine.skipped_files);
  std::string reports;
  append(reports, kFile, mine.file_reports);
  append(reports, kRecord, mine.reports);
  for (const std::string& part : ex.gather_to_root(reports, "skipped reports")) {
    for (size_t at = 0; at < part.size();) {
      const size_t end = part.find('\0', at);
      auto& list = part[at] == kFile ? all.file_reports : all.reports;
      if (list.size() < report_limit) list.push_back(part.substr(at + 1, end - at - 1));
      at = end + 1;
    }
  }
  return all;
}

}  // namespace gpudedup::mpi

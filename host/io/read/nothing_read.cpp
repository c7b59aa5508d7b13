#include "host/io/read/nothing_read.hpp"

namespace gpudedup::io {

std::string nothing_read_message(const InputOptions& in, const InputStats& st) {
  std::string inputs;
  for (const auto& p : in.paths) inputs += (inputs.empty() ? "" : ", ") + p;
  if (st.records == 0 && st.skipped_files > 0) {
    return "read no record from " + inputs + ": " + std::to_string(st.skipped_files) +
           " files were skipped (the first: " + (st.file_reports.empty() ? "?" : st.file_reports[0]) +
           "); nothing was written";
  }
  if (st.records == 0) return "read no record from " + inputs + ": the input is empty; nothing was written";
  return "read no document from " + inputs + ": all " + std::to_string(st.records) +
         " records were skipped (the first: " + (st.reports.empty() ? "?" : st.reports[0]) + "); nothing was written";
}

}  // namespace gpudedup::io

// gpudedup filter: the staged route's last step. Copies the records of one shard that
// the removed list of `dedup --from-sketches` does not name, byte for byte, in order.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/io.hpp"
#include "gpudedup/sketch_file.hpp"
#include "host/cli/command.hpp"
#include "host/cli/flag_names.hpp"
#include "host/cli/options.hpp"
#include "host/cli/progress_reporter.hpp"
#include "host/cli/shard_name.hpp"
#include "host/cli/sketched_shard_check.hpp"
#include "host/cli/skipped_report.hpp"
#include "host/io/write/kept_sink.hpp"
#include "host/io/write/shard_outputs.hpp"

namespace gpudedup::cli {
namespace {

const char* filter_help =
    "Copy the records of one shard that a removed list does not name (the staged route:\n"
    "gpudedup sketch per shard, gpudedup dedup --from-sketches, then this per shard).\n"
    "Give the shard's inputs as they were given to gpudedup sketch, with the same input\n"
    "options; the lines of the list whose shard column names them are this shard's.\n"
    "A shard that is not, byte for byte, the one gpudedup sketch read is refused before\n"
    "anything is written (the list carries each shard's content checksums).\n"
    "\nexample:\n"
    "  gpudedup filter shards/part-003.jsonl --removed removed.tsv -o kept/part-003.jsonl\n"
    "  gpudedup filter shards/part-003/ --removed removed.tsv --output-dir kept/part-003/\n";

/// A TSV field as write_tsv_field() escaped it (\t \n \r \\).
std::string unescape_tsv(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out.push_back(s[i]);
      continue;
    }
    const char c = s[++i];
    out.push_back(c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c);
  }
  return out;
}

/// A line of the removed list that names this shard.
struct Removal {
  std::string id;
  uint64_t line = 0;
  bool found = false;
};

/// The removed list's lines for `shard`, by record number.
struct RemovedLines {
  std::unordered_map<uint64_t, Removal> by_record;
  std::vector<SketchedInput> inputs;    ///< the shard's `#input` lines: what the sketch read
  uint64_t other_shards = 0;            ///< lines naming another shard
  std::vector<std::string> shard_names; ///< the first few other shard names, for a hint
};

RemovedLines read_removed(const std::string& path, const std::string& shard) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw data_error(path + ": cannot open the removed list; check --removed");
  RemovedLines out;
  std::string text;
  for (uint64_t n = 1; std::getline(in, text); ++n) {
    std::vector<std::string_view> f;
    std::string_view rest(text);
    for (size_t tab; (tab = rest.find('\t')) != std::string_view::npos; rest.remove_prefix(tab + 1))
      f.push_back(rest.substr(0, tab));
    f.push_back(rest);
    const std::string where = path + ":" + std::to_string(n) + ": ";
    const bool input_line = f.size() == 5 && f[0] == removed_list_input_marker;
    if (f.size() != 4 && !input_line) {
      throw usage_error(where + std::to_string(f.size()) +
                        " columns; filter reads the removed list of gpudedup dedup --from-sketches "
                        "(id, duplicate_of, shard, record)");
    }
    const std::string name = unescape_tsv(f[input_line ? 1 : 2]);
    if (name != shard) {
      ++out.other_shards;
      if (out.shard_names.size() < 3 && std::find(out.shard_names.begin(), out.shard_names.end(), name) == out.shard_names.end())
        out.shard_names.push_back(name);
      continue;
    }
    if (input_line) {
      SketchedInput in = parse_sketched_input(f, where);
      in.path = unescape_tsv(f[2]);
      in.line = n;
      out.inputs.push_back(std::move(in));
      continue;
    }
    uint64_t record = 0;
    const auto [end, ec] = std::from_chars(f[3].data(), f[3].data() + f[3].size(), record);
    if (ec != std::errc() || end != f[3].data() + f[3].size()) {
      throw data_error(where + "the record column '" + std::string(f[3]) + "' is not a record number");
    }
    out.by_record[record] = {unescape_tsv(f[0]), n, false};
  }
  return out;
}

int run_filter(int argc, char** argv) {
  cxxopts::Options o(argv[0], filter_help);
  add_input_options(o);
  o.add_options("Filter")
    ("removed", "the removed list of gpudedup dedup --from-sketches", cxxopts::value<std::string>())
    ("shard", "the shard name the list gives these inputs (default: the inputs as given)",
     cxxopts::value<std::string>())
    ("o,output", "the shard's kept records, byte-for-byte, in input order; - is stdout; NAME.zst or NAME.gz "
     "compresses; Parquet input: its kept rows as Parquet", cxxopts::value<std::string>())
    ("output-dir", "instead of --output: the kept records of each input file in DIR/its name (its path in a "
     "folder given), compressed as that name says, Parquet as Parquet", cxxopts::value<std::string>())
    ("q,quiet", "no summary (lines of the list that match no record are still reported)");
  cxxopts::ParseResult r;
  if (!parse_or_help(o, argc, argv, r)) return 0;
  GD_EXPECTS(r.count("removed"), "--removed FILE is required: the removed list of dedup --from-sketches");
  GD_EXPECTS(r.count("output") + r.count("output-dir") == 1,
             "give --output FILE (the shard's kept records) or --output-dir DIR (one output per input file), one "
             "of them");
  InputOptions input = read_input_options(r);
  const size_t per_batch = batch_size(r);
  const std::string shard = r.count("shard") ? option<std::string>(r, "shard") : shard_name(input);
  const std::string removed_path = option<std::string>(r, "removed");

  std::vector<NamedPath> inputs = input_paths(input);
  inputs.push_back({"filter.removed", removed_path});
  const std::string output = r.count("output") ? option<std::string>(r, "output") : "";
  // Refused now, not after the work.
  const KeptFormat kept_as = output.empty() ? KeptFormat::records : kept_format(output, input);
  OutputSet files({{"filter.output", output}}, inputs);
  files.skip_outputs(input);
  RemovedLines removed = read_removed(removed_path, shard);

  RecordReader reader(input);
  std::optional<io::ShardOutputs> shards;  // checked against the inputs before the pass
  if (r.count("output-dir")) shards.emplace(files, reader, option<std::string>(r, "output-dir"), "filter.output_dir");
  std::vector<uint8_t> keep;
  std::vector<std::string> reports;
  uint64_t mismatched = 0, dropped = 0;
  InputBatch batch;
  ProgressReporter progress("gpudedup filter", !r.count("quiet"));
  uint64_t documents = 0;
  while (reader.next(batch, per_batch, batch_max_bytes)) {
    documents += batch.size();
    progress.update("filter", documents, "docs", reader.stats().bytes, read_fraction(reader));
    for (size_t i = 0; i < batch.size(); ++i) {
      const uint64_t record = batch.records[i];
      if (keep.size() <= record) keep.resize(record + 1, 0);
      keep[record] = 1;
      const auto it = removed.by_record.find(record);
      if (it == removed.by_record.end()) continue;
      Removal& x = it->second;
      // Record-number ids were renumbered over all the shards: only the record can match.
      const bool numbered = batch.ids[i] == std::to_string(record);
      if (x.id == batch.ids[i] || numbered) {
        x.found = true;
        keep[record] = 0;
        ++dropped;
        continue;
      }
      ++mismatched;
      x.found = true;  // reported here, not again as missing
      if (reports.size() < 5) {
        reports.push_back(removed_path + ":" + std::to_string(x.line) + ": record " + std::to_string(record) +
                          " of " + shard + " has id '" + batch.ids[i] + "', the list says '" + x.id + "': kept");
      }
    }
  }
  keep.resize(reader.stats().records, 0);
  // Before a byte is written: record numbers of another content would drop other records.
  if (!removed.inputs.empty()) check_sketched_shard(reader.files(), removed.inputs, shard, removed_path);
  uint64_t missing = 0;
  for (const auto& [record, x] : removed.by_record) {
    if (x.found) continue;
    ++missing;
    if (reports.size() < 5) {
      reports.push_back(removed_path + ":" + std::to_string(x.line) + ": id '" + x.id + "', record " +
                        std::to_string(record) + ": no such document in " + shard);
    }
  }
  const uint64_t not_found = missing + mismatched;
  if (not_found && input.strict) {
    throw data_error(std::to_string(not_found) + " lines of " + removed_path + " name no document of " + shard +
                     " (the first: " + reports.front() + "); nothing was written");
  }
  progress.update("write", documents, "docs", reader.stats().bytes, -1);
  try {
    if (shards) {
      shards->write_kept(reader, keep);
    } else {
      io::write_kept_output(reader, keep, *files.file("filter.output"), kept_as);
    }
  } catch (const data_error& e) {  // an input changed since the first pass, a failed write
    throw data_error(e.what() + files.failure_note());
  }
  files.commit();
  progress.finish();

  const InputStats& st = reader.stats();
  if (!r.count("quiet")) {
    std::fprintf(stderr, "gpudedup filter: %s: %llu records: kept %llu, removed %llu, skipped %llu\n", shard.c_str(),
                 (unsigned long long)st.records, (unsigned long long)(st.documents - dropped),
                 (unsigned long long)dropped, (unsigned long long)st.skipped);
  }
  for (const auto& line : reports) std::fprintf(stderr, "gpudedup filter: not found: %s\n", line.c_str());
  if (not_found > reports.size()) {
    std::fprintf(stderr, "gpudedup filter: ... and %llu more lines not found\n",
                 (unsigned long long)(not_found - reports.size()));
  }
  if (removed.inputs.empty()) {
    std::fprintf(stderr,
                 "gpudedup filter: note: %s carries no content checksum of shard '%s' (its sketch file is of "
                 "version 3, or the list was made by an older gpudedup): filter cannot check that the shard is the "
                 "one gpudedup sketch read; sketch it again and run dedup --from-sketches again to get the check\n",
                 removed_path.c_str(), shard.c_str());
  }
  if (removed.by_record.empty() && removed.other_shards > 0) {
    std::string names;
    for (const auto& n : removed.shard_names) names += (names.empty() ? "'" : ", '") + n + "'";
    std::fprintf(stderr,
                 "gpudedup filter: no line of %s names shard '%s' (it names %s...): give the inputs as "
                 "gpudedup sketch was given them, or --shard NAME; everything was kept\n",
                 removed_path.c_str(), shard.c_str(), names.c_str());
  }
  print_skipped("gpudedup filter", st);
  return 0;
}

}  // namespace

GD_REGISTER_COMMAND(filter, "filter", "copy a shard's records that a removed list (dedup --from-sketches) does not name",
                    run_filter);

}  // namespace gpudedup::cli

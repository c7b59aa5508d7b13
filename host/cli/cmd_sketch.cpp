// gpudedup sketch: MinHash signatures to a sketch file (docs/formats.md).
#include <iostream>

#include "gpudedup/engine.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/io.hpp"
#include "gpudedup/sketch_file.hpp"
#include "host/cli/command.hpp"
#include "host/cli/options.hpp"

namespace gpudedup::cli {
namespace {

int run_sketch(int argc, char** argv) {
  cxxopts::Options o(argv[0],
                     "Write MinHash signatures of every document to a binary sketch file.\n"
                     "\nexample:\n  gpudedup sketch corpus.jsonl --output corpus.sketch --num-perm 128\n");
  add_input_options(o);
  add_sketch_options(o);
  add_backend_options(o);
  o.add_options("Output")("o,output", "sketch file to write", cxxopts::value<std::string>())(
      "q,quiet", "no summary");
  cxxopts::ParseResult r;
  if (!parse_or_help(o, argc, argv, r)) return 0;
  GD_EXPECTS(r.count("output"), "--output FILE is required");
  Config config;
  read_sketch_options(r, config);
  read_backend_options(r, config);
  const InputOptions input = read_input_options(r);
  const size_t per_batch = batch_size(r);

  Engine engine(config);
  RecordReader reader(input);
  AtomicOutputFile file(r["output"].as<std::string>());
  SketchHeader header = SketchHeader::from_config(config);
  write_sketch_header(file.stream(), header);
  InputBatch batch;
  while (reader.next(batch, per_batch, batch_max_bytes)) {
    const Signatures sigs = engine.sketch(batch.docs);
    for (size_t i = 0; i < batch.size(); ++i) {
      write_sketch_record(file.stream(), batch.ids[i], sigs.row(i), sigs.num_perm);
    }
    header.documents += batch.size();
  }
  file.stream().seekp(0);  // the count is known only now
  write_sketch_header(file.stream(), header);
  file.commit();
  if (!r.count("quiet")) {
    const auto& st = reader.stats();
    std::cerr << "gpudedup sketch: " << header.documents << " signatures (P=" << config.minhash.num_perm
              << ", backend " << to_string(engine.backend()) << "), " << st.skipped << " records skipped\n";
    for (const auto& line : st.reports) std::cerr << "gpudedup sketch: skipped " << line << "\n";
  }
  return 0;
}

}  // namespace

GD_REGISTER_COMMAND(sketch, "sketch", "write MinHash signatures to a binary sketch file", run_sketch);

}  // namespace gpudedup::cli

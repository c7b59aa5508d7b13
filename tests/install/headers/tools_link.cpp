// Links against gpudedup::tools from the installed package: the exported target brings
// the core library and what the tools use (OpenMP, simdjson).
#include <gpudedup/corpus_gen.hpp>
#include <gpudedup/eval.hpp>

#include <sstream>

int main() {
  gpudedup::CorpusOptions o;
  o.documents = 20;
  std::ostringstream corpus, truth;
  gpudedup::CorpusGenerator(o).write(corpus, truth);
  return gpudedup::lsh_choices(0.8, 256, 1).empty() || corpus.str().empty() ? 1 : 0;
}

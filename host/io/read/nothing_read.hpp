#pragma once
// Why a run that read no document fails, in one wording for every route (one process,
// MPI ranks): a wrong field name, an empty or wrong file must not pass as an empty result.
#include <string>

#include "gpudedup/io.hpp"

namespace gpudedup::io {

/// "read no record from a.jsonl, b.jsonl: 2 files were skipped (the first: ...); nothing
/// was written", "... the input is empty ..." or "read no document from ...: all N records
/// were skipped (the first: ...) ...", from the inputs as given and what the pass counted.
std::string nothing_read_message(const InputOptions& in, const InputStats& st);

}  // namespace gpudedup::io

#pragma once
// The text replay run_dedup() gives a method (method.hpp): documents are records of the
// first pass, read again by RecordReader::read_texts.
#include <cstdint>
#include <vector>

#include "gpudedup/io.hpp"
#include "gpudedup/method.hpp"

namespace gpudedup::detail {

/// A replay over `reader` (exhausted, outliving the replay), document d being record
/// record_of[d] (ascending) of `records`.
TextReplay replay_documents(RecordReader& reader, const std::vector<uint64_t>& record_of, uint64_t records);

}  // namespace gpudedup::detail

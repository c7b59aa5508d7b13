#pragma once
// The text replay run_dedup() gives a method (method.hpp): documents are records of the
// first pass, read again by RecordReader::read_texts.
#include <cstdint>
#include <vector>

#include "gpudedup/io.hpp"
#include "gpudedup/method.hpp"
#include "host/pipeline/document_records.hpp"

namespace gpudedup::detail {

/// A replay over `reader` (exhausted, outliving the replay, as `documents` does), document
/// d being record documents.record_of(d) of `records`.
TextReplay replay_documents(RecordReader& reader, const DocumentRecords& documents, uint64_t records);

}  // namespace gpudedup::detail

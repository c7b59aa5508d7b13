// Documents to records and back for a replay of chosen texts (text_replay.hpp). Memory:
// one byte per record for the wanted mask.
#include "host/pipeline/text_replay.hpp"

namespace gpudedup::detail {

TextReplay replay_documents(RecordReader& reader, const DocumentRecords& documents, uint64_t records) {
  return [&reader, &documents, records](const std::vector<uint8_t>& wanted,
                                        const std::function<void(uint64_t, std::string_view)>& text) {
    std::vector<uint8_t> wanted_records(records, 0);
    documents.for_each([&](uint64_t d, uint64_t record) {
      if (d < wanted.size()) wanted_records[record] = wanted[d];
    });
    reader.read_texts(wanted_records, [&](uint64_t record, std::string_view t) {
      if (const auto d = documents.document_of(record)) text(*d, t);
    });
  };
}

}  // namespace gpudedup::detail

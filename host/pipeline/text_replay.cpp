// Documents to records and back for a replay of chosen texts (text_replay.hpp). Memory:
// one byte per record for the wanted mask; the records' order is the documents' order,
// so a record's document is found by binary search.
#include "host/pipeline/text_replay.hpp"

#include <algorithm>

namespace gpudedup::detail {

TextReplay replay_documents(RecordReader& reader, const std::vector<uint64_t>& record_of, uint64_t records) {
  return [&reader, &record_of, records](const std::vector<uint8_t>& wanted,
                                        const std::function<void(uint64_t, std::string_view)>& text) {
    std::vector<uint8_t> wanted_records(records, 0);
    for (size_t d = 0; d < wanted.size() && d < record_of.size(); ++d) wanted_records[record_of[d]] = wanted[d];
    reader.read_texts(wanted_records, [&](uint64_t record, std::string_view t) {
      const auto at = std::lower_bound(record_of.begin(), record_of.end(), record);
      if (at != record_of.end() && *at == record) text(uint64_t(at - record_of.begin()), t);
    });
  };
}

}  // namespace gpudedup::detail

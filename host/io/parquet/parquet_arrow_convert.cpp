// Copies Arrow string arrays into a DocumentBatch. A plain (large) string array is already
// in this layout: its bytes are copied in one piece and only the offsets are rebased.
#include "host/io/parquet/parquet_arrow_convert.hpp"

#include <arrow/array/array_dict.h>
#include <arrow/array/validate.h>
#include <arrow/scalar.h>
#include <arrow/visit_type_inline.h>

#include <string_view>

namespace gpudedup::io {
namespace {

template <class ArrayType>
void append_offset_strings(const ArrayType& a, DocumentBatch& out, std::vector<uint8_t>& null) {
  const int64_t n = a.length();
  if (n == 0) return;
  const auto* offsets = a.raw_value_offsets();  // n + 1 entries, already shifted by a.offset()
  const auto base = offsets[0];
  const uint64_t start = out.bytes.size();
  out.bytes.append(reinterpret_cast<const char*>(a.raw_data()) + base, size_t(offsets[n] - base));
  out.offsets.reserve(out.offsets.size() + size_t(n));
  for (int64_t i = 1; i <= n; ++i) out.offsets.push_back(start + uint64_t(offsets[i] - base));
  // A null's offsets span no bytes in valid Arrow data; its entry is empty either way.
  null.reserve(null.size() + size_t(n));
  for (int64_t i = 0; i < n; ++i) null.push_back(a.IsNull(i) ? 1 : 0);
}

void append_each(const arrow::Array& a, DocumentBatch& out, std::vector<uint8_t>& null,
                 std::string_view (*value)(const arrow::Array&, int64_t)) {
  for (int64_t i = 0; i < a.length(); ++i) {
    const bool is_null = a.IsNull(i);
    out.add(is_null ? std::string_view() : value(a, i));
    null.push_back(is_null ? 1 : 0);
  }
}

bool is_plain_string(arrow::Type::type id) {
  return id == arrow::Type::STRING || id == arrow::Type::LARGE_STRING || id == arrow::Type::STRING_VIEW;
}

std::string_view string_at(const arrow::Array& a, int64_t i) {
  switch (a.type_id()) {
    case arrow::Type::STRING: return static_cast<const arrow::StringArray&>(a).GetView(i);
    case arrow::Type::LARGE_STRING: return static_cast<const arrow::LargeStringArray&>(a).GetView(i);
    case arrow::Type::STRING_VIEW: return static_cast<const arrow::StringViewArray&>(a).GetView(i);
    default: return {};
  }
}

}  // namespace

bool is_string_type(const arrow::DataType& type) {
  if (is_plain_string(type.id())) return true;
  if (type.id() != arrow::Type::DICTIONARY) return false;
  return is_plain_string(static_cast<const arrow::DictionaryType&>(type).value_type()->id());
}

std::string append_strings(const arrow::Array& column, DocumentBatch& out, std::vector<uint8_t>& null) {
  switch (column.type_id()) {
    case arrow::Type::STRING:
      append_offset_strings(static_cast<const arrow::StringArray&>(column), out, null);
      return "";
    case arrow::Type::LARGE_STRING:
      append_offset_strings(static_cast<const arrow::LargeStringArray&>(column), out, null);
      return "";
    case arrow::Type::STRING_VIEW:
      append_each(column, out, null, string_at);
      return "";
    case arrow::Type::DICTIONARY: {
      const auto& dict = static_cast<const arrow::DictionaryArray&>(column);
      const arrow::Array& values = *dict.dictionary();
      if (!is_plain_string(values.type_id())) break;
      for (int64_t i = 0; i < dict.length(); ++i) {
        const bool is_null = dict.IsNull(i);
        out.add(is_null ? std::string_view() : string_at(values, dict.GetValueIndex(i)));
        null.push_back(is_null ? 1 : 0);
      }
      return "";
    }
    default:
      if (!arrow::is_integer(column.type_id())) break;
      for (int64_t i = 0; i < column.length(); ++i) {
        const bool is_null = column.IsNull(i);
        std::string digits;
        if (!is_null) {
          auto scalar = column.GetScalar(i);
          if (scalar.ok()) digits = (*scalar)->ToString();
        }
        out.add(digits);
        null.push_back(is_null ? 1 : 0);
      }
      return "";
  }
  return "a column of type " + column.type()->ToString() + ", where strings were expected";
}

arrow::Status validate_batch(const arrow::RecordBatch& batch) {
  ARROW_RETURN_NOT_OK(batch.Validate());  // O(1): the columns' lengths and types
  for (const auto& column : batch.columns()) ARROW_RETURN_NOT_OK(arrow::internal::ValidateArrayFull(*column));
  return arrow::Status::OK();
}

}  // namespace gpudedup::io

// Recursive-descent JSON (RFC 8259) over raw bytes: strings are copied byte for byte
// except for escapes, which are decoded (surrogate pairs joined).
#include "host/io/read/json_fallback.hpp"

#include <cstring>

namespace gpudedup::io {
namespace {

/// Deeper nesting is refused rather than risking the stack (simdjson's default is 1024).
constexpr int kMaxDepth = max_json_depth;

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Parser {
 public:
  explicit Parser(std::string_view s) : begin_(s.data()), p_(s.data()), end_(s.data() + s.size()) {}

  const std::string& error() const { return error_; }

  bool fail(const char* what) {
    if (error_.empty()) error_ = "malformed JSON at byte " + std::to_string(p_ - begin_ + 1) + ": " + what;
    return false;
  }

  /// After an object member or array element: ',' sets `more`, `close` clears it, and
  /// anything else fails with `what`.
  bool separator(char close, const char* what, bool& more) {
    skip_ws();
    more = peek(',');
    if (more || peek(close)) {
      ++p_;
      return true;
    }
    return fail(what);
  }

  void skip_ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }

  bool at_end() {
    skip_ws();
    return p_ == end_;
  }

  bool peek(char c) { return p_ < end_ && *p_ == c; }

  /// A string at p_ (which is '"'); decoded into `out` when it is not null.
  bool string(std::string* out) {
    ++p_;
    for (;;) {
      const char* run = p_;
      while (p_ < end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) ++p_;
      if (out) out->append(run, size_t(p_ - run));
      if (p_ == end_) return fail("unterminated string");
      if (*p_ == '"') {
        ++p_;
        return true;
      }
      if (*p_ != '\\') return fail("control character in a string (it must be escaped)");
      if (!escape(out)) return false;
    }
  }

  /// One escape at p_ (which is '\\').
  bool escape(std::string* out) {
    if (end_ - p_ < 2) return fail("unterminated escape");
    const char c = p_[1];
    char plain = 0;
    switch (c) {
      case '"': plain = '"'; break;
      case '\\': plain = '\\'; break;
      case '/': plain = '/'; break;
      case 'b': plain = '\b'; break;
      case 'f': plain = '\f'; break;
      case 'n': plain = '\n'; break;
      case 'r': plain = '\r'; break;
      case 't': plain = '\t'; break;
      case 'u': break;
      default: return fail("unknown escape in a string");
    }
    if (plain) {
      if (out) out->push_back(plain);
      p_ += 2;
      return true;
    }
    unsigned cp = 0;
    if (!hex4(p_ + 2, cp)) return fail("\\u must be followed by four hex digits");
    p_ += 6;
    if (cp >= 0xD800 && cp <= 0xDBFF && end_ - p_ >= 6 && p_[0] == '\\' && p_[1] == 'u') {
      unsigned low = 0;
      if (hex4(p_ + 2, low) && low >= 0xDC00 && low <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        p_ += 6;
      }
    }
    if (out) append_utf8(*out, cp);
    return true;
  }

  bool hex4(const char* q, unsigned& cp) {
    if (end_ - q < 4) return false;
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = hex_value(q[i]);
      if (h < 0) return false;
      cp = cp * 16 + unsigned(h);
    }
    return true;
  }

  bool literal(const char* word) {
    const size_t n = std::strlen(word);
    if (size_t(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return fail("unexpected word (expected true, false or null)");
    p_ += n;
    return true;
  }

  /// Any value at p_; its kind goes to `kind`, a string's decoded bytes to `str`, a
  /// number's text to `num` (each when not null).
  bool value(int depth, JsonKind* kind, std::string* str, std::string_view* num) {
    skip_ws();
    if (p_ == end_) return fail("expected a value");
    JsonKind k;
    switch (*p_) {
      case '{': k = JsonKind::object; if (!object(depth + 1)) return false; break;
      case '[': k = JsonKind::array; if (!array(depth + 1)) return false; break;
      case '"': k = JsonKind::string; if (!string(str)) return false; break;
      case 't': k = JsonKind::boolean; if (!literal("true")) return false; break;
      case 'f': k = JsonKind::boolean; if (!literal("false")) return false; break;
      case 'n': k = JsonKind::null; if (!literal("null")) return false; break;
      default: {
        const size_t n = json_number_length(std::string_view(p_, size_t(end_ - p_)));
        if (n == 0) return fail("unexpected character (expected a value)");
        k = JsonKind::number;
        if (num) *num = std::string_view(p_, n);
        p_ += n;
      }
    }
    if (kind) *kind = k;
    return true;
  }

  bool object(int depth) { return members(depth, nullptr); }

  /// The members of an object at p_ ('{'). With `top`, captures the text, id and metadata fields.
  struct Capture {
    const FieldNames* names;
    RecordFields* fields;
    std::string* text;
    std::string* id;
    std::string* key;
    std::string* element;  // scratch for a metadata string
    MetaElements* meta;
  };
  bool members(int depth, const Capture* top) {
    if (depth > kMaxDepth) return fail("nested too deeply");
    ++p_;
    skip_ws();
    if (peek('}')) {
      ++p_;
      return true;
    }
    std::string key;
    for (;;) {
      skip_ws();
      if (!peek('"')) return fail("expected a quoted key");
      std::string* k = top ? top->key : &key;
      k->clear();
      if (!string(k)) return false;
      skip_ws();
      if (!peek(':')) return fail("expected ':' after a key");
      ++p_;
      bool is_text = false, is_id = false, is_meta = false;
      if (top) {
        const FieldNames& n = *top->names;
        is_text = top->fields->text_kind == JsonKind::missing && *k == n.text;
        is_id = !n.id.empty() && top->fields->id_kind == JsonKind::missing && *k == n.id;
        is_meta = !n.meta.empty() && top->fields->meta_kind == JsonKind::missing && *k == n.meta;
      }
      if (is_text) {
        if (!value(depth, &top->fields->text_kind, top->text, nullptr)) return false;
        if (is_id) top->fields->id_kind = top->fields->text_kind, *top->id = *top->text;
      } else if (is_id) {
        std::string_view num;
        if (!value(depth, &top->fields->id_kind, top->id, &num)) return false;
        if (top->fields->id_kind == JsonKind::number) top->id->assign(num);
      } else if (is_meta) {
        skip_ws();
        if (peek('[')) {
          top->fields->meta_kind = JsonKind::array;
          if (!array(depth + 1, top)) return false;
        } else if (!value(depth, &top->fields->meta_kind, nullptr, nullptr)) {
          return false;
        }
      } else if (!value(depth, nullptr, nullptr, nullptr)) {
        return false;
      }
      bool more = false;
      if (!separator('}', "expected ',' or '}' after an object member", more)) return false;
      if (!more) return true;
    }
  }

  /// An array at p_ ('['). With `meta`, its string elements (decoded) and number
  /// elements (as written) are captured as the metadata set; other elements are skipped.
  bool array(int depth, const Capture* meta = nullptr) {
    if (depth > kMaxDepth) return fail("nested too deeply");
    ++p_;
    skip_ws();
    if (peek(']')) {
      ++p_;
      return true;
    }
    for (;;) {
      if (meta) {
        JsonKind kind = JsonKind::missing;
        std::string_view num;
        meta->element->clear();
        if (!value(depth, &kind, meta->element, &num)) return false;
        if (kind == JsonKind::string) meta->meta->add(*meta->element);
        else if (kind == JsonKind::number) meta->meta->add(num);
      } else if (!value(depth, nullptr, nullptr, nullptr)) {
        return false;
      }
      bool more = false;
      if (!separator(']', "expected ',' or ']' after an array element", more)) return false;
      if (!more) return true;
    }
  }

 private:
  const char* begin_;
  const char* p_;
  const char* end_;
  std::string error_;
};

}  // namespace

bool FallbackJsonParser::parse(std::string_view line, const FieldNames& names, RecordFields& fields,
                               std::string& problem) {
  fields = RecordFields{};
  text_.clear();
  id_.clear();
  meta_.clear();
  Parser p(line);
  p.skip_ws();
  if (!p.peek('{')) {
    // Valid JSON of another type gets a clearer message than a syntax error would.
    const bool valid = p.value(0, nullptr, nullptr, nullptr) && p.at_end();
    problem = valid || p.error().empty() ? "not a JSON object (each line must hold one {...} object)" : p.error();
    return false;
  }
  Parser::Capture cap{&names, &fields, &text_, &id_, &key_, &element_, &meta_};
  if (!p.members(1, &cap)) {
    problem = p.error();
    return false;
  }
  if (!p.at_end()) {
    p.fail("unexpected content after the object (one object per line)");
    problem = p.error();
    return false;
  }
  if (fields.text_kind == JsonKind::string) fields.text = text_;
  if (fields.id_kind == JsonKind::string || fields.id_kind == JsonKind::number) fields.id = id_;
  if (fields.meta_kind == JsonKind::array) fields.meta = &meta_;
  return true;
}

}  // namespace gpudedup::io

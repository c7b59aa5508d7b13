// XXH3 through libxxhash's header alone (XXH_INLINE_ALL): no library to link, in the
// program and in the Parquet module alike.
#include "host/io/read/content_checksum.hpp"

#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "gpudedup/errors.hpp"

namespace gpudedup::io {

struct ContentChecksum::State {
  XXH3_state_t hash;
  ByteSource* source = nullptr;  // the tap, owned by the reader of the input
  std::optional<uint64_t> value;
};

/// Passes reads through, hashing them; the first read that gives nothing ends the hash.
class ChecksumSource : public ByteSource {
 public:
  ChecksumSource(std::unique_ptr<ByteSource> raw, ContentChecksum::State& state) : raw_(std::move(raw)), state_(state) {}
  ~ChecksumSource() override { state_.source = nullptr; }
  size_t read(char* dst, size_t n) override {
    const size_t got = raw_->read(dst, n);
    if (got > 0) {
      XXH3_64bits_update(&state_.hash, dst, got);
    } else if (n > 0 && !state_.value) {
      state_.value = XXH3_64bits_digest(&state_.hash);
    }
    return got;
  }
  const std::string& name() const override { return raw_->name(); }

 private:
  std::unique_ptr<ByteSource> raw_;
  ContentChecksum::State& state_;
};

ContentChecksum::ContentChecksum() : state_(std::make_unique<State>()) { XXH3_64bits_reset(&state_->hash); }

ContentChecksum::~ContentChecksum() = default;

std::unique_ptr<ByteSource> ContentChecksum::tap(std::unique_ptr<ByteSource> raw) {
  auto source = std::make_unique<ChecksumSource>(std::move(raw), *state_);
  state_->source = source.get();
  return source;
}

void ContentChecksum::read_to_end() {
  if (!state_->source) return;
  std::vector<char> buffer(size_t(1) << 20);
  while (!state_->value) state_->source->read(buffer.data(), buffer.size());
}

std::optional<uint64_t> ContentChecksum::value() const { return state_->value; }

uint64_t checksum_of_file(const std::string& path) {
  ContentChecksum checksum;
  const std::unique_ptr<ByteSource> source = checksum.tap(open_file_source(path));
  checksum.read_to_end();
  return *checksum.value();
}

std::string changed_input_message(const std::string& name) {
  return name + " changed while gpudedup ran (its content differs from the first pass's); do not modify the inputs "
                "during a run";
}

}  // namespace gpudedup::io

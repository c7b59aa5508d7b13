// gpudedup::Index: a directory of immutable segments and a manifest that names them.
// Writes: new segment file -> fsync -> rename -> new manifest -> fsync -> rename. A crash
// anywhere leaves the previous manifest (and every batch it names) intact; leftovers are
// removed by the next writer to open the index.
#include "gpudedup/index.hpp"

#include <dirent.h>
#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>

#include "gpudedup/errors.hpp"
#include "host/device/resolve_backend.hpp"
#include "host/minhash/compute_backend.hpp"
#include "host/index/batch_matcher.hpp"
#include "host/index/durable_file.hpp"
#include "host/index/manifest.hpp"
#include "host/index/segment_reader.hpp"
#include "host/index/segment_writer.hpp"
#include "kernels/index/index_cuda.hpp"

namespace gpudedup {
namespace {

using detail::Manifest;
using detail::Segment;

struct Snapshot {
  Manifest manifest;
  std::vector<std::shared_ptr<const Segment>> segments;
  uint64_t documents = 0;
};

std::vector<std::string> list_dir(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  if (!d) throw data_error("cannot read folder " + dir + ": " + std::strerror(errno));
  while (dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  ::closedir(d);
  return names;
}

void require_index_folder(const std::string& dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw data_error("index folder " + dir + " does not exist: create it with `gpudedup index create " + dir + "`");
  }
}

Manifest read_manifest(const std::string& dir) {
  const std::string path = dir + "/" + detail::manifest_name;
  require_index_folder(dir);
  if (!detail::path_exists(path)) {
    throw data_error(dir + " is not a gpudedup index (it has no MANIFEST): create one with `gpudedup index create`");
  }
  return detail::decode_manifest(detail::read_whole_file(path), path);
}

// Tier of a segment for the merge policy: floor(log_width(documents)).
uint32_t tier_of(uint64_t documents) {
  uint32_t t = 0;
  for (uint64_t n = documents; n >= Index::merge_width; n /= Index::merge_width) ++t;
  return t;
}

}  // namespace

struct Index::Impl {
  std::string dir;
  IndexMode mode = IndexMode::read_only;
  detail::IndexParams params;
  uint64_t params_hash = 0;
  Config config;
  LshParams lsh;
  Backend backend = Backend::cpu;
  int threads = 1;
  detail::SketchSpec spec;
  std::unique_ptr<detail::ComputeBackend> compute;
  mutable std::mutex compute_mutex;  // a backend sketches one batch at a time
  std::unique_ptr<detail::BucketProbe> probe;
  mutable std::mutex probe_mutex;    // the CUDA probe keeps device state
  detail::WriterLock lock;
  mutable std::mutex snap_mutex;
  std::shared_ptr<const Snapshot> snap;
  std::mutex write_mutex;  // inserts and merges of this object, one at a time
  std::string broken;      // set when a published change could not be loaded back
  std::string merge_error; // the last tier merge that failed (the insert itself stood)
  uint64_t published_generation = 0;  // of the manifest this writer read or wrote last
  // Staged batches (begin_staging): segments under temporary names that only this
  // writer's view holds; `before_staging` is the view the disk still has.
  bool staging = false;
  std::shared_ptr<const Snapshot> before_staging;
  std::vector<std::string> staged_files;

  std::shared_ptr<const Snapshot> snapshot() const {
    std::lock_guard<std::mutex> g(snap_mutex);
    return snap;
  }

  // Opens the segments `m` names, reusing those of `old` that are still listed.
  std::shared_ptr<const Snapshot> load(const Manifest& m, const Snapshot* old) const {
    auto s = std::make_shared<Snapshot>();
    s->manifest = m;
    for (const auto& listed : m.segments) {
      std::shared_ptr<const Segment> seg;
      if (old) {
        for (const auto& o : old->segments) {
          if (o->path() == dir + "/" + listed.file && o->header().header_checksum == listed.header_checksum) seg = o;
        }
      }
      if (!seg) seg = Segment::open(dir + "/" + listed.file, listed, {params_hash, params.num_perm, lsh.bands, lsh.rows},
                                     m.first_document + s->documents);
      s->segments.push_back(seg);
      s->documents += listed.documents;
    }
    return s;
  }

  // A reader can race a compaction that deletes the segments of the manifest it just
  // read: read the manifest again and retry while it keeps changing.
  std::shared_ptr<const Snapshot> load_latest(const Snapshot* old) const {
    for (int attempt = 0;; ++attempt) {
      const Manifest m = read_manifest(dir);
      if (old && m.generation == old->manifest.generation) return nullptr;
      try {
        return load(m, old);
      } catch (const data_error&) {
        if (attempt >= 20 || read_manifest(dir).generation == m.generation) throw;
      }
    }
  }

  void sketch(const DocumentBatch& batch, std::vector<uint32_t>& sigs, std::vector<uint32_t>& sizes) const {
    sigs.resize(batch.size() * size_t(params.num_perm));
    sizes.resize(batch.size());
    if (batch.empty()) return;
    std::lock_guard<std::mutex> g(compute_mutex);
    compute->sketch(batch, sigs.data(), sizes.data(), nullptr);
  }

  std::vector<IndexAnswer> answer(const Snapshot& s, const std::vector<std::string>& ids,
                                  const std::vector<uint32_t>& sigs, const std::vector<uint32_t>& sizes) const {
    detail::MatchSettings ms{params.num_perm, lsh.bands, lsh.rows, config.threshold,
                             config.similarity == Similarity::containment, threads};
    std::vector<IndexAnswer> answers;
    {
      std::unique_lock<std::mutex> g(probe_mutex, std::defer_lock);
      if (backend == Backend::cuda) g.lock();
      std::vector<const Segment*> live;
      for (const auto& seg : s.segments) live.push_back(seg.get());
      probe->retain(live);
      answers = detail::match_batch(ms, *probe, s.segments, sigs, sizes);
    }
    for (auto& a : answers) {
      if (!a.duplicate) continue;
      a.match_id = a.in_batch ? ids[a.match] : id_of(s, a.match);
    }
    return answers;
  }

  static std::string id_of(const Snapshot& s, uint64_t doc) {
    auto it = std::upper_bound(s.segments.begin(), s.segments.end(), doc,
                               [](uint64_t d, const std::shared_ptr<const Segment>& seg) { return d < seg->first_doc(); });
    const uint64_t first = s.manifest.first_document;
    if (it == s.segments.begin() || doc < first || doc - first >= s.documents) {
      throw usage_error("no indexed document " + std::to_string(doc) + " (the index holds " +
                        std::to_string(s.documents) + ", numbered from " + std::to_string(first) + ")");
    }
    const Segment& seg = **(it - 1);
    return std::string(seg.id(doc - seg.first_doc()));
  }

  // Before a change is made visible: this writer still holds the lock, and the manifest
  // on disk is still the one it last published (a stolen lock let another writer in).
  void check_still_sole_writer() const {
    lock.check_still_held();
    const uint64_t on_disk = read_manifest(dir).generation;
    if (on_disk != published_generation) {
      throw data_error("index " + dir + " was changed by another writer (manifest generation " + std::to_string(on_disk) +
                       ", this writer published " + std::to_string(published_generation) +
                       "); nothing more was published by this one: open the index again");
    }
  }

  // Runs `step`, a write or rename after check_still_sole_writer(). A writer stopped in
  // between may find its temporary removed by the writer that took its lock meanwhile:
  // its failure then says that the lock was lost, not that a file was missing.
  template <class Step>
  void as_sole_writer(Step&& step) {
    try {
      step();
    } catch (...) {
      check_still_sole_writer();
      throw;
    }
  }

  void publish(Manifest m, const std::shared_ptr<const Snapshot>& old) {
    check_still_sole_writer();
    ++m.generation;
    detail::crash_point("manifest-before");
    as_sole_writer([&] { detail::write_file_durably(dir, detail::manifest_name, detail::encode_manifest(m)); });
    detail::crash_point("manifest-after");
    published_generation = m.generation;
    std::shared_ptr<const Snapshot> fresh;
    try {
      fresh = load(m, old.get());
    } catch (const std::exception& e) {
      // Published on disk but not loadable here: this writer's view is stale, so it must
      // not write again (it would publish a manifest that forgets the change).
      broken = std::string("index ") + dir + ": a change was published but could not be opened (" + e.what() +
               "); open the index again";
      throw data_error(broken);
    }
    std::lock_guard<std::mutex> g(snap_mutex);
    snap = fresh;
  }

  // Writes a segment through `write` under a temporary name and renames it into place.
  template <class WriteFn>
  detail::ManifestSegment write_segment_file(Manifest& m, uint64_t documents, WriteFn&& write) {
    check_still_sole_writer();
    const std::string name = detail::segment_name(m.next_segment++);
    // The manifest keeps live numbers below next_segment and the writer's open removed or
    // refused any file at or past it: a file here now is someone else's, never replaced.
    if (detail::path_exists(dir + "/" + name)) {
      throw data_error("index " + dir + " is corrupted: " + name + " exists although the manifest's next_segment names it as new; nothing was replaced: restore the index folder from a backup or rebuild it");
    }
    const std::string tmp = dir + "/" + detail::unique_temporary_name(name);
    detail::SegmentHeader h{};
    try {
      h = write(tmp);
      detail::crash_point("segment-written");
      check_still_sole_writer();
      detail::rename_no_replace(tmp, dir + "/" + name);
    } catch (...) {
      ::unlink(tmp.c_str());
      check_still_sole_writer();  // a stolen lock explains a temporary gone missing: say so
      throw;
    }
    detail::fsync_dir(dir);
    detail::crash_point("segment-renamed");
    return {name, documents, h.file_bytes, h.header_checksum};
  }

  detail::SegmentBase segment_base(uint64_t first_doc) const {
    return {params_hash, params.num_perm, lsh.bands, lsh.rows, first_doc};
  }

  void insert_rows(const std::vector<uint32_t>& sigs, const std::vector<uint32_t>& sizes,
                   const std::vector<std::string>& ids) {
    if (ids.empty()) return;
    auto old = snapshot();
    Manifest m = old->manifest;
    detail::SegmentRows rows{sigs.data(), sizes.data(), &ids, ids.size()};
    const auto base = segment_base(m.first_document + old->documents);
    if (staging) {
      stage_rows(m, old, base, rows);
      return;
    }
    m.segments.push_back(write_segment_file(m, ids.size(), [&](const std::string& path) {
      return detail::write_segment(path, base, rows, threads);
    }));
    publish(m, old);
    // The batch is committed now: a failed merge (a full disk, say) must not report the
    // insert as failed. It is remembered and retried after the next insert.
    try {
      merge_tiers();
      merge_error.clear();
    } catch (const data_error& e) {
      if (!broken.empty()) throw;
      merge_error = e.what();
    }
  }

  // A staged batch: a segment under a temporary name (a crash leaves only a temporary,
  // which the next writer removes), in this writer's view only.
  void stage_rows(Manifest m, const std::shared_ptr<const Snapshot>& old, const detail::SegmentBase& base,
                  const detail::SegmentRows& rows) {
    const uint64_t staged = old->documents - before_staging->documents;
    GD_EXPECTS(staged + rows.documents < UINT32_MAX,
               "index " + dir + ": one staged run holds fewer than 4294967295 documents: split the input into runs");
    const std::string name = detail::unique_temporary_name("staged");
    staged_files.push_back(name);
    const detail::SegmentHeader h = detail::write_segment(dir + "/" + name, base, rows, threads);
    detail::crash_point("staged-written");
    m.segments.push_back({name, rows.documents, h.file_bytes, h.header_checksum});
    auto fresh = load(m, old.get());
    std::lock_guard<std::mutex> g(snap_mutex);
    snap = fresh;
  }

  void drop_staged_files() noexcept {
    for (const auto& name : staged_files) ::unlink((dir + "/" + name).c_str());
    staged_files.clear();
  }

  // The staged batches become one segment, named by one new manifest: the index gains
  // all of them or none.
  void publish_staged() {
    const auto staged_view = snapshot();
    const auto base_view = before_staging;
    const size_t first = base_view->segments.size();
    if (staged_view->segments.size() == first) return;
    detail::crash_point("publish-staged");
    std::vector<std::shared_ptr<const Segment>> inputs(staged_view->segments.begin() + long(first),
                                                       staged_view->segments.end());
    const uint64_t documents = staged_view->documents - base_view->documents;
    Manifest m = base_view->manifest;
    if (inputs.size() == 1) {
      // One batch: its file is the segment; only its name changes.
      const auto& listed = staged_view->manifest.segments.back();
      const std::string name = detail::segment_name(m.next_segment++);
      check_still_sole_writer();
      as_sole_writer([&] { detail::rename_no_replace(dir + "/" + listed.file, dir + "/" + name); });
      staged_files.clear();
      detail::fsync_dir(dir);
      detail::crash_point("segment-renamed");
      m.segments.push_back({name, documents, listed.bytes, listed.header_checksum});
    } else {
      const auto seg_base = segment_base(inputs.front()->first_doc());
      m.segments.push_back(write_segment_file(m, documents, [&](const std::string& path) {
        return detail::merge_segments(path, seg_base, inputs, threads);
      }));
    }
    publish(m, base_view);
    drop_staged_files();
  }

  void check_writable() const {
    GD_EXPECTS(mode == IndexMode::read_write, "index " + dir + " is open read-only: open it for writing to change it");
    if (!broken.empty()) throw data_error(broken);
    lock.check_still_held();
  }

  // Merges segments [lo, hi) of the current snapshot into one. @return false when the
  // result would exceed a segment's 32-bit document numbers (nothing is done).
  bool merge_range(size_t lo, size_t hi) {
    auto old = snapshot();
    Manifest m = old->manifest;
    std::vector<std::shared_ptr<const Segment>> inputs(old->segments.begin() + long(lo), old->segments.begin() + long(hi));
    uint64_t documents = 0;
    for (const auto& s : inputs) documents += s->documents();
    if (documents >= UINT32_MAX) return false;
    const auto base = segment_base(inputs.front()->first_doc());
    auto merged = write_segment_file(m, documents, [&](const std::string& path) {
      return detail::merge_segments(path, base, inputs, threads);
    });
    std::vector<detail::ManifestSegment> removed(m.segments.begin() + long(lo), m.segments.begin() + long(hi));
    m.segments.erase(m.segments.begin() + long(lo), m.segments.begin() + long(hi));
    m.segments.insert(m.segments.begin() + long(lo), merged);
    publish(m, old);
    detail::crash_point("merge-published");
    for (const auto& r : removed) ::unlink((dir + "/" + r.file).c_str());
    detail::fsync_dir(dir);
    return true;
  }

  void merge_tiers() {
    if (staging) return;  // published segments stay as the disk has them until the batches are
    for (;;) {
      const auto s = snapshot();
      const auto& segs = s->manifest.segments;
      const size_t n = segs.size();
      if (n < merge_width) return;
      const uint32_t tier = tier_of(segs.back().documents);
      size_t run = 0;
      while (run < n && tier_of(segs[n - 1 - run].documents) == tier) ++run;
      if (run < merge_width || !merge_range(n - run, n)) return;
    }
  }

  // Writer open: removes what a crashed writer left (temporary files, segments that no
  // manifest names). A writer publishes after each segment it writes, so a crash leaves
  // at most one unlisted segment at or past next_segment, numbered next_segment; one
  // numbered past it belongs to a newer manifest (this one is older than the folder: a
  // manifest restored alone) and is never deleted: the open is refused. Readers never
  // delete anything.
  void remove_leftovers() {
    const auto s = snapshot();
    const Manifest& m = s->manifest;
    std::vector<std::string> leftovers;
    for (const auto& name : list_dir(dir)) {
      const bool listed = std::any_of(m.segments.begin(), m.segments.end(),
                                      [&](const detail::ManifestSegment& s) { return s.file == name; });
      const bool ours = name.rfind("seg-", 0) == 0 || (name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0);
      if (!ours || listed) continue;
      if (detail::segment_number(name) > m.next_segment) {
        throw data_error("index " + dir + " is corrupted: it holds " + name + ", newer than its manifest (next_segment " +
                         std::to_string(m.next_segment) + "), which is older than the segments; nothing was deleted: "
                         "restore the whole index folder from one backup, or open it read-only");
      }
      leftovers.push_back(name);
    }
    for (const auto& name : leftovers) ::unlink((dir + "/" + name).c_str());
    if (!leftovers.empty()) detail::fsync_dir(dir);
  }
};

Index::Index(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Index::~Index() {
  if (impl_ && impl_->staging) impl_->drop_staged_files();
}
Index::Index(Index&&) noexcept = default;
Index& Index::operator=(Index&&) noexcept = default;

Index Index::create(const std::string& dir, const Config& config) {
  config.validate();
  GD_EXPECTS(config.method == "minhash", "an index uses `method` minhash, got " + config.method);
  GD_EXPECTS(config.sampling.kind == SampleKind::none,
             "an index keeps MinHash signatures of whole shingle sets: `sampling.kind` is not supported");
  // auto (the default) is the estimate here: the index keeps no text to read again.
  GD_EXPECTS(config.verify == VerifyMode::estimate || config.verify == VerifyMode::automatic,
             "an index verifies by estimated similarity (`verify` estimate, or auto, which is the estimate there): "
             "it keeps signatures, not shingle sets");
  GD_EXPECTS(config.similarity == Similarity::jaccard || config.similarity == Similarity::containment,
             std::string("an index answers by jaccard or containment, not `similarity` ") + to_string(config.similarity));
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    throw data_error("cannot create index folder " + dir + ": " + std::strerror(errno));
  }
  // The lock first, so that two concurrent creates cannot both find the folder empty.
  detail::WriterLock lock(dir);
  if (detail::path_exists(dir + "/" + detail::manifest_name)) {
    throw usage_error(dir + " already holds an index: open it, or choose another folder");
  }
  for (const auto& name : list_dir(dir)) {
    // A create that crashed before its MANIFEST may have left STOPWORDS: start over.
    const bool temporary = name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0;
    if (name == detail::stop_words_name || (temporary && name.rfind(detail::stop_words_name, 0) == 0)) continue;
    if (name != "LOCK") throw usage_error("index folder " + dir + " is not empty (it holds " + name + "): choose an empty or new folder");
  }
  Manifest m;
  const LshParams lsh = config.lsh.bands ? score_lsh_params(config.threshold, config.lsh.bands, config.lsh.rows)
                                         : choose_lsh_params(config.threshold, config.minhash.num_perm,
                                                             config.lsh.false_positive_weight,
                                                             config.lsh.false_negative_weight);
  m.params = detail::IndexParams::from_config(config, lsh);
  m.first_document = config.first_document_number;
  if (m.params.stop_words_hash != 0) {
    std::string words;
    for (const auto& w : config.shingle.stop_words) words += w + "\n";
    detail::write_file_durably(dir, detail::stop_words_name, words);
  }
  detail::write_file_durably(dir, detail::manifest_name, detail::encode_manifest(m));
  IndexOpenOptions o;
  o.mode = IndexMode::read_write;
  o.backend = config.backend;
  o.threads = config.threads;
  o.device = config.device;
  auto impl = std::make_unique<Impl>();
  impl->lock = std::move(lock);
  return open_impl(dir, o, std::move(impl));
}

Index Index::open(const std::string& dir, const IndexOpenOptions& options) {
  auto impl = std::make_unique<Impl>();
  // Before the lock, whose file cannot be made in a missing folder: say what to do.
  require_index_folder(dir);
  if (options.mode == IndexMode::read_write) impl->lock = detail::WriterLock(dir);
  return open_impl(dir, options, std::move(impl));
}

Index Index::open_impl(const std::string& dir, const IndexOpenOptions& options, std::unique_ptr<Impl> impl) {
  Impl& s = *impl;
  s.dir = dir;
  s.mode = options.mode;
  const Manifest m = read_manifest(dir);
  s.params = m.params;
  s.params_hash = m.params.hash();

  Config& c = s.config;
  c.minhash.num_perm = m.params.num_perm;
  c.minhash.family = m.params.family;
  c.seed = m.params.seed;
  c.shingle.kind = m.params.shingle;
  c.shingle.ngram = m.params.ngram;
  c.shingle.remove_stop_words = m.params.remove_stop_words;
  c.shingle.stop_word_anchored = m.params.stop_word_anchored;
  c.shingle.normalize = m.params.normalize;
  c.shingle.tokenizer = m.params.tokenizer;
  if (m.params.stop_words_hash != 0) {
    const std::string text = detail::read_whole_file(dir + "/" + detail::stop_words_name);
    for (size_t at = 0; at < text.size();) {
      const size_t nl = text.find('\n', at);
      c.shingle.stop_words.push_back(text.substr(at, nl - at));
      at = nl == std::string::npos ? text.size() : nl + 1;
    }
  }
  c.lsh.bands = m.params.bands;
  c.lsh.rows = m.params.rows;
  c.threshold = options.threshold >= 0 ? options.threshold : m.params.threshold;
  c.similarity = m.params.similarity;
  c.backend = options.backend;
  c.threads = options.threads;
  c.device = options.device;
  c.validate();
  s.lsh = score_lsh_params(c.threshold, c.lsh.bands, c.lsh.rows);
  if (detail::IndexParams::from_config(c, s.lsh).stop_words_hash != m.params.stop_words_hash) {
    throw data_error("index " + dir + ": " + detail::stop_words_name +
                     " does not match the manifest: the folder is damaged; restore it or rebuild the index");
  }
  if (options.expect) {
    const Config& e = *options.expect;
    // Bands and rows are compared only when given: left automatic, they would follow
    // the expected config's threshold, which may differ (a threshold override).
    const LshParams elsh = e.lsh.bands ? LshParams{e.lsh.bands, e.lsh.rows, 0, 0}
                                       : LshParams{m.params.bands, m.params.rows, 0, 0};
    const std::string diff = detail::describe_param_mismatch(m.params, detail::IndexParams::from_config(e, elsh));
    if (!diff.empty()) {
      throw usage_error("index " + dir + " was built with other parameters; drop these options or use another index:\n" + diff);
    }
  }
  s.threads = c.threads > 0 ? c.threads : omp_get_max_threads();
  s.spec = detail::make_sketch_spec(c);
  s.backend = detail::resolve_backend(c.backend);
  const bool want_cuda = s.backend == Backend::cuda;
  s.compute = want_cuda ? detail::make_cuda_backend(s.spec) : detail::make_cpu_backend(s.spec);
  // CPU probes wait on page faults of a cold index more than they compute: 4 threads per
  // core keep more reads in flight (measured: 30.7 s -> 25.2 s for a cold 100M index).
  s.probe = want_cuda ? detail::make_cuda_bucket_probe(c.device, 4 * s.threads) : detail::make_cpu_bucket_probe(4 * s.threads);
  s.snap = s.load_latest(nullptr);
  s.published_generation = s.snap->manifest.generation;
  if (options.mode == IndexMode::read_write) s.remove_leftovers();
  return Index(std::move(impl));
}

std::vector<IndexAnswer> Index::query(const DocumentBatch& batch, const std::vector<std::string>& ids) const {
  GD_EXPECTS(ids.size() == batch.size(), "query: one id per document is needed");
  std::vector<uint32_t> sigs, sizes;
  impl_->sketch(batch, sigs, sizes);
  return impl_->answer(*impl_->snapshot(), ids, sigs, sizes);
}

void Index::insert(const DocumentBatch& batch, const std::vector<std::string>& ids) {
  GD_EXPECTS(ids.size() == batch.size(), "insert: one id per document is needed");
  std::lock_guard<std::mutex> g(impl_->write_mutex);
  impl_->check_writable();
  std::vector<uint32_t> sigs, sizes;
  impl_->sketch(batch, sigs, sizes);
  impl_->insert_rows(sigs, sizes, ids);
}

std::vector<IndexAnswer> Index::query_insert(const DocumentBatch& batch, const std::vector<std::string>& ids) {
  GD_EXPECTS(ids.size() == batch.size(), "query_insert: one id per document is needed");
  std::lock_guard<std::mutex> g(impl_->write_mutex);
  impl_->check_writable();
  std::vector<uint32_t> sigs, sizes;
  impl_->sketch(batch, sigs, sizes);
  auto answers = impl_->answer(*impl_->snapshot(), ids, sigs, sizes);
  // Keep the rows of the new documents only; their signatures are not computed again.
  const uint32_t P = impl_->params.num_perm;
  std::vector<uint32_t> new_sigs, new_sizes;
  std::vector<std::string> new_ids;
  for (size_t i = 0; i < answers.size(); ++i) {
    if (answers[i].duplicate) continue;
    new_sigs.insert(new_sigs.end(), sigs.begin() + long(i * P), sigs.begin() + long((i + 1) * P));
    new_sizes.push_back(sizes[i]);
    new_ids.push_back(ids[i]);
  }
  impl_->insert_rows(new_sigs, new_sizes, new_ids);
  return answers;
}

void Index::begin_staging() {
  std::lock_guard<std::mutex> g(impl_->write_mutex);
  impl_->check_writable();
  GD_EXPECTS(!impl_->staging, "index " + impl_->dir + ": batches are already being staged: publish or discard them first");
  impl_->before_staging = impl_->snapshot();
  impl_->staging = true;
}

void Index::publish_staged() {
  std::lock_guard<std::mutex> g(impl_->write_mutex);
  impl_->check_writable();
  GD_EXPECTS(impl_->staging, "index " + impl_->dir + ": no batches are staged (begin_staging first)");
  try {
    impl_->publish_staged();
  } catch (...) {
    impl_->drop_staged_files();
    impl_->staging = false;
    std::lock_guard<std::mutex> s(impl_->snap_mutex);
    if (impl_->broken.empty()) impl_->snap = impl_->before_staging;
    throw;
  }
  impl_->staging = false;
  impl_->before_staging.reset();
  try {
    impl_->merge_tiers();
    impl_->merge_error.clear();
  } catch (const data_error& e) {
    if (!impl_->broken.empty()) throw;
    impl_->merge_error = e.what();
  }
}

void Index::discard_staged() {
  std::lock_guard<std::mutex> g(impl_->write_mutex);
  if (!impl_->staging) return;
  impl_->drop_staged_files();
  impl_->staging = false;
  std::lock_guard<std::mutex> s(impl_->snap_mutex);
  impl_->snap = impl_->before_staging;
  impl_->before_staging.reset();
}

void Index::compact() {
  std::lock_guard<std::mutex> g(impl_->write_mutex);
  impl_->check_writable();
  GD_EXPECTS(!impl_->staging, "index " + impl_->dir + ": publish or discard the staged batches before compacting");
  // Merge everything, or as many consecutive segments as fit 32-bit document numbers.
  for (size_t lo = 0;;) {
    const auto s = impl_->snapshot();
    const size_t n = s->segments.size();
    if (lo + 1 >= n) return;
    size_t hi = lo;
    uint64_t docs = 0;
    while (hi < n && docs + s->segments[hi]->documents() < UINT32_MAX) docs += s->segments[hi++]->documents();
    if (hi - lo >= 2) impl_->merge_range(lo, hi);
    ++lo;
  }
}

bool Index::refresh() {
  if (impl_->mode == IndexMode::read_write) return false;  // the writer's view is always current
  auto old = impl_->snapshot();
  auto fresh = impl_->load_latest(old.get());
  if (!fresh) return false;
  std::lock_guard<std::mutex> g(impl_->snap_mutex);
  if (fresh->manifest.generation <= impl_->snap->manifest.generation) return false;  // a racing refresh won
  impl_->snap = fresh;
  return true;
}

void Index::verify() const {
  for (const auto& seg : impl_->snapshot()->segments) seg->verify_all();
}

IndexStats Index::stats() const {
  auto s = impl_->snapshot();
  IndexStats st;
  st.documents = s->documents;
  st.segments = s->segments.size();
  st.generation = s->manifest.generation;
  st.disk_bytes = detail::encode_manifest(s->manifest).size();
  for (const auto& seg : s->manifest.segments) {
    st.disk_bytes += seg.bytes;
    st.segment_documents.push_back(seg.documents);
  }
  st.bytes_per_document = st.documents ? double(st.disk_bytes) / double(st.documents) : 0;
  st.num_perm = impl_->params.num_perm;
  st.lsh = impl_->lsh;
  st.threshold = impl_->config.threshold;
  st.merge_error = impl_->merge_error;
  return st;
}

uint64_t Index::size() const { return impl_->snapshot()->documents; }
std::string Index::id(uint64_t doc) const { return Impl::id_of(*impl_->snapshot(), doc); }
const Config& Index::config() const { return impl_->config; }
const LshParams& Index::lsh_params() const { return impl_->lsh; }
Backend Index::backend() const { return impl_->backend; }
const std::string& Index::path() const { return impl_->dir; }

}  // namespace gpudedup

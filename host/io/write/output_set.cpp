// OutputSet: the outputs of one run checked against each other and against what the run
// was given before any is created, then committed all or none as far as POSIX allows.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <unordered_map>

#include "gpudedup/errors.hpp"
#include "gpudedup/io.hpp"
#include "host/io/read/file_name.hpp"
#include "host/io/write/output_target.hpp"
#include "host/io/write/write_failure.hpp"

namespace gpudedup {
namespace {

/// Something the run reads or keeps, as found before the run.
struct Given {
  NamedPath name;
  bool exists = false;
  bool regular = false;
  FileId id;
  std::string key;  ///< the path with its links resolved (kept folders only)
};

/// `with_key`: a folder whose contents are compared by path too.
Given examine(const NamedPath& n, bool with_key) {
  Given g;
  g.name = n;
  g.exists = io::identify(n.path, g.id, &g.regular);
  namespace fs = std::filesystem;
  std::error_code ec;
  if (with_key) g.key = fs::weakly_canonical(fs::absolute(n.path, ec), ec).generic_string();
  return g;
}

std::string quoted(const NamedPath& n) { return "`" + n.parameter + "`"; }

/// "the same file X", or "the same file (X and Y)" when they are spelled differently.
std::string same_file(const std::string& a, const std::string& b) {
  return "name the same file " + (a == b ? a : "(" + a + " and " + b + ")");
}

[[noreturn]] void clash(const NamedPath& out, const NamedPath& other, const std::string& why) {
  throw usage_error(quoted(out) + " and " + quoted(other) + " " + same_file(out.path, other.path) + ": " + why);
}

/// Whether `key` is `folder` or a path inside it.
bool inside(const std::string& key, const std::string& folder) {
  if (key.size() < folder.size() || key.compare(0, folder.size(), folder) != 0) return false;
  return key.size() == folder.size() || key[folder.size()] == '/' || folder == "/";
}

struct Output {
  bool lazy_output = false;  ///< added by add_outputs(): synced by the set, not one by one
  NamedPath name;
  io::OutputTarget target;
  std::unique_ptr<AtomicOutputFile> file;  ///< null once discarded, or not opened yet (lazy)
};

/// syncfs(2) once per file system holding an opened output of `outputs`: their bytes and
/// names reach the disk together, where an fsync of each file and folder would cost
/// minutes for 100,000 shards. @throws data_error naming an output of the failing one.
void sync_file_systems_of(const std::vector<Output>& outputs) {
  std::vector<uint64_t> done;
  std::string last;
  for (const Output& o : outputs) {
    if (!o.file || o.file->in_place()) continue;
    const std::string folder = io::folder_of(o.file->target());
    if (folder == last) continue;  // shards come folder by folder
    last = folder;
    const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) continue;  // the rename will say what is wrong with the folder
    struct stat st {};
    if (::fstat(fd, &st) == 0 && std::find(done.begin(), done.end(), uint64_t(st.st_dev)) == done.end()) {
      done.push_back(uint64_t(st.st_dev));
      if (::syncfs(fd) != 0) {
        const int err = errno;
        ::close(fd);
        throw data_error(io::write_failure(o.name.path + ": writing the output failed: syncfs", err));
      }
    }
    ::close(fd);
  }
}

/// "`p` a, `p` b, ... and N more": a failure among thousands of outputs stays readable.
std::string name_list(const std::vector<const Output*>& outputs) {
  constexpr size_t kNamed = 10;
  std::string list;
  for (size_t i = 0; i < outputs.size() && i < kNamed; ++i)
    list += (list.empty() ? "" : ", ") + quoted(outputs[i]->name) + " " + outputs[i]->name.path;
  if (outputs.size() > kNamed) list += " and " + std::to_string(outputs.size() - kNamed) + " more";
  return list;
}

/// Two outputs clash when one would replace or truncate the other's file. Descriptors
/// and devices are written in place: two of them on one node only interleave.
bool outputs_clash(const io::OutputTarget& a, const io::OutputTarget& b) {
  using Kind = io::OutputTarget::Kind;
  if (a.kind == Kind::file && b.kind == Kind::file && a.key == b.key) return true;
  if (!a.exists || !b.exists || !(a.id == b.id) || !a.regular) return false;
  return !(a.kind == Kind::descriptor && b.kind == Kind::descriptor);
}

}  // namespace

std::vector<NamedPath> input_paths(const InputOptions& input) {
  std::vector<NamedPath> named;
  for (const auto& p : input.paths) named.push_back({"input.paths", p});
  return named;
}

struct OutputSet::Impl {
  std::vector<Output> outputs;
  /// add_outputs(): opened one at a time by open(), committed before `outputs`.
  std::vector<Output> lazy;

  Output* find(const std::string& parameter) {
    for (auto& o : outputs)
      if (o.name.parameter == parameter) return &o;
    return nullptr;
  }

  void check(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& kept_folders) const {
    std::vector<Given> read, kept;
    for (const auto& n : inputs)
      if (!n.path.empty()) read.push_back(examine(n, false));
    for (const auto& n : kept_folders)
      if (!n.path.empty()) kept.push_back(examine(n, true));
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Output& o = outputs[i];
      for (size_t j = 0; j < i; ++j) {
        if (outputs_clash(outputs[j].target, o.target))
          clash(outputs[j].name, o.name, "each output needs a file of its own; give another path to one of them");
      }
      // A device or pipe read as input may be written as output (a terminal is both).
      for (const Given& g : read) {
        if (g.exists && g.regular && o.target.exists && o.target.id == g.id)
          clash(o.name, g.name, "an output never replaces what the run reads; write it to another path");
      }
      for (const Given& g : kept) {
        if (o.target.kind == io::OutputTarget::Kind::file && !g.key.empty() && inside(o.target.key, g.key))
          throw usage_error(quoted(o.name) + " " + o.name.path + " is inside " + quoted(g.name) + " " + g.name.path +
                            ", which holds only its own files; write it elsewhere");
      }
    }
  }

  /// The outputs still to commit: the lazy ones opened, then the others not discarded.
  std::vector<Output*> live() {
    std::vector<Output*> l;
    for (auto* group : {&lazy, &outputs})
      for (auto& o : *group)
        if (o.file) l.push_back(&o);
    return l;
  }
};

OutputSet::OutputSet(std::vector<NamedPath> outputs, std::vector<NamedPath> inputs,
                     std::vector<NamedPath> kept_folders)
    : impl_(std::make_unique<Impl>()) {
  auto& m = *impl_;
  for (auto& n : outputs) {
    if (n.path.empty()) continue;
    if (io::names_read_only_compression(n.path))
      throw usage_error(quoted(n) + " " + n.path + ": bzip2 and xz are read, not written; name the output .zst " +
                        "(zstd) or .gz (gzip), or give it no compression suffix");
    Output o;
    o.name = std::move(n);
    o.target = io::resolve_output(o.name.path);
    m.outputs.push_back(std::move(o));
  }
  m.check(inputs, kept_folders);
  // Opened in order; a failure destroys those opened before, removing their temporaries.
  for (auto& o : m.outputs) o.file = std::make_unique<AtomicOutputFile>(o.name.path);
}

OutputSet::~OutputSet() = default;

AtomicOutputFile* OutputSet::file(const std::string& parameter) {
  Output* o = impl_->find(parameter);
  return o ? o->file.get() : nullptr;
}

void OutputSet::skip_outputs(InputOptions& input) const {
  for (const auto& o : impl_->outputs)
    if (o.target.exists) input.skip_files.push_back(o.target.id);
}

void OutputSet::discard(const std::string& parameter) {
  if (Output* o = impl_->find(parameter)) o->file.reset();
}

size_t OutputSet::add_outputs(std::vector<NamedPath> added, const std::vector<std::string>& input_files) {
  auto& m = *impl_;
  // Hash sets, not the pairwise check: there may be 100,000 of them.
  std::unordered_map<std::string, NamedPath> keys;
  std::unordered_map<FileId, std::string, io::FileIdHash> read;
  for (const auto& path : input_files) {
    FileId id;
    bool regular = false;
    if (path != "-" && io::identify(path, id, &regular) && regular) read.emplace(id, path);
  }
  for (const auto& o : m.outputs)
    if (o.target.kind == io::OutputTarget::Kind::file) keys.emplace(o.target.key, o.name);
  // The outputs of one folder each name the input they are for (input_files in step):
  // two inputs with one relative name are named, not only the output they share.
  const bool one_per_input = input_files.size() == added.size();
  std::unordered_map<std::string, size_t> added_at;  // key -> index in `added`
  std::vector<Output> checked;  // joins the set only when all pass
  for (size_t i = 0; i < added.size(); ++i) {
    Output o;
    o.name = std::move(added[i]);
    o.target = io::resolve_output(o.name.path);
    if (o.target.kind == io::OutputTarget::Kind::file) {
      const auto [it, fresh] = keys.emplace(o.target.key, o.name);
      const auto [at, first_for_key] = added_at.emplace(o.target.key, i);
      if (!fresh && !first_for_key && one_per_input)
        throw usage_error(quoted(o.name) + " would write the outputs of " + input_files[at->second] + " and " +
                          input_files[i] + " to one file " + o.name.path +
                          " (the same relative name): give those inputs separate runs or output folders");
      if (!fresh) clash(it->second, o.name, "each output needs a file of its own; give another path to one of them");
    }
    if (o.target.exists && o.target.regular) {
      const auto it = read.find(o.target.id);
      if (it != read.end())
        clash(o.name, {"input.paths", it->second}, "an output never replaces what the run reads; write it to another path");
    }
    // Against the fixed outputs by identity too (a link among them).
    for (const auto& fixed : m.outputs)
      if (outputs_clash(fixed.target, o.target))
        clash(fixed.name, o.name, "each output needs a file of its own; give another path to one of them");
    checked.push_back(std::move(o));
  }
  const size_t first = m.lazy.size();
  for (auto& o : checked) {
    o.lazy_output = true;
    m.lazy.push_back(std::move(o));
  }
  return first;
}

AtomicOutputFile& OutputSet::open(size_t index) {
  Output& o = impl_->lazy.at(index);
  if (!o.file) {
    const std::string folder = io::folder_of(o.target.path);
    std::error_code ec;
    if (!folder.empty()) std::filesystem::create_directories(folder, ec);
    if (ec) throw data_error(o.name.path + ": cannot make its folder " + folder + ": " + ec.message());
    o.file = std::make_unique<AtomicOutputFile>(o.name.path);
    o.file->defer_sync();
  }
  return *o.file;
}

void OutputSet::close(size_t index) {
  Output& o = impl_->lazy.at(index);
  if (o.file) o.file->close();
}

std::string OutputSet::failure_note() const {
  std::vector<const Output*> touched_list;
  for (const Output* x : impl_->live())
    if (x->file->touched()) touched_list.push_back(x);
  const std::string touched = name_list(touched_list);
  return touched.empty() ? "; nothing was written"
                         : "; no file was replaced; written in place as the run went: " + touched;
}

void OutputSet::commit() {
  const std::vector<Output*> live = impl_->live();
  // Every temporary is written and synced before the first rename: a failure here
  // replaces nothing (an output written in place has had its bytes as they came).
  for (Output* o : live) {
    try {
      o->file->prepare();
    } catch (const data_error& e) {
      throw data_error(std::string(e.what()) + failure_note());
    }
  }
  // The outputs added later were written without an fsync each: one syncfs per file
  // system before the renames (their bytes) and one after (the renames).
  try {
    sync_file_systems_of(impl_->lazy);
  } catch (const data_error& e) {
    throw data_error(std::string(e.what()) + "; nothing was written");
  }
  for (size_t i = 0; i < live.size(); ++i) {
    if (i > 0 && live[i - 1]->lazy_output && !live[i]->lazy_output) sync_file_systems_of(impl_->lazy);
    try {
      live[i]->file->commit();
    } catch (const data_error& e) {
      std::vector<const Output*> written, not_written;
      for (size_t j = 0; j < live.size(); ++j) {
        if (j < i || live[j]->file->touched()) written.push_back(live[j]);
        else if (!live[j]->file->in_place()) not_written.push_back(live[j]);
      }
      throw data_error(std::string(e.what()) + "; written: " + (written.empty() ? "none" : name_list(written)) +
                       "; not written: " + name_list(not_written));
    }
  }
  if (!live.empty() && live.back()->lazy_output) sync_file_systems_of(impl_->lazy);
}

}  // namespace gpudedup

#pragma once
/// @file method.hpp
/// One shape for every dedup method. A method takes batches of documents and, at the end,
/// gives a DedupResult: the pairs that formed clusters and each document's representative.
/// The pipeline, the CLI and embedders reach every method the same way, through the
/// method table: make_method(config) builds the row named by Config::method. Adding a
/// method is a class derived from DedupMethod in a folder of its own, one row in the
/// table (host/pipeline/method_table.cpp) with its options (MethodEntry::options);
/// register_method() adds a row at run time (docs/architecture.md, "Adding a method").
///
/// @code
///   std::unique_ptr<DedupMethod> m = make_method(config);  // "minhash", "exact", "simhash", "bloom"
///   if (m->needs().prepass)
///     for (batch : corpus) m->prepass(batch);                // e.g. SimHash idf weights
///   for (batch : corpus) m->add(batch);                      // the text is not kept
///   DedupResult r = m->finish();                             // pairs, clusters
/// @endcode
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/document_batch.hpp"
#include "gpudedup/lsh.hpp"
#include "gpudedup/options.hpp"
#include "gpudedup/result.hpp"

namespace gpudedup {

/// What a method asks of whoever feeds it, declared rather than branched on.
struct MethodNeeds {
  /// Every batch once through prepass() before the first add() (SimHash's idf weights):
  /// the input is read twice, so it cannot be a stream.
  bool prepass = false;
  /// A JSON array field read with each record into the batch's metadata sets (SimHash's
  /// combined score); empty when the method reads none.
  std::string meta_field;
};

/// Another pass over the input for the texts of chosen documents (MinHash --verify auto
/// reads the documents of its borderline pairs again): calls text(d, t) for every document
/// d with wanted[d] != 0 (numbered as add() numbered them), in ascending order, t being the
/// text add() was given. May be called more than once. @throws data_error when the input
/// changed since it was read. MinHash calls it on the thread that calls finish().
using TextReplay = std::function<void(const std::vector<uint8_t>& wanted,
                                      const std::function<void(uint64_t document, std::string_view text)>& text)>;

/// A TextReplay that must run on the thread that calls finish(), as every replay MinHash
/// is given does now; kept so that a method that would read on another thread knows not
/// to. Python's replay is one: an interpreter handles signals (Ctrl-C) only on its main
/// thread.
struct CallersThreadReplay {
  std::function<void(const std::vector<uint8_t>&, const std::function<void(uint64_t, std::string_view)>&)> replay;
  void operator()(const std::vector<uint8_t>& wanted,
                  const std::function<void(uint64_t, std::string_view)>& text) const {
    replay(wanted, text);
  }
};

/// One entry of the stats file: a key and its value, already written as JSON.
struct StatsField {
  std::string key;
  std::string json;
};

/// A candidate pair's verdict from two rows (DistributedSteps::verify): borderline only
/// under a rule that decides such pairs by their texts (MinHash --verify auto).
enum class PairVerdict : uint8_t { fail, borderline, pass };

/// What DistributedSteps::verify says of a pair: its verdict and its similarity.
struct RowVerdict {
  PairVerdict verdict = PairVerdict::fail;
  double similarity = 0;
};

/// The local steps a method exposes to a distributed run (the MPI route, host/mpi): the
/// run feeds each process's share through the method's own add(), takes the rows it
/// sketched, and does the exchanges itself (band keys to their owners, rows fetched for
/// the pairs, components across processes). A method without a distributed form returns
/// none from DedupMethod::distributed(); only MinHash has one (docs/architecture.md).
class DistributedSteps {
 public:
  /// n rows of row_values() values each, and each document's set size (0: an empty
  /// document, in no bucket and never a near-duplicate).
  using RowSink = std::function<void(const uint32_t* rows, const uint32_t* set_sizes, size_t n)>;
  /// The sets of texts read again, built as the method builds them for the borderline
  /// rule: gathered, then built together and handed on in the order they were added.
  class TextSets {
   public:
    virtual ~TextSets() = default;
    /// Copies the text; true when enough are gathered to flush().
    virtual bool add(uint32_t document, std::string_view text) = 0;
    /// take(document, set) for every text gathered, in order; then empty.
    virtual void flush(const std::function<void(uint32_t document, std::vector<uint64_t>& set)>& take) = 0;
  };

  virtual ~DistributedSteps() = default;
  /// Values of one document's row.
  virtual uint32_t row_values() const = 0;
  /// From now on add() hands every batch's rows to `sink` instead of holding them: the
  /// distributed run holds them (in memory or spilled, by its own limit per process).
  virtual void send_rows_to(RowSink sink) = 0;
  /// The bands of the candidate step.
  virtual LshParams bands() const = 0;
  /// The key of band `band` of a row: documents sharing a key are candidates.
  virtual uint64_t band_key(const uint32_t* row, uint32_t band) const = 0;
  /// Verifies a candidate pair from its two rows and set sizes.
  virtual RowVerdict verify(const uint32_t* row_a, uint32_t size_a, const uint32_t* row_b, uint32_t size_b) const = 0;
  /// The borderline rule: a container for the sets of texts read again, and whether a
  /// borderline pair with these sorted sets passes.
  virtual std::unique_ptr<TextSets> text_sets() const = 0;
  virtual bool exact_passes(const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb) const = 0;
};

/// Thread safety: one thread at a time per object. A method (MinHashEngine,
/// SimHashEngine, BloomEngine, the exact method, any registered one) is not
/// synchronized: calls on one object, const ones included, must not overlap; separate
/// objects may be used from separate threads. Each call parallelizes its own work
/// (Config::threads), and an exception inside that work, std::bad_alloc included,
/// reaches the caller; the object is then unusable except for destruction.
class DedupMethod {
 public:
  virtual ~DedupMethod() = default;

  /// The backend in use: never Backend::automatic.
  virtual Backend backend() const = 0;
  /// What the caller must provide beyond the texts.
  virtual MethodNeeds needs() const { return {}; }
  /// First pass over the corpus (needs().prepass): sees every batch before add().
  virtual void prepass(const DocumentBatch& docs);
  /// Sketches a batch and adds it; `meta` holds one set per document when
  /// needs().meta_field is set and is ignored otherwise. The text is not kept.
  /// @return the number of the batch's first document (counted from
  /// Config::first_document_number). @throws data_error when the run would hold more than
  /// max_run_documents (document_number.hpp).
  virtual uint64_t add(const DocumentBatch& docs, const MetadataBatch& meta) = 0;
  /// add() without metadata.
  uint64_t add(const DocumentBatch& docs) { return add(docs, MetadataBatch{}); }
  /// Documents added so far (a count, not a number).
  virtual uint64_t size() const = 0;
  /// Finds, verifies and clusters the pairs of everything added.
  virtual DedupResult finish() = 0;
  /// Gives the method a way to read texts again at finish() (run_dedup() gives one over
  /// its input). A method that uses it says in its docs what it does without one; the
  /// default ignores it.
  virtual void set_text_replay(TextReplay replay);
  /// The method's steps in a distributed run (DistributedSteps), owned by the method;
  /// null (the default) for a method with no distributed form.
  virtual DistributedSteps* distributed();

  /// The method's own entries of the stats file (the shared ones are the pipeline's).
  virtual std::vector<StatsField> stats_fields(const DedupResult& result) const;
  /// Lines that describe the run's parameters and counts, for a person (the CLI summary).
  virtual std::vector<std::string> describe(const DedupResult& result) const = 0;
};

/// A row of the method table.
struct MethodEntry {
  std::string name;         ///< Config::method
  std::string description;  ///< one line, for --help and the docs
  /// Groups of Config that this method reads beyond the shared values (threshold, seed,
  /// shingle, backend, threads, device, all_pairs): "lsh", "verify", "similarity",
  /// "sampling", "simhash", "bloom", "memory" (memory_limit, temp_dir). A front end refuses options of the groups that the
  /// chosen method does not read, instead of ignoring them.
  std::vector<std::string> reads;
  /// Checks the method's own values of a Config (the shared ones are checked already);
  /// may be empty. @throws usage_error.
  std::function<void(const Config&)> validate;
  /// Builds the method for a validated Config.
  std::function<std::unique_ptr<DedupMethod>(const Config&)> make;
  /// The method's own options (options.hpp), each of a group in `reads`: they join
  /// option_table(), so the program has their flags and Python their keywords.
  std::vector<OptionRow> options;
};

/// The method table, a copy: the built-in methods, then any registered ones.
std::vector<MethodEntry> method_table();
/// The row named `name` (rows are never removed, so the reference stays valid).
/// @throws usage_error naming the methods there are.
const MethodEntry& find_method(const std::string& name);
/// Adds a row. @throws usage_error when the name is taken or `make` is empty.
void register_method(MethodEntry entry);
/// Validates `config` and builds the method it names.
/// @throws usage_error for a bad config, an unknown method, or backend cuda without a device.
std::unique_ptr<DedupMethod> make_method(const Config& config);

}  // namespace gpudedup

#pragma once
/// @file document_number.hpp
/// The number that names a document: its place in input order over the whole corpus (all
/// shards, MPI ranks and staged runs together), 64-bit in every result, output and API.
#include <cstdint>

namespace gpudedup {

/// A document's number. Each run numbers its documents from Config::first_document_number
/// (0 for a whole corpus in one process; an MPI rank's or a shard's first document
/// otherwise), so numbers past 2^32 need no 2^32 documents in one process.
using doc_number = uint64_t;

/// The most documents one run holds (one process, one MPI rank's share, one engine). The
/// per-document arrays of the hot stages (band key entries, sort payloads, union-find)
/// keep 32-bit indices local to the run, counted from its first document number, so a
/// document costs the same memory as before 64-bit numbers; the largest local index,
/// 2^32 - 2, leaves 2^32 - 1 free as a "no document" mark. More documents need MPI ranks,
/// each under this bound (docs/scaling.md).
constexpr uint64_t max_run_documents = 4294967295u;  // 2^32 - 1

}  // namespace gpudedup

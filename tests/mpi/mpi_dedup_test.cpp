// `mpirun -np N gpudedup dedup` against the single-process run of the same job: the kept
// records byte for byte, the removed list and the clusters, for N = 1..4, on planted and
// random corpora; and a failing rank ends the job naming itself, with no output left.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#ifdef GPUDEDUP_HAVE_MPI
#include "host/mpi/distributed_borderline.hpp"
#endif
#include "host/mpi/input_share.hpp"
#include "host/mpi/mpi_dedup.hpp"
#include "support/files.hpp"
#include "support/mpi_runs.hpp"
#include "support/index_test_support.hpp"
#include "support/program.hpp"

namespace {

using index_test::join;
using index_test::near_copy;
using index_test::random_words;
using test_support::TempDir;

std::string json_line(const std::string& text, const std::string& id = "") {
  std::string line = "{";
  if (!id.empty()) line += "\"id\": \"" + id + "\", ";
  return line + "\"text\": \"" + text + "\"}\n";
}

/// Runs dedup over `shards` with the three outputs under `out` (created), through mpirun
/// with `ranks` ranks, or directly when ranks == 0. Returns the exit code; `err` gets stderr.
int dedup(const std::vector<std::string>& shards, const std::string& out, int ranks, const std::string& extra = "",
          std::string* err = nullptr) {
  std::filesystem::create_directories(out);
  std::string args;
  for (const auto& s : shards) args += " " + s;
  args += " --quiet -o " + out + "/kept.jsonl --removed " + out + "/removed.tsv --clusters " + out +
          "/clusters.jsonl --stats " + out + "/stats.json " + extra;
  std::string command = test_support::program_path() + " dedup" + args;
  if (ranks > 0) {
    command = test_support::under_mpirun(ranks, command);
  }
  const std::string log = out + "/stderr.log";
  const int code = test_support::run_shell(command + " 2>" + log);
  if (err) *err = test_support::read_file(log);
  return code;
}

/// Single-process outputs equal those of 1, 2, 3 and 4 ranks with the same options.
void expect_same_for_all_ranks(const TempDir& dir, const std::vector<std::string>& shards,
                               const std::string& extra = "") {
  const std::string single = dir.path("single");
  ASSERT_EQ(dedup(shards, single, 0, extra), 0)
      << test_support::read_file(single + "/stderr.log");
  ASSERT_NE(test_support::read_file(single + "/removed.tsv"), "") << "the corpus must have duplicates";
  for (int n = 1; n <= 4; ++n) {
    const std::string out = dir.path("ranks" + std::to_string(n));
    std::string err;
    ASSERT_EQ(dedup(shards, out, n, extra, &err), 0) << err;
    for (const char* file : {"kept.jsonl", "removed.tsv", "clusters.jsonl"}) {
      EXPECT_EQ(test_support::read_file(out + "/" + file), test_support::read_file(single + "/" + file))
          << file << " with " << n << " ranks";
    }
  }
}

/// Whole inputs only: the input ranges [first, last) of each rank.
std::vector<size_t> whole_bounds(const std::vector<std::vector<gpudedup::mpi::SharePiece>>& share, size_t inputs) {
  std::vector<size_t> bounds;
  size_t next = 0;
  for (const auto& pieces : share) {
    bounds.push_back(pieces.empty() ? next : pieces.front().input);
    for (const auto& p : pieces) {
      EXPECT_TRUE(p.lines.whole());
      EXPECT_EQ(p.input, next);
      next = p.input + 1;
    }
  }
  bounds.push_back(next);
  EXPECT_EQ(next, inputs);
  return bounds;
}

TEST(MpiInputShare, WholeFilesContiguousBalancedAndComplete) {
  std::vector<gpudedup::mpi::ShareInput> inputs;
  for (uint64_t s : {100, 100, 100, 100, 0, 400, 1, 1}) inputs.push_back({s, false});
  for (int ranks = 1; ranks <= 9; ++ranks) {
    const auto b = whole_bounds(gpudedup::mpi::share_inputs(inputs, ranks), inputs.size());
    ASSERT_EQ(b.size(), size_t(ranks) + 1);
    EXPECT_EQ(b.front(), 0u);
    uint64_t total = 0;
    for (const auto& in : inputs) total += in.bytes;
    for (int r = 0; r < ranks; ++r) {
      ASSERT_LE(b[r], b[r + 1]);
      uint64_t share = 0;
      for (size_t i = b[r]; i < b[r + 1]; ++i) share += inputs[i].bytes;
      // A share exceeds its slice by at most half an input on each side.
      EXPECT_LE(share, total / ranks + 400) << ranks << " ranks, rank " << r;
    }
  }
  EXPECT_EQ(whole_bounds(gpudedup::mpi::share_inputs({}, 3), 0), (std::vector<size_t>{0, 0, 0, 0}));
  EXPECT_EQ(whole_bounds(gpudedup::mpi::share_inputs({{0, true}, {0, true}, {0, false}, {0, false}}, 2), 4),
            (std::vector<size_t>{0, 2, 4}));
}

// A splittable input larger than a slice is cut at the slices' bounds: its ranges tile it
// (each ends where the next begins), sit on consecutive ranks in input order, and every
// rank's bytes are its slice's within half a whole input.
TEST(MpiInputShare, LargeFilesSplitAtSliceBounds) {
  using gpudedup::mpi::ShareInput;
  const std::vector<std::vector<ShareInput>> cases = {
      {{1000, true}},
      {{10, false}, {1000, true}, {7, true}, {300, false}, {999, true}},
      {{500, false}, {1000, true}},  // not splittable: a compressed file, a folder
      {{3, true}, {3, true}, {3, true}},
  };
  for (const auto& inputs : cases) {
    uint64_t total = 0;
    for (const auto& in : inputs) total += in.bytes;
    for (int ranks = 1; ranks <= 7; ++ranks) {
      // An input read whole sticks out of its rank's slice by at most half its bytes on
      // each side.
      uint64_t largest_whole = 0;
      for (const auto& in : inputs) {
        if (!in.splittable || in.bytes * ranks <= total) largest_whole = std::max(largest_whole, in.bytes);
      }
      const auto share = gpudedup::mpi::share_inputs(inputs, ranks);
      ASSERT_EQ(share.size(), size_t(ranks));
      std::vector<std::vector<gpudedup::LineRange>> ranges(inputs.size());
      size_t last_input = 0;
      for (int r = 0; r < ranks; ++r) {
        uint64_t bytes = 0;
        for (const auto& p : share[r]) {
          EXPECT_GE(p.input, last_input) << "input order";
          last_input = p.input;
          ranges[p.input].push_back(p.lines);
          const uint64_t end = std::min<uint64_t>(p.lines.end, inputs[p.input].bytes);
          bytes += end - p.lines.begin;
        }
        EXPECT_LE(bytes, total / ranks + 1 + largest_whole) << ranks << " ranks, rank " << r;
      }
      for (size_t i = 0; i < inputs.size(); ++i) {
        const auto& rs = ranges[i];
        ASSERT_FALSE(rs.empty()) << "input " << i << " has no rank";
        if (rs.size() == 1) {
          EXPECT_TRUE(rs[0].whole());
          continue;
        }
        EXPECT_TRUE(inputs[i].splittable);
        EXPECT_GT(inputs[i].bytes * ranks, total) << "only a file larger than a slice is split";
        EXPECT_EQ(rs.front().begin, 0u);
        EXPECT_EQ(rs.back().end, UINT64_MAX);
        for (size_t k = 0; k + 1 < rs.size(); ++k) {
          EXPECT_LT(rs[k].begin, rs[k].end);
          EXPECT_EQ(rs[k].end, rs[k + 1].begin) << "ranges tile the file";
        }
      }
    }
  }
}

#ifdef GPUDEDUP_HAVE_MPI
// The exact check's rounds: in order, the wanted pairs only, each round holding the sets of
// its distinct documents within the budget (a pair alone may pass it) and as long as the
// budget allows (the next wanted pair would not fit); every wanted pair in one round.
TEST(MpiBorderlineRounds, TakeTheWantedPairsWithinTheBudget) {
  using gpudedup::mpi::BorderlinePair;
  std::mt19937_64 rng(17);
  std::vector<BorderlinePair> pairs;
  for (uint64_t a = 0; a < 300; ++a) {
    for (int k = 0; k < 1 + int(rng() % 3); ++k) {
      const uint64_t b = a + 1 + rng() % 50;
      pairs.push_back({a, b, uint32_t(1 + a % 97), uint32_t(1 + b % 97)});
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const BorderlinePair& x, const BorderlinePair& y) {
    return x.a != y.a ? x.a < y.a : x.b < y.b;
  });
  auto bytes_of = [&](const std::vector<size_t>& round) {
    std::map<uint64_t, uint64_t> sets;
    for (size_t i : round) {
      sets[pairs[i].a] = 8 * uint64_t(pairs[i].size_a);
      sets[pairs[i].b] = 8 * uint64_t(pairs[i].size_b);
    }
    uint64_t bytes = 0;
    for (const auto& [doc, b] : sets) bytes += b;
    return bytes;
  };
  for (const bool every : {true, false}) {
    auto wanted = [&](const BorderlinePair& p) { return every || (p.a + p.b) % 3 != 0; };
    for (uint64_t budget : {uint64_t(1), uint64_t(2000), uint64_t(20000), uint64_t(1) << 40}) {
      std::vector<std::vector<size_t>> rounds;
      size_t next = 0;
      for (auto r = gpudedup::mpi::next_round(pairs, &next, budget, wanted); !r.empty();
           r = gpudedup::mpi::next_round(pairs, &next, budget, wanted)) {
        rounds.push_back(r);
      }
      EXPECT_EQ(next, pairs.size());
      std::vector<size_t> taken, expected;
      for (size_t i = 0; i < pairs.size(); ++i) {
        if (wanted(pairs[i])) expected.push_back(i);
      }
      for (size_t r = 0; r < rounds.size(); ++r) {
        taken.insert(taken.end(), rounds[r].begin(), rounds[r].end());
        if (rounds[r].size() > 1) EXPECT_LE(bytes_of(rounds[r]), budget) << "round " << r << ", budget " << budget;
        if (r + 1 < rounds.size()) {
          auto more = rounds[r];
          more.push_back(rounds[r + 1].front());
          EXPECT_GT(bytes_of(more), budget) << "round " << r << " could hold the next pair";
        }
      }
      EXPECT_EQ(taken, expected) << "budget " << budget;
      if (budget == 1) EXPECT_EQ(rounds.size(), expected.size());
      if (budget == uint64_t(1) << 40) EXPECT_EQ(rounds.size(), 1u);
    }
  }
  size_t next = 0;
  EXPECT_TRUE(gpudedup::mpi::next_round({}, &next, 100, [](const BorderlinePair&) { return true; }).empty());
}
#endif

// Planted: a cluster with a member in every shard (so on every rank), documents identical
// across shards, a shard that is empty and a large shard that leaves some rank nothing
// with 4 ranks; ids are record numbers over all shards (no --id-field).
TEST(MpiDedup, PlantedCorpusEqualsSingleProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(7);
  const auto spanning = random_words(rng, 60);
  const auto identical = join(random_words(rng, 50));
  std::vector<std::string> shards;
  for (int s = 0; s < 5; ++s) {
    std::string body;
    const int docs = s == 3 ? 0 : s == 4 ? 400 : 30;
    for (int d = 0; d < docs; ++d) {
      std::string text = join(random_words(rng, 40));
      if (d == 5) text = join(near_copy(rng, spanning, 2));
      if (d == 9) text = identical;
      if (d % 11 == 3 && d > 0) text = join(near_copy(rng, spanning, 1));
      const std::string id = s < 3 ? "s" + std::to_string(s) + "-" + std::to_string(d) : "";
      body += json_line(text, id);
    }
    // The large shard is a folder, read whole (only a file is split into line ranges).
    shards.push_back(s == 4 ? dir.write("shard4/part.jsonl", body), dir.path("shard4")
                            : dir.write("shard" + std::to_string(s) + ".jsonl", body));
  }
  // With 4 ranks the large last shard leaves a rank with nothing to read.
  gpudedup::InputOptions input;
  input.paths = shards;
  const auto share = gpudedup::mpi::share_inputs(gpudedup::mpi::describe_inputs(input, 4), 4);
  bool some_rank_empty = false;
  for (const auto& pieces : share) some_rank_empty |= pieces.empty();
  ASSERT_TRUE(some_rank_empty);
  expect_same_for_all_ranks(dir, shards);
  // The planted cluster has a member in every shard with documents, so on every rank
  // that reads one: documents 5, 35, 65 and 95 (ids are record numbers over all shards,
  // which each rank renumbers from its first record).
  const std::string clusters = test_support::read_file(dir.path("ranks4/clusters.jsonl"));
  const size_t at = clusters.find("\"representative\": \"3\"");
  ASSERT_NE(at, std::string::npos) << clusters;
  const std::string line = clusters.substr(at, clusters.find('\n', at) - at);
  for (const char* member : {"\"5\"", "\"35\"", "\"65\"", "\"95\""}) {
    EXPECT_NE(line.find(member), std::string::npos) << member << " in " << line;
  }
}

/// `documents` random documents, a third of them near-copies of earlier ones, each in a
/// random one of `shard_count` shards r0.jsonl, r1.jsonl, ... (ids: record numbers).
std::vector<std::string> random_shards(const TempDir& dir, std::mt19937_64& rng, size_t shard_count, int documents) {
  std::vector<std::vector<std::string>> docs;
  std::vector<std::string> bodies(shard_count);
  for (int d = 0; d < documents; ++d) {
    std::vector<std::string> words = random_words(rng, 30 + rng() % 30);
    if (!docs.empty() && rng() % 3 == 0) words = near_copy(rng, docs[rng() % docs.size()], rng() % 3);
    docs.push_back(words);
    bodies[rng() % bodies.size()] += json_line(join(words));
  }
  std::vector<std::string> shards;
  for (size_t s = 0; s < bodies.size(); ++s) shards.push_back(dir.write("r" + std::to_string(s) + ".jsonl", bodies[s]));
  return shards;
}

// Random: near-copies of earlier documents at random places in random shards, with
// --verify none too (every candidate an edge).
TEST(MpiDedup, RandomCorporaEqualSingleProcess) {
  SKIP_WITHOUT_MPI();
  for (uint64_t seed : {11, 12}) {
    TempDir dir;
    std::mt19937_64 rng(seed);
    const auto shards = random_shards(dir, rng, 3 + rng() % 4, 600);
    expect_same_for_all_ranks(dir, shards, seed == 12 ? "--verify none --threshold 0.7" : "");
  }
}

// --sketch oph (one permutation hashing): the ranks sketch, band and verify (with its
// wider borderline margin) as one process does.
TEST(MpiDedup, OphSketchEqualsSingleProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(17);
  expect_same_for_all_ranks(dir, random_shards(dir, rng, 3, 400), "--sketch oph");
}

// --sketch fss: the same through the ranks (its own family's rows and margin).
TEST(MpiDedup, FssSketchEqualsSingleProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(19);
  expect_same_for_all_ranks(dir, random_shards(dir, rng, 3, 400), "--sketch fss");
}

// Numbered from 2^32 - 5 (--first-document-number): each rank numbers from there plus the
// counts before it, so the record-number ids past 2^32 are the single process's.
TEST(MpiDedup, NumbersFromAnOffsetEqualSingleProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(13);
  const auto shards = random_shards(dir, rng, 3, 200);
  expect_same_for_all_ranks(dir, shards, "--first-document-number 4294967291");
  const std::string removed = test_support::read_file(dir.path("ranks3/removed.tsv"));
  EXPECT_NE(removed.find("\t42949673"), std::string::npos) << removed;  // a representative past 2^32
  EXPECT_NE(test_support::read_file(dir.path("ranks3/stats.json")).find("\"first_document_number\": 4294967291"),
            std::string::npos);
}

// A bucket of more than 64 members: one process verifies a window (each member's 8
// predecessors) and then completes the bucket against the clusters it holds; the ranks
// verify every pair of such a bucket. Both give the components of all passing pairs.
// One band of two rows puts a copy of X, 100 copies of T and the other copy of X in one
// bucket; X is T plus a few words, so no T passes with an X at 0.99 and the second X's
// window holds only T's: the two X's are joined only by the completion.
TEST(MpiDedup, LargeBucketsEqualSingleProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(7);
  const std::string t = join(random_words(rng, 300));
  const std::string x = t + " " + join(random_words(rng, 9));
  std::vector<std::string> bodies(3);
  bodies[0] = json_line(x, "x0");
  for (int i = 0; i < 100; ++i) bodies[1 + i % 2] += json_line(t, "t" + std::to_string(i));
  bodies[2] += json_line(x, "x1");
  std::vector<std::string> shards;
  for (size_t s = 0; s < bodies.size(); ++s) shards.push_back(dir.write("b" + std::to_string(s) + ".jsonl", bodies[s]));
  expect_same_for_all_ranks(dir, shards, "--id-field id --threshold 0.99 --bands 1 --rows 2");
  const std::string removed = test_support::read_file(dir.path("single/removed.tsv"));
  ASSERT_NE(removed.find("x1\tx0"), std::string::npos) << "the seed must put both X's and the T's in one bucket:\n"
                                                        << removed;
}

/// The line of `key` in the stats file at `path` ("no KEY" when it has none).
std::string stats_line(const std::string& path, const std::string& key) {
  const std::string stats = test_support::read_file(path);
  const size_t at = stats.find("\"" + key + "\"");
  return at == std::string::npos ? "no " + key : stats.substr(at, stats.find('\n', at) - at);
}

// --verify auto, the default: pairs whose estimate lies within the margin of the threshold
// are decided by the exact similarity of their shingle sets, read again by the ranks that
// own the documents. Near-copies with 16 of 200 words replaced are near the threshold of
// 0.8: the estimate passes some that fail exactly and fails some that pass, so the answer
// of --verify estimate differs. Each pair's documents are in different inputs read by
// different ranks (the copies gzip); a large folder between them leaves a rank of 4 with
// nothing to read.
TEST(MpiDedup, BorderlinePairsDecidedExactlyEqualSingleProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(31);
  std::string originals, copies, others;
  for (int i = 0; i < 60; ++i) {
    const auto words = random_words(rng, 200);
    originals += json_line(join(words));
    copies += json_line(join(near_copy(rng, words, 16)));
  }
  for (int i = 0; i < 600; ++i) others += json_line(join(random_words(rng, 100)));
  dir.write("originals.jsonl", originals);
  dir.write("others/part.jsonl", others);
  dir.write("copies.jsonl", copies);
  ASSERT_EQ(test_support::run_shell("gzip -n " + dir.path("copies.jsonl")), 0);
  const std::vector<std::string> shards = {dir.path("originals.jsonl"), dir.path("others"),
                                           dir.path("copies.jsonl.gz")};
  gpudedup::InputOptions input;
  input.paths = shards;
  for (int ranks = 2; ranks <= 4; ++ranks) {
    const auto share = gpudedup::mpi::share_inputs(gpudedup::mpi::describe_inputs(input, ranks), ranks);
    bool some_rank_empty = false, copies_apart = true;
    for (const auto& pieces : share) {
      some_rank_empty |= pieces.empty();
      bool originals_here = false, copies_here = false;
      for (const auto& p : pieces) {
        originals_here |= p.input == 0;
        copies_here |= p.input == 2;
      }
      copies_apart &= !(originals_here && copies_here);
    }
    EXPECT_TRUE(copies_apart) << ranks << " ranks: each pair's documents on two ranks";
    EXPECT_EQ(some_rank_empty, ranks == 4);
  }
  ASSERT_EQ(dedup(shards, dir.path("estimate"), 0, "--verify estimate"), 0);
  // The single process reads the texts again too (--verify-memory 0; by default it keeps
  // its first pass's sets), so that its reread counts are comparable with the ranks'.
  expect_same_for_all_ranks(dir, shards, "--verify-memory 0");
  const std::string single = dir.path("single/stats.json");
  EXPECT_NE(test_support::read_file(dir.path("estimate/removed.tsv")),
            test_support::read_file(dir.path("single/removed.tsv")))
      << "the exact check must change the answer on this corpus";
  const std::string checked = stats_line(single, "verify_exact_pairs");
  const std::string passed = stats_line(single, "verify_exact_passed");
  ASSERT_NE(checked, "\"verify_exact_pairs\": 0,") << "no borderline pair";
  ASSERT_NE(passed, "\"verify_exact_passed\": 0,") << "no borderline pair passed exactly";
  // No borderline pair here is inside a component of passing pairs, so the counts are
  // those of one process (docs/scaling.md).
  for (int ranks = 1; ranks <= 4; ++ranks) {
    const std::string stats = dir.path("ranks" + std::to_string(ranks) + "/stats.json");
    for (const char* key : {"verify", "verify_margin", "verify_skipped_joined", "verify_borderline_pairs",
                            "verify_exact_pairs",
                            "verify_exact_passed", "verify_by_estimate", "verify_reread_documents",
                            "verify_reread_passes"}) {
      EXPECT_EQ(stats_line(stats, key), stats_line(single, key)) << ranks << " ranks";
    }
  }
}

/// The counts of a stats file (its lines from "records" to "input_bytes"; not seconds),
/// "pairs" (the pairs that joined clusters) included.
std::string stats_counts(const std::string& path) {
  const std::string stats = test_support::read_file(path);
  const size_t from = stats.find("\"records\""), to = stats.find("\"method\"");
  if (from == std::string::npos || to == std::string::npos) return "no stats in " + path;
  return stats.substr(from, to - from);
}

/// JSONL lines from `line` until the text is `bytes` long exactly: the last line is a
/// document padded by a field of its own, ended by a newline or not.
std::string exact_segment(std::mt19937_64& rng, size_t bytes, const std::function<std::string()>& line,
                          bool end_with_newline = true) {
  std::string out;
  for (std::string next = line(); out.size() + next.size() + 200 <= bytes; next = line()) out += next;
  std::string last = "{\"text\": \"" + join(random_words(rng, 12)) + "\", \"pad\": \"";
  const std::string close = end_with_newline ? "\"}\n" : "\"}";
  if (out.size() + last.size() + close.size() > bytes) return "segment too short for its padding";
  last += std::string(bytes - out.size() - last.size() - close.size(), 'p') + close;
  return out + last;
}

// One large JSONL file split into line ranges across 2..4 ranks: the answer and the counts
// of the single-process run. It opens with a byte order mark, has CRLF and LF lines, blank
// lines, malformed records (counted once), a cluster and identical documents across every
// range, and a last line without a newline; with 2 ranks the range bound falls just after
// a newline, with 4 ranks one falls on a newline byte.
TEST(MpiDedup, OneLargeFileSplitIntoLineRangesEqualsSingleProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(21);
  const auto spanning = random_words(rng, 60);
  const std::string identical = join(random_words(rng, 50));
  int n = 0;
  auto line = [&]() -> std::string {
    ++n;
    if (n % 17 == 0) return "{\"text\": broken record " + std::to_string(n) + "\n";
    if (n % 13 == 0) return n % 2 ? "\n" : "   \r\n";
    std::string text = join(random_words(rng, 40));
    if (n % 11 == 3) text = join(near_copy(rng, spanning, 1));
    if (n % 23 == 9) text = identical;
    return "{\"text\": \"" + text + "\"}" + (n % 3 == 0 ? "\r\n" : "\n");
  };
  const size_t L = 40000;  // half the file; a multiple of 4
  std::string body = "\xEF\xBB\xBF" + exact_segment(rng, L / 2 + 1 - 3, line);  // its last '\n' at L / 2
  body += exact_segment(rng, L / 2 - 1, line);
  body += exact_segment(rng, L, line, false);
  ASSERT_EQ(body.size(), 2 * L);
  ASSERT_EQ(body[L / 2], '\n');
  ASSERT_EQ(body[L - 1], '\n');
  ASSERT_NE(body.back(), '\n');
  const std::string big = dir.write("big.jsonl", body);
  gpudedup::InputOptions input;
  input.paths = {big};
  for (int ranks = 2; ranks <= 4; ++ranks) {
    const auto share = gpudedup::mpi::share_inputs(gpudedup::mpi::describe_inputs(input, ranks), ranks);
    ASSERT_EQ(share.back().size(), 1u);
    EXPECT_FALSE(share.back()[0].lines.whole()) << ranks << " ranks: the file is split";
  }
  expect_same_for_all_ranks(dir, {big});
  const std::string single = stats_counts(dir.path("single/stats.json"));
  size_t broken = 0;
  for (size_t at = 0; (at = body.find("broken record", at)) != std::string::npos; ++at) ++broken;
  ASSERT_GE(broken, 3u);
  EXPECT_NE(single.find("\"skipped\": " + std::to_string(broken) + ","), std::string::npos) << single;
  for (int ranks = 1; ranks <= 4; ++ranks) {
    EXPECT_EQ(stats_counts(dir.path("ranks" + std::to_string(ranks) + "/stats.json")), single) << ranks << " ranks";
  }
}

/// Every file under `root`, by its path there, with its bytes.
std::map<std::string, std::string> tree(const std::string& root) {
  std::map<std::string, std::string> files;
  if (!std::filesystem::exists(root)) return files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.is_regular_file()) {
      files[std::filesystem::relative(e.path(), root).generic_string()] = test_support::read_file(e.path().string());
    }
  }
  return files;
}

/// dedup with --output-dir OUT/kept (and --removed, --clusters), over mpirun with `ranks`
/// ranks, or directly when 0. Returns the exit code; `err` gets stderr.
int dedup_to_dir(const std::vector<std::string>& inputs, const std::string& out, int ranks, const std::string& extra,
                 std::string* err) {
  std::filesystem::create_directories(out);
  std::string command = test_support::program_path() + " dedup --quiet --output-dir " + out + "/kept --removed " +
                        out + "/removed.tsv --clusters " + out + "/clusters.jsonl " + extra;
  for (const auto& in : inputs) command += " " + in;
  if (ranks > 0) {
    command = test_support::under_mpirun(ranks, command);
  }
  const int code = test_support::run_shell(command + " 2>" + out + "/stderr.log");
  *err = test_support::read_file(out + "/stderr.log");
  return code;
}

// A bad record under --strict in the last shard (read by the last rank): the job ends
// with that rank's number and the file:line, a non-zero exit, and no output at all
// (with --output-dir: not a file of any rank, nor a part).
TEST(MpiDedup, FailingRankEndsTheJobWithNoOutput) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(3);
  std::vector<std::string> shards;
  for (int s = 0; s < 3; ++s) {
    std::string body;
    for (int d = 0; d < 20; ++d) body += json_line(join(random_words(rng, 30)));
    if (s == 2) body += "{\"text\": broken\n";
    shards.push_back(dir.write("f" + std::to_string(s) + ".jsonl", body));
  }
  const std::string out = dir.path("out");
  std::string err;
  const int code = dedup(shards, out, 3, "--strict", &err);
  EXPECT_NE(code, 0);
  EXPECT_NE(err.find("rank 2 of 3"), std::string::npos) << err;
  EXPECT_NE(err.find("f2.jsonl:21"), std::string::npos) << err;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    EXPECT_EQ(entry.path().filename(), "stderr.log") << "left behind: " << entry.path();
  }
  EXPECT_NE(dedup_to_dir(shards, dir.path("dir"), 3, "--strict", &err), 0);
  EXPECT_NE(err.find("rank 2 of 3"), std::string::npos) << err;
  const auto left = tree(dir.path("dir"));
  EXPECT_EQ(left.size(), 1u) << "left behind: " << (left.empty() ? "" : left.rbegin()->first);
}

// The same in the last range of one large file: the message gives the file's line number,
// which the rank counts from the newlines of the ranges before its own.
TEST(MpiDedup, FailingRangeNamesTheFilesLine) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(5);
  std::string body;
  for (int d = 0; d < 90; ++d) body += json_line(join(random_words(rng, 30)));
  const size_t bad_line = 87;
  size_t at = 0;
  for (size_t l = 1; l < bad_line; ++l) at = body.find('\n', at) + 1;
  body.insert(at, "{\"text\": broken\n");
  const std::string out = dir.path("out");
  std::string err;
  EXPECT_NE(dedup({dir.write("big.jsonl", body)}, out, 3, "--strict", &err), 0);
  EXPECT_NE(err.find("rank 2 of 3"), std::string::npos) << err;
  EXPECT_NE(err.find("big.jsonl:" + std::to_string(bad_line) + ":"), std::string::npos) << err;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    EXPECT_EQ(entry.path().filename(), "stderr.log") << "left behind: " << entry.path();
  }
}

// (--pairs without --all-pairs and a Parquet --output: tests/mpi/mpi_outputs_test.cpp.)
TEST(MpiDedup, RefusesOtherMethods) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string shard = dir.write("a.jsonl", json_line("one two three") + json_line("one two three"));
  std::string err;
  EXPECT_EQ(dedup({shard}, dir.path("simhash"), 2, "--method simhash", &err), 2);
  EXPECT_NE(err.find("--method simhash does not run under MPI"), std::string::npos) << err;
  EXPECT_NE(err.find("the methods that run under MPI: minhash;"), std::string::npos) << err;
  EXPECT_EQ(dedup({shard}, dir.path("exact"), 2, "--verify exact", &err), 2);
  EXPECT_NE(err.find("--verify exact does not run under MPI: every pair of a large bucket"), std::string::npos) << err;
}

// --output-dir under MPI: each rank writes the outputs of the inputs it read (a folder's
// files, a gzip file compressed again by its name), rank 0 joins the ranges of a split
// file; the outputs are those of one process for 1-4 ranks.
TEST(MpiDedup, OutputDirEqualsSingleProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(9);
  const auto spanning = random_words(rng, 60);
  auto body = [&](int docs) {
    std::string text;
    for (int d = 0; d < docs; ++d) {
      text += json_line(d % 4 == 1 ? join(near_copy(rng, spanning, 1)) : join(random_words(rng, 40)));
    }
    return text;
  };
  dir.write("in/folder/a.jsonl", body(20));
  dir.write("in/folder/sub/b.jsonl", body(15));
  dir.write("in/folder/c.txt", join(near_copy(rng, spanning, 0)));  // one document
  dir.write("in/small.jsonl", body(12));
  dir.write("in/packed.jsonl", body(25));
  ASSERT_EQ(test_support::run_shell("gzip -n " + dir.path("in/packed.jsonl")), 0);
  dir.write("in/big.jsonl", body(150));
  const std::vector<std::string> inputs = {dir.path("in/folder"), dir.path("in/small.jsonl"),
                                           dir.path("in/packed.jsonl.gz"), dir.path("in/big.jsonl")};
  std::string err;
  ASSERT_EQ(dedup_to_dir(inputs, dir.path("single"), 0, "", &err), 0) << err;
  const auto single = tree(dir.path("single"));
  ASSERT_EQ(single.count("kept/big.jsonl"), 1u);
  ASSERT_EQ(single.count("kept/packed.jsonl.gz"), 1u);
  ASSERT_EQ(single.count("kept/sub/b.jsonl"), 1u);
  ASSERT_NE(single.at("removed.tsv"), "");
  for (int n = 1; n <= 4; ++n) {
    const std::string out = dir.path("ranks" + std::to_string(n));
    ASSERT_EQ(dedup_to_dir(inputs, out, n, "", &err), 0) << err;
    auto got = tree(out);
    got["stderr.log"] = single.at("stderr.log");
    for (const auto& [name, bytes] : single) {
      EXPECT_EQ(got.count(name), 1u) << name << " missing with " << n << " ranks";
      EXPECT_TRUE(got[name] == bytes) << name << " differs with " << n << " ranks";
    }
    EXPECT_EQ(got.size(), single.size()) << n << " ranks";
  }
}

}  // namespace

// Typed MPI collectives with byte counts (exchange.hpp).
#include "host/mpi/exchange.hpp"

#include <algorithm>
#include <climits>

#include "gpudedup/errors.hpp"

namespace gpudedup::mpi {

Exchange::Exchange() {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
}

void Exchange::exchange_bytes(const void* send, size_t item, const std::vector<uint64_t>& counts, const char* what,
                              std::vector<uint64_t>* recv_counts, const std::function<void*(size_t)>& alloc) {
  // Items travel as one contiguous MPI type of `item` bytes, so the int counts and
  // displacements of MPI_Alltoallv count items, not bytes.
  MPI_Datatype type;
  MPI_Type_contiguous(int(item), MPI_BYTE, &type);
  MPI_Type_commit(&type);
  std::vector<uint64_t> in(ranks_);
  MPI_Alltoall(counts.data(), 1, MPI_UINT64_T, in.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
  std::vector<int> sc(ranks_), sd(ranks_), rc(ranks_), rd(ranks_);
  uint64_t s_total = 0, r_total = 0;
  for (int r = 0; r < ranks_; ++r) {
    sd[r] = int(s_total);
    rd[r] = int(r_total);
    sc[r] = int(counts[r]);
    rc[r] = int(in[r]);
    s_total += counts[r];
    r_total += in[r];
  }
  if (s_total > uint64_t(INT_MAX) || r_total > uint64_t(INT_MAX)) {
    MPI_Type_free(&type);
    throw data_error(std::string("the ") + what + " exchange holds more than 2^31 items on one rank: run more ranks");
  }
  void* recv = alloc(size_t(r_total));
  MPI_Alltoallv(send, sc.data(), sd.data(), type, recv, rc.data(), rd.data(), type, MPI_COMM_WORLD);
  MPI_Type_free(&type);
  sent_[what] += (s_total - counts[rank_]) * item;  // what leaves this rank
  if (recv_counts) *recv_counts = std::move(in);
}

uint64_t Exchange::exclusive_sum(uint64_t mine) {
  uint64_t before = 0;
  MPI_Exscan(&mine, &before, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return rank_ == 0 ? 0 : before;  // MPI leaves rank 0's result undefined
}

std::vector<uint64_t> Exchange::exclusive_sums(const std::vector<uint64_t>& mine) {
  std::vector<uint64_t> before(mine.size(), 0);
  MPI_Exscan(mine.data(), before.data(), int(mine.size()), MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (rank_ == 0) std::fill(before.begin(), before.end(), 0);  // undefined there
  return before;
}

uint64_t Exchange::sum(uint64_t mine) {
  uint64_t all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

uint64_t Exchange::max(uint64_t mine) {
  uint64_t all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  return all;
}

double Exchange::max(double mine) {
  double all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return all;
}

std::vector<uint64_t> Exchange::all_gather(uint64_t mine) {
  std::vector<uint64_t> all(ranks_);
  MPI_Allgather(&mine, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
  return all;
}

std::vector<std::string> Exchange::gather_to_root(const std::string& mine, const char* what) {
  if (mine.size() > size_t(INT_MAX)) {
    throw data_error(std::string("the ") + what + " gathered from one rank exceed 2 GiB: run more ranks");
  }
  const int n = int(mine.size());
  std::vector<int> sizes(rank_ == 0 ? ranks_ : 0), displs(sizes.size());
  MPI_Gather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (rank_ == 0) {
    uint64_t total = 0;
    for (int r = 0; r < ranks_; ++r) {
      displs[r] = int(total);
      total += uint64_t(sizes[r]);
    }
    if (total > uint64_t(INT_MAX)) throw data_error(std::string("the ") + what + " gathered exceed 2 GiB");
    all.resize(total);
  }
  MPI_Gatherv(mine.data(), n, MPI_BYTE, all.data(), sizes.data(), displs.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
  if (rank_ != 0 && !mine.empty()) sent_[what] += mine.size();  // named in the report once it moved bytes
  std::vector<std::string> parts;
  for (int r = 0; r < int(sizes.size()); ++r) parts.push_back(all.substr(size_t(displs[r]), size_t(sizes[r])));
  return parts;
}

void Exchange::barrier() { MPI_Barrier(MPI_COMM_WORLD); }

int owner_of(const std::vector<uint64_t>& firsts, uint64_t doc) {
  // The last rank whose first document is <= doc (empty ranks share their first with the
  // next rank; upper_bound skips them).
  return int(std::upper_bound(firsts.begin(), firsts.end(), doc) - firsts.begin()) - 1;
}

}  // namespace gpudedup::mpi

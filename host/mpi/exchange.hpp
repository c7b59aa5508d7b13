#pragma once
// The MPI collectives the driver uses, typed, with the bytes each rank sends counted by
// exchange name (docs/scaling.md reports them). Plain MPI underneath: MPI_Alltoall for
// the counts, MPI_Alltoallv for the data, MPI_Exscan, MPI_Allreduce, MPI_Gatherv.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace gpudedup::mpi {

class Exchange {
 public:
  Exchange();
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }

  /// Sends send[counts[0] items to rank 0, the next counts[1] to rank 1, ...]; returns
  /// what every rank sent here, in rank order (rank 0's items first).
  /// @param recv_counts when not null, receives how many items came from each rank.
  template <class T>
  std::vector<T> all_to_all(const std::vector<T>& send, const std::vector<uint64_t>& counts, const char* what,
                            std::vector<uint64_t>* recv_counts = nullptr) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<T> recv;
    exchange_bytes(send.data(), sizeof(T), counts, what, recv_counts,
                   [&](size_t n) { recv.resize(n); return static_cast<void*>(recv.data()); });
    return recv;
  }

  uint64_t exclusive_sum(uint64_t mine);
  /// Element by element: the sums of `mine` over the lower ranks (zeros on rank 0). Every
  /// rank gives as many values.
  std::vector<uint64_t> exclusive_sums(const std::vector<uint64_t>& mine);
  uint64_t sum(uint64_t mine);
  uint64_t max(uint64_t mine);
  double max(double mine);
  /// Every rank's value, in rank order.
  std::vector<uint64_t> all_gather(uint64_t mine);
  /// Rank 0 receives every rank's bytes (in rank order, with each rank's length); other
  /// ranks receive nothing.
  std::vector<std::string> gather_to_root(const std::string& mine, const char* what);
  void barrier();

  /// Bytes this rank sent, by exchange name.
  const std::map<std::string, uint64_t>& bytes_sent() const { return sent_; }

 private:
  void exchange_bytes(const void* send, size_t item, const std::vector<uint64_t>& counts, const char* what,
                      std::vector<uint64_t>* recv_counts, const std::function<void*(size_t)>& alloc);

  int rank_ = 0;
  int ranks_ = 1;
  std::map<std::string, uint64_t> sent_;
};

/// The rank that owns global document `doc`, given each rank's first document
/// (`firsts`, ascending, firsts[0] == 0).
int owner_of(const std::vector<uint64_t>& firsts, uint64_t doc);

}  // namespace gpudedup::mpi

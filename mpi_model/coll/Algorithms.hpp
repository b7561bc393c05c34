// The collective algorithms (MPI-4.1 chapter 6) as schedule builders: each
// adds the calling process's rounds to a Schedule. One file per collective
// holds its algorithms, their registry rows (Registry.hpp: name, when each
// applies, auto's preference) and its build_ function, which states the
// call's facts and builds the algorithm Selector.hpp chooses. Builders
// return MPI_SUCCESS or an MPI error class.
//
// Conventions: counts and displacements are int64; displacements of the
// v/w variants are in bytes (the bindings scale them by the extent);
// sendbuf MPI_IN_PLACE as in the standard. Arguments are checked by the
// bindings. Reductions work on ReduceWork's format; non-commutative
// operations are always combined in rank order (lower ranks on the left).
#pragma once

#include "coll/ReduceWork.hpp"
#include "coll/Registry.hpp"
#include "coll/Schedule.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace progsim::mpi::coll {

using Counts = std::vector<std::int64_t>;

// --- helpers (Helpers.cpp) --------------------------------------------------
inline std::byte* at(const void* base, std::int64_t offset)
{
  return static_cast<std::byte*>(const_cast<void*>(base)) + offset;
}
// The size of a datatype in bytes; 0 for an unknown handle (the bindings
// checked the types: a call's facts stay defined).
std::int64_t type_size(MPI_Datatype type);
// Copies typed data now: MPI_SUCCESS, MPI_ERR_TYPE, or MPI_ERR_TRUNCATE
// when the source holds more than the destination.
int copy_checked(const void* src, std::int64_t scount, MPI_Datatype stype, void* dst, std::int64_t rcount,
                 MPI_Datatype rtype);
// A local step copying typed data (truncation is MPI_ERR_TRUNCATE).
void copy_step(Schedule& s, const void* src, std::int64_t scount, MPI_Datatype stype, void* dst, std::int64_t rcount,
               MPI_Datatype rtype);
// A reduction kept alive by the schedule (init checked by the binding).
const ReduceWork& reduction(Schedule& s, MPI_Datatype type, MPI_Op op);
// A work buffer for `items` items kept alive by the schedule: item 0's address.
std::byte* work_buffer(Schedule& s, const ReduceWork& w, std::int64_t items);
// A work buffer and the local step that loads `input` (user layout) into it.
std::byte* load_step(Schedule& s, const ReduceWork& w, const void* input, std::int64_t items);
// The local step that stores `items` work items into the user's buffer.
void store_step(Schedule& s, const ReduceWork& w, const std::byte* work, std::int64_t items, void* user);
// First item of each of `n` blocks of `counts` (n + 1 entries).
Counts prefix(const Counts& counts);
// `total` items split into `n` nearly equal blocks.
Counts split(std::int64_t total, int n);
int largest_power_of_two(int n);
// Size of the subtree of relative rank `rel` in a binomial tree of n
// processes rooted at 0: it holds ranks [rel, rel + size) (Gather.cpp).
int binomial_subtree(int rel, int n);
// Why the binomial trees of MPI_Gather and MPI_Scatter, which pack blocks of
// one size, do not apply to a call (Gather.cpp); empty when they apply.
std::string packed_tree_unusable(const CallFacts& facts);
// auto's preference between them and linear: "binomial" or "linear".
const char* packed_tree_preferred(const CallFacts& facts);

// --- algorithms (one file per collective) -----------------------------------
int build_barrier(Schedule& s, const Channel& c);
int build_bcast(Schedule& s, const Channel& c, void* buf, std::int64_t count, MPI_Datatype type,
                int root);
int build_reduce(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
                 std::int64_t count, MPI_Datatype type, MPI_Op op, int root);
int build_allreduce(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
                    std::int64_t count, MPI_Datatype type, MPI_Op op);
// rcounts/rdispls are used at the root only. sendbuf MPI_IN_PLACE at the
// root: its block is already in place. `regular`: MPI_Gather (all blocks
// of one size, in rank order), which allows the binomial tree.
int build_gatherv(Schedule& s, const Channel& c, const void* sendbuf, std::int64_t scount,
                  MPI_Datatype stype, void* recvbuf, const Counts& rcounts, const Counts& rdispls, MPI_Datatype rtype,
                  int root, bool regular);
int build_scatterv(Schedule& s, const Channel& c, const void* sendbuf, const Counts& scounts,
                   const Counts& sdispls, MPI_Datatype stype, void* recvbuf, std::int64_t rcount, MPI_Datatype rtype,
                   int root, bool regular);
int build_allgatherv(Schedule& s, const Channel& c, const void* sendbuf, std::int64_t scount,
                     MPI_Datatype stype, void* recvbuf, const Counts& rcounts, const Counts& rdispls,
                     MPI_Datatype rtype, bool regular);
int build_alltoallw(Schedule& s, const Channel& c, const void* sendbuf, const Counts& scounts,
                    const Counts& sdispls, const std::vector<MPI_Datatype>& stypes, void* recvbuf,
                    const Counts& rcounts, const Counts& rdispls, const std::vector<MPI_Datatype>& rtypes,
                    bool regular);
int build_reduce_scatter(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
                         const Counts& rcounts, MPI_Datatype type, MPI_Op op);
int build_scan(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
               std::int64_t count, MPI_Datatype type, MPI_Op op, bool exclusive);

// Building blocks shared by several collectives (work format).
// Binomial reduction of `acc` (items) to `root`; the root's acc holds the
// result. Others' acc is clobbered.
void reduce_binomial(Schedule& s, const Channel& c, const ReduceWork& w, std::byte* acc, std::int64_t items,
                     int root);
// Binomial broadcast of (buf, count, type) from root.
void bcast_binomial(Schedule& s, const Channel& c, void* buf, std::int64_t count, MPI_Datatype type, int root);

}  // namespace progsim::mpi::coll

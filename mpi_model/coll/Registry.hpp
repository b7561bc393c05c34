// The collective algorithm registry: one row per algorithm (its name, what
// it does, when it applies, its builder), kept beside the algorithm in the
// collective's file (Allreduce.cpp holds the allreduce rows); the
// collectives are listed once in Registry.cpp. The selector (Selector.hpp),
// `progsim run --cfg help`, the documentation check and the test that runs
// every algorithm (tests/coll/registry.sh) read it, so that adding an
// algorithm touches its collective's file only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace progsim::mpi::coll {

struct CollectiveParameters;

// What decides which algorithms apply to a call and which one auto picks.
// Every member of the communicator computes the same facts (MPI-4.1 §6.1:
// the type signatures, root, operation and counts of a call match), so
// every member picks the same algorithm.
struct CallFacts {
  int processes = 1;
  std::int64_t items = 0;  // the count of a reduction
  // The size auto compares with its thresholds; each collective says which
  // (the whole message, one block, every block together).
  std::int64_t bytes = 0;
  bool commutative = true;  // the reduction's operation
  bool regular = true;      // false for the v and w variants (blocks of any size)
};

bool is_power_of_two(int n);

// Why an algorithm does not apply to a call; empty when it applies.
using Unusable = std::string (*)(const CallFacts&);

struct AlgorithmInfo {
  const char* name;         // the --cfg value
  const char* description;  // one line: what it does, when it fits
  Unusable unusable;        // nullptr: applies to every call
};

// A registry row: the algorithm and its builder, a function whose
// parameters are the same for every algorithm of one collective.
template <class Build>
struct Algorithm : AlgorithmInfo {
  Build* build;
};

// One collective's algorithms, as --cfg coll-<key> chooses among them.
struct CollectiveAlgorithms {
  const char* option;      // "coll-allreduce"
  const char* procedures;  // "MPI_Allreduce" (with the variants it serves)
  std::string CollectiveParameters::*forced;
  // The preference of auto: an algorithm's name for the call (one that
  // applies), and the rule in words (help, docs).
  const char* (*preferred)(const CallFacts&);
  const char* auto_rule;
  std::vector<AlgorithmInfo> algorithms;

  template <class Build, std::size_t N>
  CollectiveAlgorithms(const char* option_, const char* procedures_, std::string CollectiveParameters::*forced_,
                       const char* (*preferred_)(const CallFacts&), const char* auto_rule_,
                       const Algorithm<Build> (&rows)[N])
      : option(option_), procedures(procedures_), forced(forced_), preferred(preferred_), auto_rule(auto_rule_),
        algorithms(std::begin(rows), std::end(rows))
  {
  }
};

// Each collective's rows (defined in its file).
const CollectiveAlgorithms& barrier_algorithms();
const CollectiveAlgorithms& bcast_algorithms();
const CollectiveAlgorithms& reduce_algorithms();
const CollectiveAlgorithms& allreduce_algorithms();
const CollectiveAlgorithms& gather_algorithms();
const CollectiveAlgorithms& scatter_algorithms();
const CollectiveAlgorithms& allgather_algorithms();
const CollectiveAlgorithms& alltoall_algorithms();
const CollectiveAlgorithms& reduce_scatter_algorithms();
const CollectiveAlgorithms& scan_algorithms();

// Every collective with a choice of algorithms, in the order of --cfg help.
const std::vector<const CollectiveAlgorithms*>& collective_registry();

}  // namespace progsim::mpi::coll

// MPI objects the program created and never freed before MPI_Finalize:
// communicators (other than the predefined ones), groups, derived
// datatypes, user operations, windows, info objects, error handlers,
// keyvals, and inactive persistent requests. The standard does not require
// freeing them (MPI_Finalize cleans up), so a leak alone is a warning and
// the run stays `completed`; `progsim run --strict` (--cfg strict=yes)
// reports each as an error too (diagnosis/FinalizeChecks). The report lists
// them under "leaks" ({"count": N, "items": [...]}, at most kMaxItems).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace progsim::mpi {

struct Leak {
  int rank = 0;              // world rank
  const char* kind = "";     // "communicator", "group", "datatype", ...
  std::uint32_t handle = 0;
  std::string call;          // the creating call, "" when unknown
  std::string source;        // its file:line, "" when unknown
};

class Leaks {
public:
  static constexpr std::size_t kMaxItems = 100;

  void add(Leak leak);
  std::size_t count() const { return count_; }
  const std::vector<Leak>& items() const { return items_; }
  // "communicator 0x44000003 of rank 1, created by MPI_Comm_dup at main (x.c:9)"
  static std::string describe(const Leak& leak);
  // Printed on stderr when the run completes ("" without leaks).
  std::string warning() const;
  nlohmann::ordered_json to_json() const;

private:
  std::size_t count_ = 0;
  std::vector<Leak> items_;  // the first kMaxItems
};

}  // namespace progsim::mpi

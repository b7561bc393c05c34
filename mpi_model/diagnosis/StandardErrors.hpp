// The rules of the MPI standard a program broke, as progsim detected them
// while it ran or when it ended. The run goes on after such an error, to show
// what this implementation does with the erroneous program; a run whose
// ranks all finish is then `erroneous` (sim/Outcome.hpp), and a deadlock it
// leads to is "incorrect under every MPI" (DeadlockDiagnosis).
//
// Every check reports through StandardErrors::add, one StandardError per
// violation: the collectives' order and completeness (coll/CollectiveOrder),
// and later checks (type signatures, ...) the same way. The report lists them
// under "errors".
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace progsim::sim {
class Rank;
}

namespace progsim::mpi {

// One call of the program involved in an error.
struct ErrorSite {
  int rank = 0;        // world rank
  std::string call;    // "MPI_Bcast"
  std::string source;  // "main (coll_order.c:24)", "" when unknown
};

struct StandardError {
  std::string rule;     // "collective mismatch"
  std::string section;  // "MPI-4.1 §6.14"
  std::string requirement;  // what the standard requires, "all members ... in the same order"
  std::string what;     // what the program did, one line
  std::vector<ErrorSite> sites;
  double time = 0;      // simulated time of detection
  int context_id = -1;  // the communicator concerned (its context id), -1 when none
};

class StandardErrors {
public:
  // Records `error` and prints it on stderr ("error: WHAT (erroneous: ...)"
  // and one line per site).
  void add(StandardError error);
  bool empty() const { return errors_.empty(); }
  const std::vector<StandardError>& all() const { return errors_; }
  // The first error about the communicator with context id `context_id`, or nullptr.
  const StandardError* on_communicator(int context_id) const;
  // The run's message when every rank finished ("" when there is no error).
  std::string summary() const;
  nlohmann::ordered_json to_json() const;

  // Where the program made a call: the source line of `return_address`, a
  // return address into the program (Rank::call_return_address). With
  // `unwind`, the calling rank's stack is searched when the address is not
  // in the program (a library between them); only valid on that rank.
  // "" when call sites are off or the line is unknown.
  static std::string source_of(std::uintptr_t return_address, bool unwind);

private:
  std::vector<StandardError> errors_;
};

}  // namespace progsim::mpi

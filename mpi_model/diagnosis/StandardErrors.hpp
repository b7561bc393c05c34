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
//
// An *undefined outcome* is the other kind of finding: the program is
// correct MPI, but the standard does not define its result (MPI-4.1 §12.7:
// conflicting RMA accesses "are not erroneous, but do not have a defined
// behavior", and "must not generate an MPI exception"). It is a warning on
// stderr and an entry of the report's "undefined" (the same fields); the
// run stays `completed`. With --strict (ModelParameters::strict) it is an
// error like the others.
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
  enum class Kind {
    Erroneous,         // the program broke a rule: outcome erroneous
    UndefinedOutcome,  // correct MPI whose result the standard leaves undefined
  };
  Kind kind = Kind::Erroneous;
  std::string rule;     // "collective mismatch"
  std::string section;  // "MPI-4.1 §6.14"
  // What the standard requires, "all members ... in the same order"; for an
  // undefined outcome what a program with a defined outcome does.
  std::string requirement;
  std::string what;     // what the program did, one line
  std::vector<ErrorSite> sites;
  double time = 0;      // simulated time of detection
  int context_id = -1;  // the communicator concerned (its context id), -1 when none
};

class StandardErrors {
public:
  // `strict`: undefined outcomes are errors too.
  explicit StandardErrors(bool strict = false) : strict_(strict) {}
  // Records `error` and prints it on stderr ("error: WHAT (erroneous: ...)"
  // and one line per site; "warning: WHAT (undefined outcome: ...)" for an
  // undefined outcome).
  void add(StandardError error);
  // The errors (undefined outcomes are not).
  bool empty() const { return errors_.empty(); }
  const std::vector<StandardError>& all() const { return errors_; }
  const std::vector<StandardError>& undefined() const { return undefined_; }
  // The first error about the communicator with context id `context_id`, or nullptr.
  const StandardError* on_communicator(int context_id) const;
  // The run's message when every rank finished ("" when there is no error).
  std::string summary() const;
  // The warning printed when every rank finished ("" without undefined outcomes).
  std::string undefined_warning() const;
  // The report's "errors" and "undefined".
  nlohmann::ordered_json to_json() const { return list_json(errors_); }
  nlohmann::ordered_json undefined_to_json() const { return list_json(undefined_); }

  // Where the program made a call: the source line of `return_address`, a
  // return address into the program (Rank::call_return_address). With
  // `unwind`, the calling rank's stack is searched when the address is not
  // in the program (a library between them); only valid on that rank.
  // "" when call sites are off or the line is unknown.
  static std::string source_of(std::uintptr_t return_address, bool unwind);

private:
  static nlohmann::ordered_json list_json(const std::vector<StandardError>& list);

  bool strict_ = false;
  std::vector<StandardError> errors_;
  std::vector<StandardError> undefined_;
};

}  // namespace progsim::mpi

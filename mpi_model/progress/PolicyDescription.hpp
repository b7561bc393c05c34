// What the rest of progsim knows of a progress policy, declared in the
// policy's own file and listed in the catalogue (PolicyCatalog.cpp): its
// name and meaning, its --cfg parameters, the counters it adds to each
// rank's report (and to `progsim compare`), and the agent that runs chunks
// for it, with the label and colour reports and timelines show. Nothing
// outside the policy's file names a policy: reports, `compare`, the HTML
// timeline and the help texts read these descriptions.
#pragma once

#include "progress/ProgressPolicy.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace progsim::sim {
class Config;
}

namespace progsim::mpi {

struct ModelParameters;

// A per-rank counter of a policy, written in every rank's report entry.
struct ReportField {
  enum class Unit { Count, Seconds };
  std::string name;  // key in the rank's entry (or in its "chunks" object)
  Unit unit = Unit::Count;
  bool in_chunks = false;  // a count of chunks: written inside the rank's "chunks" object
  // A column of `progsim compare` (the sum over the ranks), none when empty:
  // its title in the table and its meaning in `progsim compare --help`.
  std::string column;
  std::string column_help;
};

// An agent that runs chunks for its policy (a progress thread, a NIC),
// besides the rank itself inside MPI.
struct ExecutorDescription {
  std::string label;        // in reports, timelines and compare's chunk column ("thread")
  std::string colour;       // of its chunks in the HTML timeline
  std::string runs_chunks;  // how compare --help says who runs them ("by a progress thread")
};

// The rank itself, inside an MPI call: the executor of every policy's host
// chunks.
const ExecutorDescription& rank_executor();

// A policy's --cfg parameters with their defaults, one object per model
// (MpiModel). Every policy of the catalogue registers its parameters whichever
// runs, so that `--cfg help` lists them all and setting one of another
// policy is no error; the selected policy is made from its object, which
// outlives it.
class PolicyParameters {
public:
  virtual ~PolicyParameters() = default;
  virtual void register_parameters(sim::Config&) {}
  // `model`: the parameters every policy shares (chunk-cost, ...).
  virtual std::unique_ptr<ProgressPolicy> make_policy(const ModelParameters& model) const = 0;
};

struct PolicyDescription {
  std::string name;  // --progress NAME
  std::string summary;
  std::optional<ExecutorDescription> executor;  // none: only the rank runs its chunks
  // Its counters, in the order ProgressPolicy::rank_field numbers them.
  std::vector<ReportField> rank_fields;
  std::unique_ptr<PolicyParameters> (*parameters)();
};

// PolicyDescription::parameters of a policy with its own Parameters class.
template <class Parameters>
std::unique_ptr<PolicyParameters> own_parameters()
{
  return std::make_unique<Parameters>();
}

// PolicyDescription::parameters of a policy that has none: they only make it.
template <class Policy>
std::unique_ptr<PolicyParameters> no_parameters()
{
  struct None final : PolicyParameters {
    std::unique_ptr<ProgressPolicy> make_policy(const ModelParameters&) const override
    {
      return std::make_unique<Policy>();
    }
  };
  return std::make_unique<None>();
}

}  // namespace progsim::mpi

#include "diagnosis/StandardErrors.hpp"

#include "MpiModel.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/ProgramImage.hpp"
#include "sim/CallScope.hpp"
#include "sim/Rank.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/CodeLocation.hpp"

namespace progsim::mpi {

namespace {

std::string site_text(const ErrorSite& site)
{
  return "rank " + std::to_string(site.rank) + ": " + site.call + (site.source.empty() ? "" : " at " + site.source);
}

// One line per finding of `list` and one per site, after `heading`.
std::string listing(std::string heading, const std::vector<StandardError>& list)
{
  for (const StandardError& e : list) {
    heading += "\n  " + e.what + " (" + e.section + ", at " + sim::format_time(e.time) + ")";
    for (const ErrorSite& site : e.sites)
      heading += "\n    " + site_text(site);
  }
  return heading;
}

}  // namespace

void StandardErrors::add(StandardError error)
{
  bool undefined = error.kind == StandardError::Kind::UndefinedOutcome;
  if (undefined && strict_) {  // an error as MPI-2 had it, the user asked for it
    error.kind = StandardError::Kind::Erroneous;
    error.requirement = "(with --strict) " + error.requirement;
    undefined = false;
  }
  std::string text = undefined ? "warning: " + error.what + " (undefined outcome: " + error.section + " says that " +
                                     error.requirement + ")"
                               : "error: " + error.what + " (erroneous: " + error.section + " requires that " +
                                     error.requirement + ")";
  for (const ErrorSite& site : error.sites)
    text += "\n  " + site_text(site);
  sim::diag(text);
  (undefined ? undefined_ : errors_).push_back(std::move(error));
}

const StandardError* StandardErrors::on_communicator(int context_id) const
{
  for (const StandardError& e : errors_)
    if (e.context_id >= 0 && e.context_id == context_id)
      return &e;
  return nullptr;
}

std::string StandardErrors::summary() const
{
  if (errors_.empty())
    return "";
  return listing("erroneous program: every rank finished, but the program broke " + std::to_string(errors_.size()) +
                     " rule(s) of the MPI standard; another MPI may deadlock, fail or compute something else:",
                 errors_);
}

std::string StandardErrors::undefined_warning() const
{
  if (undefined_.empty())
    return "";
  return listing("warning: the MPI standard does not define this program's result (" +
                     std::to_string(undefined_.size()) +
                     " undefined outcome(s); not erroneous, progsim run --strict makes them errors):",
                 undefined_);
}

nlohmann::ordered_json StandardErrors::list_json(const std::vector<StandardError>& errors)
{
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const StandardError& e : errors) {
    nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
    nlohmann::ordered_json sites = nlohmann::ordered_json::array();
    for (const ErrorSite& site : e.sites) {
      ranks.push_back(site.rank);
      sites.push_back({{"rank", site.rank}, {"call", site.call}, {"source", site.source}});
    }
    list.push_back({{"rule", e.rule},
                    {"section", e.section},
                    {"requirement", e.requirement},
                    {"what", e.what},
                    {"time", e.time},
                    {"ranks", ranks},
                    {"sites", sites}});
  }
  return list;
}

std::string StandardErrors::source_of(std::uintptr_t return_address, bool unwind)
{
  MpiModel& model = MpiModel::instance();
  if (!model.parameters().call_sites)
    return "";
  std::uintptr_t pc = 0;
  if (unwind)
    pc = sim::memory::program_call_site(return_address);
  else if (return_address && sim::is_program_code(return_address))
    pc = return_address - 1;  // inside the call instruction: the caller's line
  return pc ? sim::memory::describe_program_location(pc, model.simulation().options().program) : "";
}

}  // namespace progsim::mpi

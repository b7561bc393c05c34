#include "diagnosis/CallSites.hpp"

#include "MpiModel.hpp"
#include "core/CallContext.hpp"
#include "core/Communicator.hpp"
#include "sim/Rank.hpp"
#include "sim/ProgramImage.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/CodeLocation.hpp"

#include <simgrid/s4u/Engine.hpp>

namespace progsim::mpi {

CallSiteMark call_site_mark(const sim::Rank* rank)
{
  if (!rank)
    return 0;
  if (rank->trace_position.file)
    return kTraceLine | static_cast<CallSiteMark>(rank->trace_position.line);
  std::uintptr_t return_address = rank->call_return_address();
  if (!return_address || sim::is_program_code(return_address) || !MpiModel::instance().parameters().call_sites)
    return return_address;
  // A procedure that made its Binding in a helper, or a library between the
  // program and MPI: the program's frame is searched now, on this stack.
  std::uintptr_t pc = sim::memory::program_call_site(return_address);
  return pc ? pc + 1 : 0;  // kept as a return address: one past the call
}

std::string call_site_text(MpiModel& model, int world, CallSiteMark mark)
{
  if (mark & kTraceLine)
    return model.simulation().rank(world).trace_site(static_cast<long>(mark & ~kTraceLine));
  return StandardErrors::source_of(mark, false);
}

ErrorSite current_site(const CallContext& caller)
{
  const sim::Rank* rank = caller.rank();
  std::string source;
  if (rank && rank->trace_position.file)
    source = rank->trace_site(rank->trace_position.line);
  else if (rank)
    source = StandardErrors::source_of(rank->call_return_address(), true);
  return {caller.world(), caller.call(), source};
}

void report_call_error(const CallContext& caller, const char* rule, const char* section, const char* requirement,
                       std::string what)
{
  StandardError e;
  e.rule = rule;
  e.section = section;
  e.requirement = requirement;
  e.what = std::move(what);
  e.sites = {current_site(caller)};
  e.time = caller.rank() ? caller.rank()->clock().now() : simgrid::s4u::Engine::get_clock();
  caller.model().standard_errors().add(std::move(e));
}

}  // namespace progsim::mpi

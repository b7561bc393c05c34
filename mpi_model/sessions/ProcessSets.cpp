#include "sessions/ProcessSets.hpp"

#include "sim/Simulation.hpp"

#include <simgrid/s4u/Host.hpp>

#include <strings.h>

namespace progsim::mpi::sessions {

namespace {

constexpr const char* kHostPrefix = "progsim://host/";

}  // namespace

std::vector<ProcessSet> process_sets(int world_rank)
{
  const sim::Simulation& simulation = *sim::Simulation::current();
  int n = simulation.size();
  std::vector<ProcessSet> sets;
  ProcessSet world{"mpi://WORLD", {}};
  for (int r = 0; r < n; ++r)
    world.members.push_back(r);
  sets.push_back(std::move(world));
  sets.push_back(ProcessSet{"mpi://SELF", {world_rank}});
  // One set per host, in order of the host's lowest rank (ranks are
  // visited in order, so each host's members come out ascending).
  std::size_t first_host = sets.size();
  for (int r = 0; r < n; ++r) {
    std::string name = kHostPrefix + simulation.rank(r).host()->get_name();
    std::size_t i = first_host;
    while (i < sets.size() && sets[i].name != name)
      ++i;
    if (i == sets.size())
      sets.push_back(ProcessSet{name, {}});
    sets[i].members.push_back(r);
  }
  return sets;
}

bool find_process_set(const std::string& name, int world_rank, ProcessSet& out)
{
  for (ProcessSet& set : process_sets(world_rank)) {
    bool reserved = set.name.rfind("mpi://", 0) == 0;
    if (reserved ? ::strcasecmp(set.name.c_str(), name.c_str()) == 0 : set.name == name) {
      out = std::move(set);
      return true;
    }
  }
  return false;
}

}  // namespace progsim::mpi::sessions

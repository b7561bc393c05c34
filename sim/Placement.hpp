// Which simulated host runs which rank.
#pragma once

#include <simgrid/s4u/Host.hpp>

#include <string>
#include <vector>

namespace progsim::sim {

// The platform's hosts in natural name order (node-2 before node-10).
std::vector<simgrid::s4u::Host*> sorted_hosts(std::vector<simgrid::s4u::Host*> hosts);

// Ranks go `ranks_per_node` per host, in natural host-name order, or in
// the hostfile's order. Hostfile lines: "name", "name:slots" (MPICH) or
// "name slots=N" (Open MPI); '#' starts a comment. A host listed with slots
// takes that many ranks instead of ranks_per_node. Throws InputError when
// the hosts cannot take `nranks` ranks or a name is unknown.
std::vector<simgrid::s4u::Host*> place_ranks(int nranks, int ranks_per_node, const std::string& hostfile,
                                            const std::vector<simgrid::s4u::Host*>& platform_hosts);

}  // namespace progsim::sim

// Which simulated host runs which rank.
#pragma once

#include <simgrid/s4u/Host.hpp>

#include <string>
#include <vector>

namespace progsim::sim {

// How ranks are dealt out to the hosts' slots (mpirun's --map-by).
enum class MapBy {
  Slot,  // fill each host's slots before the next host (the default)
  Node,  // one rank per host in turn, skipping hosts whose slots are full
  Core,  // as Slot, but a host without a slot count takes one rank per core
};

// "slot", "node" or "core"; throws InputError naming the option otherwise.
MapBy map_by_from_name(const std::string& name);
const char* to_string(MapBy map_by);

struct PlacementRequest {
  int nranks = 1;
  int ranks_per_node = 1;     // the slots of a host listed without a count
  std::string hostfile;       // empty: none
  std::string host_list;      // "h1:2,h2" (--host); empty: none
  MapBy map_by = MapBy::Slot;
  bool oversubscribe = false; // more ranks than slots: deal the slots again
};

// The platform's hosts in natural name order (node-2 before node-10).
std::vector<simgrid::s4u::Host*> sorted_hosts(std::vector<simgrid::s4u::Host*> hosts);

// The hosts and their slots come from the hostfile, the host list, or else
// the platform's hosts in natural name order. Hostfile lines: "name",
// "name:slots" (MPICH) or "name slots=N" (Open MPI); '#' starts a comment.
// Host list entries: "name" or "name:slots", comma-separated; a repeated
// name is a further entry. A host listed with slots takes that many ranks,
// others `ranks_per_node` (with MapBy::Core: their core count). Throws
// InputError when the slots cannot take `nranks` ranks (unless
// `oversubscribe`) or a name is unknown.
std::vector<simgrid::s4u::Host*> place_ranks(const PlacementRequest& request,
                                            const std::vector<simgrid::s4u::Host*>& platform_hosts);

// What --display-map prints: each host (in order of its first rank), its
// cores and its ranks, noting where ranks outnumber cores.
std::string describe_placement(const std::vector<simgrid::s4u::Host*>& placement, MapBy map_by);

}  // namespace progsim::sim

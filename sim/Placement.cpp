#include "sim/Placement.hpp"

#include "sim/Diagnostics.hpp"
#include "sim/InputFile.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

namespace sg4 = simgrid::s4u;

namespace progsim::sim {

namespace {

// A host and the ranks it takes; count 0: not given (the request's default).
struct Slot {
  sg4::Host* host;
  int count;
};

sg4::Host* platform_host(const std::vector<sg4::Host*>& hosts, const std::string& name)
{
  auto it = std::find_if(hosts.begin(), hosts.end(), [&](sg4::Host* h) { return h->get_name() == name; });
  return it == hosts.end() ? nullptr : *it;
}

// "12" -> 12; anything else (empty, sign, trailing text, 0) -> -1.
int slot_count(const std::string& text)
{
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  int count = std::stoi(text);
  return count > 0 ? count : -1;
}

std::vector<Slot> read_hostfile(const std::string& hostfile, const std::vector<sg4::Host*>& hosts)
{
  std::ifstream in(hostfile);
  if (std::string why = input_file_problem(hostfile); !why.empty() || !in)
    throw InputError{hostfile + ": cannot read the hostfile" + why};
  std::vector<Slot> slots;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string name;
    if (!(words >> name))
      continue;
    int count = 0;
    if (auto colon = name.find(':'); colon != std::string::npos) {
      count = slot_count(name.substr(colon + 1));
      name.resize(colon);
    }
    std::string extra;
    while (words >> extra)
      if (extra.rfind("slots=", 0) == 0)
        count = slot_count(extra.substr(6));
    sg4::Host* host = platform_host(hosts, name);
    if (!host)
      throw InputError{hostfile + ":" + std::to_string(lineno) + ": host '" + name + "' is not in the platform"};
    if (count < 0)
      throw InputError{hostfile + ":" + std::to_string(lineno) + ": invalid slot count"};
    slots.push_back({host, count});
  }
  if (slots.empty())
    throw InputError{hostfile + ": lists no host"};
  return slots;
}

std::vector<Slot> parse_host_list(const std::string& list, const std::vector<sg4::Host*>& hosts)
{
  std::vector<Slot> slots;
  std::istringstream entries(list);
  std::string entry;
  while (std::getline(entries, entry, ',')) {
    std::string name = entry;
    int count = 0;
    if (auto colon = entry.find(':'); colon != std::string::npos) {
      name = entry.substr(0, colon);
      count = slot_count(entry.substr(colon + 1));
      if (count < 0)
        throw InputError{"--host " + list + ": '" + entry + "': invalid slot count (expected NAME or NAME:SLOTS)"};
    }
    if (name.empty())
      throw InputError{"--host " + list + ": empty host name"};
    sg4::Host* host = platform_host(hosts, name);
    if (!host)
      throw InputError{"--host " + list + ": host '" + name + "' is not in the platform"};
    slots.push_back({host, count});
  }
  if (slots.empty())
    throw InputError{"--host: lists no host"};
  return slots;
}

// Deals `nranks` ranks out to the slots, again and again when
// oversubscribing (the caller checked that one round is enough otherwise).
std::vector<sg4::Host*> deal(const std::vector<Slot>& slots, int nranks, MapBy map_by)
{
  std::vector<sg4::Host*> placement;
  auto full = [&] { return static_cast<int>(placement.size()) >= nranks; };
  while (!full()) {
    if (map_by == MapBy::Node) {
      std::vector<int> used(slots.size(), 0);
      for (bool placed = true; placed && !full();) {
        placed = false;
        for (size_t s = 0; s < slots.size() && !full(); ++s)
          if (used[s] < slots[s].count) {
            ++used[s];
            placement.push_back(slots[s].host);
            placed = true;
          }
      }
    } else {
      for (const Slot& slot : slots)
        for (int i = 0; i < slot.count && !full(); ++i)
          placement.push_back(slot.host);
    }
  }
  return placement;
}

// "node-2" before "node-10": digit runs compare as numbers.
bool natural_less(const std::string& a, const std::string& b)
{
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t i_end = i, j_end = j;
      while (i_end < a.size() && std::isdigit(static_cast<unsigned char>(a[i_end])))
        ++i_end;
      while (j_end < b.size() && std::isdigit(static_cast<unsigned char>(b[j_end])))
        ++j_end;
      std::string x = a.substr(i, i_end - i), y = b.substr(j, j_end - j);
      x.erase(0, std::min(x.find_first_not_of('0'), x.size() - 1));
      y.erase(0, std::min(y.find_first_not_of('0'), y.size() - 1));
      if (x.size() != y.size())
        return x.size() < y.size();
      if (x != y)
        return x < y;
      i = i_end;
      j = j_end;
    } else {
      if (a[i] != b[j])
        return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

}  // namespace

std::vector<sg4::Host*> sorted_hosts(std::vector<sg4::Host*> hosts)
{
  std::stable_sort(hosts.begin(), hosts.end(),
                   [](sg4::Host* a, sg4::Host* b) { return natural_less(a->get_name(), b->get_name()); });
  return hosts;
}

MapBy map_by_from_name(const std::string& name)
{
  if (name == "slot")
    return MapBy::Slot;
  if (name == "node")
    return MapBy::Node;
  if (name == "core")
    return MapBy::Core;
  std::string hint = name.find(':') == std::string::npos
                         ? ""
                         : " (no modifiers: -N K gives K ranks per node, --oversubscribe allows more ranks than slots)";
  throw InputError{"--map-by " + name + ": progsim maps by slot, node or core only" + hint};
}

const char* to_string(MapBy map_by)
{
  switch (map_by) {
    case MapBy::Slot: return "slot";
    case MapBy::Node: return "node";
    case MapBy::Core: return "core";
  }
  return "?";
}

std::vector<sg4::Host*> place_ranks(const PlacementRequest& request, const std::vector<sg4::Host*>& platform_hosts)
{
  if (!request.hostfile.empty() && !request.host_list.empty())
    throw InputError{"--host and --hostfile both list hosts: give one of them"};
  std::vector<Slot> slots;
  if (!request.hostfile.empty())
    slots = read_hostfile(request.hostfile, platform_hosts);
  else if (!request.host_list.empty())
    slots = parse_host_list(request.host_list, platform_hosts);
  else
    for (sg4::Host* h : sorted_hosts(platform_hosts))
      slots.push_back({h, 0});
  long total = 0;
  for (Slot& slot : slots) {
    if (slot.count == 0)
      slot.count = request.map_by == MapBy::Core ? slot.host->get_core_count() : request.ranks_per_node;
    total += slot.count;
  }

  if (total < request.nranks && !request.oversubscribe) {
    const char* source = !request.hostfile.empty() ? "hostfile" : !request.host_list.empty() ? "host list" : "platform";
    std::ostringstream msg;
    msg << request.nranks << " ranks do not fit: the " << source << " offers " << total << " slots (" << slots.size()
        << (slots.size() == 1 ? " host" : " hosts");
    if (request.hostfile.empty() && request.host_list.empty()) {
      if (request.map_by == MapBy::Core)
        msg << " x their cores";
      else
        msg << " x " << request.ranks_per_node << " ranks per node; raise --ranks-per-node or use a larger platform";
    }
    msg << "; --oversubscribe places more ranks than slots)";
    throw InputError{msg.str()};
  }
  return deal(slots, request.nranks, request.map_by);
}

std::string describe_placement(const std::vector<sg4::Host*>& placement, MapBy map_by)
{
  std::vector<sg4::Host*> hosts;  // in order of their first rank
  std::vector<std::vector<int>> ranks;
  std::map<sg4::Host*, size_t> index;  // lookup only: the output follows `hosts`
  for (int r = 0; r < static_cast<int>(placement.size()); ++r) {
    auto [it, added] = index.emplace(placement[r], hosts.size());
    if (added) {
      hosts.push_back(placement[r]);
      ranks.emplace_back();
    }
    ranks[it->second].push_back(r);
  }
  std::ostringstream out;
  out << "progsim: placement of " << placement.size() << " rank" << (placement.size() == 1 ? "" : "s") << " on "
      << hosts.size() << " host" << (hosts.size() == 1 ? "" : "s") << " (map by " << to_string(map_by) << "):\n";
  for (size_t h = 0; h < hosts.size(); ++h) {
    int cores = hosts[h]->get_core_count();
    out << "  " << hosts[h]->get_name() << " (" << cores << " core" << (cores == 1 ? "" : "s") << "): rank"
        << (ranks[h].size() == 1 ? " " : "s ");
    // Runs of consecutive ranks as "a-b".
    const std::vector<int>& list = ranks[h];
    for (size_t i = 0; i < list.size();) {
      size_t j = i;
      while (j + 1 < list.size() && list[j + 1] == list[j] + 1)
        ++j;
      out << (i ? "," : "") << list[i];
      if (j > i)
        out << "-" << list[j];
      i = j + 1;
    }
    if (static_cast<int>(list.size()) > cores)
      out << " (oversubscribed: " << list.size() << " ranks share " << cores << " core" << (cores == 1 ? "" : "s")
          << ")";
    out << "\n";
  }
  return out.str();
}

}  // namespace progsim::sim

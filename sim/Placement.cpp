#include "sim/Placement.hpp"

#include "sim/Diagnostics.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace sg4 = simgrid::s4u;

namespace progsim::sim {

namespace {

struct Slot {
  sg4::Host* host;
  int count;
};

std::vector<Slot> read_hostfile(const std::string& hostfile, int ranks_per_node,
                                const std::vector<sg4::Host*>& hosts)
{
  std::ifstream in(hostfile);
  if (!in)
    throw InputError{hostfile + ": cannot read the hostfile"};
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
    int count = ranks_per_node;
    if (auto colon = name.find(':'); colon != std::string::npos) {
      count = std::atoi(name.c_str() + colon + 1);
      name.resize(colon);
    }
    std::string extra;
    while (words >> extra)
      if (extra.rfind("slots=", 0) == 0)
        count = std::atoi(extra.c_str() + 6);
    auto it = std::find_if(hosts.begin(), hosts.end(), [&](sg4::Host* h) { return h->get_name() == name; });
    if (it == hosts.end())
      throw InputError{hostfile + ":" + std::to_string(lineno) + ": host '" + name + "' is not in the platform"};
    if (count <= 0)
      throw InputError{hostfile + ":" + std::to_string(lineno) + ": invalid slot count"};
    slots.push_back({*it, count});
  }
  if (slots.empty())
    throw InputError{hostfile + ": lists no host"};
  return slots;
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

std::vector<sg4::Host*> place_ranks(int nranks, int ranks_per_node, const std::string& hostfile,
                                   const std::vector<sg4::Host*>& platform_hosts)
{
  std::vector<Slot> slots;
  if (hostfile.empty())
    for (sg4::Host* h : sorted_hosts(platform_hosts))
      slots.push_back({h, ranks_per_node});
  else
    slots = read_hostfile(hostfile, ranks_per_node, platform_hosts);

  std::vector<sg4::Host*> placement;
  for (const Slot& slot : slots)
    for (int i = 0; i < slot.count && static_cast<int>(placement.size()) < nranks; ++i)
      placement.push_back(slot.host);
  if (static_cast<int>(placement.size()) < nranks) {
    std::ostringstream msg;
    msg << nranks << " ranks do not fit: the " << (hostfile.empty() ? "platform" : "hostfile") << " offers "
        << placement.size() << " slots (" << slots.size() << " hosts";
    if (hostfile.empty())
      msg << " x " << ranks_per_node << " ranks per node; raise --ranks-per-node or use a larger platform";
    msg << ")";
    throw InputError{msg.str()};
  }
  return placement;
}

}  // namespace progsim::sim

#include "diagnosis/Leaks.hpp"

#include <cstdio>

namespace progsim::mpi {

namespace {

std::string hex(std::uint32_t handle)
{
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", handle);
  return text;
}

}  // namespace

void Leaks::add(Leak leak)
{
  ++count_;
  if (items_.size() < kMaxItems)
    items_.push_back(std::move(leak));
}

std::string Leaks::describe(const Leak& leak)
{
  std::string text = std::string(leak.kind) + " " + hex(leak.handle) + " of rank " + std::to_string(leak.rank);
  if (!leak.call.empty())
    text += ", created by " + leak.call + (leak.source.empty() ? "" : " at " + leak.source);
  return text;
}

std::string Leaks::warning() const
{
  if (count_ == 0)
    return "";
  std::string text = "warning: " + std::to_string(count_) +
                     " MPI object(s) never freed before MPI_Finalize (leaks; progsim run --strict makes them errors):";
  for (const Leak& leak : items_)
    text += "\n  " + describe(leak);
  if (count_ > items_.size())
    text += "\n  ... and " + std::to_string(count_ - items_.size()) + " more";
  return text;
}

nlohmann::ordered_json Leaks::to_json() const
{
  nlohmann::ordered_json items = nlohmann::ordered_json::array();
  for (const Leak& leak : items_)
    items.push_back({{"kind", leak.kind},
                     {"rank", leak.rank},
                     {"handle", hex(leak.handle)},
                     {"call", leak.call},
                     {"source", leak.source}});
  return {{"count", count_}, {"items", items}};
}

}  // namespace progsim::mpi

#include "traces/replay/AttachedLayout.hpp"

#include <algorithm>
#include <stdexcept>

namespace progsim::traces {

char* AttachedLayout::address_of(const Placed& p) const
{
  const Block& b = blocks_[static_cast<std::size_t>(p.block)];
  return b.memory.get() + (p.at - b.lo);
}

char* AttachedLayout::address(int region) const
{
  auto found = regions_.find(region);
  return found == regions_.end() ? nullptr : address_of(found->second);
}

std::vector<int> AttachedLayout::regions() const
{
  std::vector<int> out;
  for (const auto& [region, placed] : regions_)
    out.push_back(region);
  return out;
}

void AttachedLayout::detach(int region)
{
  regions_.erase(region);
}

void AttachedLayout::cover(int b, long long lo, long long hi)
{
  Block& block = blocks_[static_cast<std::size_t>(b)];
  if (block.memory && lo >= block.lo && hi <= block.hi)
    return;
  // Room for as much again on the side that grew: a rank attaching region
  // after region moves its block a logarithmic number of times.
  long long old_size = block.memory ? block.hi - block.lo : 0;
  long long size = std::max(hi - lo, 2 * old_size);
  long long new_lo = lo, new_hi = lo + size;
  if (block.memory && lo < block.lo && hi <= block.hi) {
    new_hi = hi;
    new_lo = hi - size;
  }
  if (block.memory)
    retired_.push_back(std::move(block.memory));
  block.memory = scratch_block(new_hi - new_lo);
  block.lo = new_lo;
  block.hi = new_hi;
}

char* AttachedLayout::attach(int region, long long bytes, int after, int before, const Moved& moved)
{
  if (regions_.count(region))
    throw std::invalid_argument("region " + std::to_string(region) + " is attached already");
  auto neighbour = [&](int id, const char* side) -> const Placed& {
    auto found = regions_.find(id);
    if (found == regions_.end())
      throw std::invalid_argument(std::string("the region it is attached ") + side + " (" + std::to_string(id) +
                                  ") is not attached");
    return found->second;
  };
  Placed placed{-1, 0, bytes};
  if (after >= 0) {
    const Placed& p = neighbour(after, "after");
    placed.block = p.block;
    placed.at = p.at + p.bytes;
  }
  int joining = -1;  // a second block the new region joins to the first
  if (before >= 0) {
    const Placed& q = neighbour(before, "before");
    if (placed.block < 0) {
      placed.block = q.block;
      placed.at = q.at - bytes;
    } else if (q.block != placed.block) {
      joining = q.block;
    } else if (q.at != placed.at + bytes) {
      throw std::invalid_argument("regions " + std::to_string(after) + " and " + std::to_string(before) +
                                  " are not " + std::to_string(bytes) + " bytes apart");
    }
  }
  // Every region's address before: those that change are reported.
  std::vector<std::pair<int, char*>> was;
  for (const auto& [id, p] : regions_)
    was.emplace_back(id, address_of(p));
  if (joining >= 0) {
    // The second block's regions take their places in the first, offsets
    // kept, and its memory goes.
    long long shift = placed.at + bytes - regions_.at(before).at;
    for (auto& [id, p] : regions_)
      if (p.block == joining) {
        p.block = placed.block;
        p.at += shift;
      }
    Block& gone = blocks_[static_cast<std::size_t>(joining)];
    retired_.push_back(std::move(gone.memory));
    gone.lo = gone.hi = 0;
  }
  if (placed.block < 0) {
    placed.block = static_cast<int>(blocks_.size());
    blocks_.emplace_back();
  }
  long long lo = placed.at, hi = placed.at + bytes;
  for (const auto& [id, p] : regions_)
    if (p.block == placed.block) {
      lo = std::min(lo, p.at);
      hi = std::max(hi, p.at + p.bytes);
    }
  cover(placed.block, lo, hi);
  regions_[region] = placed;
  for (const auto& [id, old_address] : was)
    if (char* now = address_of(regions_.at(id)); now != old_address)
      moved(id, old_address, now);
  return address_of(placed);
}

}  // namespace progsim::traces

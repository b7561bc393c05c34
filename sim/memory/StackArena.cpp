#include "sim/memory/StackArena.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace progsim::sim::memory {

namespace {
// Written by the simulator thread when the arena opens and when its mapping
// goes; read by every thread's free (program threads too): atomics, relaxed,
// since a thread can only hold a slot's address after the simulator gave it.
std::atomic<std::uintptr_t> g_begin{0};
std::atomic<std::uintptr_t> g_end{0};
std::atomic<bool> g_serving{false};
std::size_t g_slot_bytes = 0;
std::size_t g_next = 0;   // slots handed out so far
std::size_t g_slots = 0;  // capacity
std::size_t g_in_use = 0;

void unmap()
{
  auto begin = g_begin.load(std::memory_order_relaxed);
  auto end = g_end.load(std::memory_order_relaxed);
  g_begin.store(0, std::memory_order_relaxed);
  g_end.store(0, std::memory_order_relaxed);
  if (begin != end)
    ::munmap(reinterpret_cast<void*>(begin), end - begin);
}
}  // namespace

bool StackArena::open(std::size_t slots, std::size_t slot_bytes)
{
  auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  if (slots == 0 || slot_bytes == 0 || slot_bytes % page != 0 || g_begin.load(std::memory_order_relaxed) != 0)
    return false;
  std::size_t bytes = slots * slot_bytes;
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED)
    return false;
  g_slot_bytes = slot_bytes;
  g_slots = slots;
  g_next = 0;
  g_in_use = 0;
  g_begin.store(reinterpret_cast<std::uintptr_t>(base), std::memory_order_relaxed);
  g_end.store(reinterpret_cast<std::uintptr_t>(base) + bytes, std::memory_order_relaxed);
  g_serving.store(true, std::memory_order_relaxed);
  return true;
}

void StackArena::close()
{
  g_serving.store(false, std::memory_order_relaxed);
  if (g_in_use == 0)
    unmap();
}

void* StackArena::take(std::size_t bytes)
{
  if (!g_serving.load(std::memory_order_relaxed) || bytes != g_slot_bytes || g_next == g_slots)
    return nullptr;
  ++g_in_use;
  return reinterpret_cast<void*>(g_begin.load(std::memory_order_relaxed) + g_slot_bytes * g_next++);
}

bool StackArena::give_back(void* pointer)
{
  auto p = reinterpret_cast<std::uintptr_t>(pointer);
  if (p < g_begin.load(std::memory_order_relaxed) || p >= g_end.load(std::memory_order_relaxed))
    return false;
  // Fresh zero pages if the slot were served again (it is not: slots are
  // handed out once), and the memory back to the system now.
  ::madvise(pointer, g_slot_bytes, MADV_DONTNEED);
  if (--g_in_use == 0 && !g_serving.load(std::memory_order_relaxed))
    unmap();
  return true;
}

bool StackArena::usage(const void* inside, Usage& out)
{
  auto p = reinterpret_cast<std::uintptr_t>(inside);
  auto begin = g_begin.load(std::memory_order_relaxed);
  if (p < begin || p >= g_end.load(std::memory_order_relaxed) || g_slot_bytes == 0)
    return false;
  auto* slot = reinterpret_cast<unsigned char*>(begin + (p - begin) / g_slot_bytes * g_slot_bytes);
  auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  out.slot_bytes = g_slot_bytes;
  std::vector<unsigned char> resident(g_slot_bytes / page);
  out.resident_pages = 0;
  if (::mincore(slot, g_slot_bytes, resident.data()) == 0)
    for (unsigned char r : resident)
      out.resident_pages += r & 1;
  // Only resident pages can hold a written byte: reading the others would
  // make them resident (zero pages, but counted by the next measure).
  out.deepest = 0;
  for (std::size_t at = 0; at < g_slot_bytes; ++at) {
    if ((resident[at / page] & 1) == 0) {
      at += page - 1;
      continue;
    }
    if (slot[at] != 0) {
      out.deepest = g_slot_bytes - at;
      break;
    }
  }
  return true;
}

}  // namespace progsim::sim::memory

// The watched address ranges and the page protection that makes accesses to
// them trap.
//
// The signal handlers read this table, so it lives in fixed static arrays
// (no allocation, no locks) and its lookups are async-signal-safe. Writers
// (watch/unwatch) run in normal context; signals that arrive meanwhile see
// either the old or the new entry, since an entry is published last.
#pragma once

#include <cstddef>
#include <cstdint>

namespace progsim::sim::memory {

constexpr int kMaxWatches = 1024;

struct WatchEntry {
  std::uintptr_t base = 0;
  std::size_t bytes = 0;
  std::uintptr_t page_lo = 0;  // page range [page_lo, page_hi) kept protected
  std::uintptr_t page_hi = 0;
  // Bumped by every write that may have changed the range: a poll blocks
  // until it differs from the value the poller saw.
  volatile std::uint64_t generation = 0;
  volatile bool active = false;    // its pages are protected and its faults are explained by it
  volatile bool lazy = false;      // registered for lazy watching: active only while armed
  // A guard (MemoryWatch::guard): the buffer of `owner`'s pending operation.
  // Its faults are reported, never taken as polls or writes that wake
  // pollers. `reads_allowed`: only writes violate it (a send buffer), and
  // its pages are readable unless another watch needs them closed.
  volatile int owner = -1;
  volatile bool reads_allowed = false;
  // The clock of the rank on whose behalf simulator code last wrote the
  // range (a local query's output argument) while that rank's CPU debt was
  // not executed: SimGrid's clock was behind the write. A rank that reads
  // the range earlier in simulated time waits until then (MemoryWatch::on_read).
  volatile double visible_at = 0;
};

class WatchTable {
public:
  static std::uintptr_t page_size();
  static std::uintptr_t page_of(std::uintptr_t address) { return address & ~(page_size() - 1); }

  // Adds a range and protects its pages; returns its index or -1 (table full).
  static int add(std::uintptr_t base, std::size_t bytes);
  // Adds a guard of `owner`'s buffer (see WatchEntry::owner).
  static int add_guard(std::uintptr_t base, std::size_t bytes, int owner, bool reads_allowed);
  // Registers a range without protecting it: arm() makes it active.
  static int add_lazy(std::uintptr_t base, std::size_t bytes);
  // A lazy range becomes active (pages protected) or inactive again; the
  // pages of an inactive one stay protected if other watches cover them.
  static void arm(int index);
  static void disarm(int index);
  // Moves an active guard to [base, base + bytes): only the pages it gains
  // or loses change protection. False if `index` is not an active guard.
  static bool resize_guard(int index, std::uintptr_t base, std::size_t bytes);
  // Removes a range (lazy or not); its pages stay protected if other watches cover them.
  static void remove(int index);
  static void remove_all();
  static WatchEntry& entry(int index) { return entries_[index]; }
  // Indices [0, used()) are every entry ever claimed; the rest were never used.
  static int used() { return used_; }

  // --- async-signal-safe ---
  // Whether `page` is kept protected by some active watch.
  static bool page_watched(std::uintptr_t page);
  // The active watch (not a guard) containing `address`, or -1.
  static int find(std::uintptr_t address);
  // The active guard containing `address` that the access violates, or -1.
  static int find_guard(std::uintptr_t address, bool write);
  // Marks every watch overlapping [page, page + page_size) as written.
  static void bump_page(std::uintptr_t page);
  // Marks every watch overlapping [address, address + bytes) as written.
  static void bump_range(std::uintptr_t address, std::size_t bytes);
  // Lowest protected page in [lo, hi), or 0.
  static std::uintptr_t lowest_watched_page(std::uintptr_t lo, std::uintptr_t hi);
  // Protection of one watched page: none, or read-only when only guards
  // that allow reads cover it.
  static void protect(std::uintptr_t page);
  static void open(std::uintptr_t page);

private:
  // Whether an active watch other than `index` keeps `page` protected.
  static bool needed_by_other(int index, std::uintptr_t page);
  static int claim(std::uintptr_t base, std::size_t bytes);
  static void protect_range(std::uintptr_t lo, std::uintptr_t hi);
  static void open_unneeded(int index);
  // The entries ever claimed: [0, used_). Every lookup scans only those (a
  // run watches a few ranges; the signal handlers look up on every fault).
  struct Span {
    WatchEntry* first;
    WatchEntry* last;
    WatchEntry* begin() const { return first; }
    WatchEntry* end() const { return last; }
  };
  static Span in_use() { return {entries_, entries_ + used_}; }
  static WatchEntry entries_[kMaxWatches];
  static volatile int used_;
};

}  // namespace progsim::sim::memory

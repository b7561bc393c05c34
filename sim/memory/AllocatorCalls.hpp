// Whether the running thread is inside the C library's allocator.
//
// Signal handlers divert a rank into simulator code (Trampoline): to settle
// its CPU debt, to arm lazy watches, to end a stuck run. Diverted midway
// through malloc or free, the rank would leave the heap half updated (or the
// arena locked) while simulator code and other ranks allocate: heap damage or
// a self-deadlock. progsim's library therefore defines malloc, free, calloc,
// realloc and the aligned allocations as calls of glibc's own (`__libc_*`,
// which glibc exports for this) that count their depth; glibc calls them
// through its PLT too, so the allocations of printf or fopen count. Under
// AddressSanitizer, which replaces the allocator itself, they are not
// defined and inside() is always false.
#pragma once

namespace progsim::sim::memory {

class AllocatorCalls {
public:
  // --- async-signal-safe ---
  static bool inside();
  // Raises `signal` in this thread when it leaves the allocator (a handler
  // that could not divert it now tries again then); 0 raises nothing.
  static void signal_on_exit(int signal);
};

}  // namespace progsim::sim::memory

// Leaving a signal handler into simulator code, on the rank's own stack.
//
// A rank must never switch coroutines inside a signal handler (the handler
// runs on the shared alternate stack, with signals masked, in the middle of
// the kernel's signal frame). Instead the handler rewrites the interrupted
// context so that, when it returns, the rank *calls* the trampoline as if the
// interrupted instruction had called it (Go's asynchronous preemption does
// the same). The trampoline saves every register, the flags and the full
// xsave state, runs the simulator's handler in normal context (where it may
// block on SimGrid, let simulated time pass, or end the run), restores
// everything and jumps back to the interrupted instruction.
//
// x86-64 Linux only; elsewhere supported() is false.
#pragma once

#include <cstdint>

namespace progsim::sim::memory {

enum class TrapKind {
  Read,      // a rank read watched memory (after the single-stepped load)
  Write,     // a rank wrote watched memory (after the single-stepped store)
  Watchdog,  // the CPU-time watchdog found a rank spinning in user code
  ArmLazyWatches,  // ... for memory-watch-arm seconds: watch the lazily watched memory too
  Settle,    // a rank with CPU debt is about to access watched memory: execute the debt,
             // then retry the access, so that it happens at the rank's own clock
  Action,    // another thread asked the simulator thread to run `action` in a rank (SimulatorThread)
  Guard,     // a rank accessed a guarded buffer of a pending operation (after the stepped access)
};

struct TrapRequest {
  TrapKind kind = TrapKind::Read;
  std::uintptr_t address = 0;  // the accessed address (Read/Write)
  std::uintptr_t pc = 0;       // the interrupted instruction
  int rank = -1;
  void (*action)(void*) = nullptr;  // Action, called with action_data
  void* action_data = nullptr;
  int watch = -1;              // Guard: the guard's watch index
  bool write = false;          // Guard: the access wrote
};

class Trampoline {
public:
  static bool supported();
  // Measures the xsave area and notes the code of the simulator, where a
  // rank must not be diverted. `handler` runs in the rank for each request.
  static void initialize(void (*handler)(const TrapRequest&));

  // --- async-signal-safe ---
  // Whether the interrupted code may be diverted: user code (not the
  // simulator, SimGrid or the trampoline itself) and no request pending.
  static bool can_divert(const void* ucontext);
  // Whether the interrupted code is a sanitizer runtime's (under ASan: the
  // allocator, which AllocatorCalls cannot count): the rank runs its own
  // code there but cannot be diverted.
  static bool in_sanitizer_runtime(const void* ucontext);
  // Rewrites `ucontext` so that the rank runs `handler(request)` when the
  // signal handler returns. The frame goes below the red zone and below any
  // watched page near the stack pointer (stack variables may be watched).
  static void divert(void* ucontext, const TrapRequest& request);
};

}  // namespace progsim::sim::memory

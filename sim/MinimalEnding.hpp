// The last resort of an ending that cannot build the full report: the
// program damaged the heap (CrashHandler), or the simulator could not be
// stopped, within a bounded host time, at a point where building it is safe
// (Interruption: a second signal or the grace period, and the simulator
// busy in its own code or in the allocator). The message goes to the real
// stderr, the report has the outcome, the exit status, the message and why
// it has nothing else ("partial"), a requested timeline is a valid file with
// no event marked partial, the temporary directories are removed and the
// process exits.
//
// Async-signal-safe: system calls, and snprintf of numbers and C strings
// into static buffers (no allocation, no stdio stream, no lock), so it may
// run in a signal handler that interrupted the allocator or printf.
#pragma once

namespace progsim::sim {

class Simulation;

// Writes all of `text` to `fd` with write(2) (async-signal-safe; gives up
// at an error).
void write_text(int fd, const char* text);

class MinimalEnding {
public:
  // `outcome` as in the report ("interrupted", "crashed"); `end` the
  // simulated time for the timeline; `show_message`: `message` on stderr too
  // (false when it was printed already); `why`: the line on stderr that
  // says why the report is minimal; `partial`: the same for the report's
  // "partial" field and the timeline.
  [[noreturn]] static void end(const Simulation* simulation, const char* outcome, int exit_status, double end,
                               const char* message, bool show_message, const char* why, const char* partial);
};

}  // namespace progsim::sim

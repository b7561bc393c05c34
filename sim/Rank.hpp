// One MPI process of the simulated job: a SimGrid actor running a private
// instance of the user's program on its simulated host.
#pragma once

#include "sim/LibcState.hpp"
#include "sim/RankClock.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Host.hpp>

#include <cstdint>
#include <memory>
#include <functional>
#include <string>
#include <vector>

namespace progsim::sim {

// Where the rank's control is. Explicit so that reports and deadlock
// explanations can say what each rank was doing.
enum class RankState {
  NotStarted,
  UserCode,   // running the program between MPI calls
  InMpi,      // inside an MPI procedure, not waiting
  Blocked,    // inside an MPI procedure, waiting for something outside the rank
  Sleeping,   // in sleep()/usleep()/nanosleep()
  Polling,    // in user code, blocked re-reading watched memory until it is written (sim/memory)
  Finished,   // returned from main (or exit()) after MPI_Finalize
  Failed,     // aborted, crashed, or ended without MPI_Finalize
};
const char* to_string(RankState state);

class Rank {
public:
  Rank(int id, simgrid::s4u::Host* host, double time_quantum, double observation_lag)
      : libc_(id), id_(id), host_(host), clock_(id, host, time_quantum, observation_lag)
  {
  }

  int id() const { return id_; }
  simgrid::s4u::Host* host() const { return host_; }
  RankClock& clock() { return clock_; }
  const RankClock& clock() const { return clock_; }

  RankState state() const { return state_; }

  // The rank's coroutine stack, as far as it is known for sure: called at
  // the rank's entry with that frame's address and the stack size, it
  // keeps the part below the entry frame that cannot belong to another
  // stack (the entry frame lies within kStackEntryDepth of the stack's top).
  // stack_holds(frame): whether `frame` is an address in it, so that the
  // code running there is this rank's (Simulation::current_rank).
  static constexpr std::uintptr_t kStackEntryDepth = 16 * 1024;
  void set_stack(const void* entry_frame, std::uintptr_t stack_size)
  {
    auto entry = reinterpret_cast<std::uintptr_t>(entry_frame);
    stack_span_ = stack_size > 2 * kStackEntryDepth ? stack_size - kStackEntryDepth : 0;
    stack_low_ = entry - stack_span_;
  }
  bool stack_holds(const void* frame) const
  {
    return reinterpret_cast<std::uintptr_t>(frame) - stack_low_ < stack_span_;
  }
  void set_state(RankState state);  // Rank.cpp: also records the timeline
  // A local query that runs inline (CallScope) enters MPI at `now` and
  // leaves it at `now` without another rank running meanwhile. Inline
  // queries back to back (nothing in between takes simulated time: user
  // time counts zero by default) make one stretch inside MPI, which the
  // listener hears of as one entry and one exit when it ends, before the
  // next state change: the overlap meter merges touching intervals, so it
  // records the same (millions of MPI_Type_size calls in MPICH's datatype
  // pools told it twice each). The timeline hears of each query at once.
  // A state change inside the query tells the entry first. Rank.cpp.
  void enter_inline_query(double now);
  void leave_inline_query(double now);

  // The MPI procedure the rank is in (nullptr in user code), the last one it
  // entered, and how many it called.
  const char* current_call() const { return current_call_; }
  const char* last_call() const { return last_call_ ? last_call_ : ""; }  // "" before any
  uint64_t mpi_calls() const { return mpi_calls_; }
  // Whether the current call was made inside another one (by MPI itself or
  // by a program callback).
  bool in_nested_call() const { return outer_calls_.size() > 1; }
  // Entering an MPI procedure leaves user code: the rank's C-library
  // variables are saved (LibcState), and restored when it returns.
  void enter_call(const char* name, const void* caller)
  {
    libc_.enter_simulator();
    outer_calls_.push_back(current_call_);
    count_call(name, caller);
  }
  // A local query that runs inline (CallScope, never nested): the same
  // accounting, with the C library's state left installed, as no other rank
  // can run meanwhile.
  void enter_inline_call(const char* name, const void* caller) { count_call(name, caller); }
  void leave_inline_call()
  {
    current_call_ = nullptr;
    libc_.keep_installed();
  }
  // A call made inside another one (by the library, or by a program
  // callback such as an attribute delete function in MPI_Finalize) returns
  // to the outer call, which is again the current and the last one.
  void leave_call()
  {
    current_call_ = outer_calls_.empty() ? nullptr : outer_calls_.back();
    if (!outer_calls_.empty())
      outer_calls_.pop_back();
    if (current_call_)
      last_call_ = current_call_;
    libc_.leave_simulator();
  }
  // A program callback that an MPI call runs (an attribute function, a user
  // reduction, an error handler, a generalized request's query, free or
  // cancel function): the MPI calls it makes are the program's own, though
  // made inside another one. The interposed library's caller (the outer
  // call's) does not apply to them: a call it did not see itself must reach
  // the program-call hook (sim/ProgramCallHook.hpp, CallScope).
  void enter_program_callback()
  {
    callbacks_.push_back({outer_calls_.size(), interposed_caller});
    interposed_caller = nullptr;
  }
  void leave_program_callback()
  {
    interposed_caller = callbacks_.back().interposed_caller;
    callbacks_.pop_back();
  }
  // Whether a call entering now is made by the program: from user code, or
  // directly by a program callback (not by a call that callback made, nor by
  // the library itself).
  bool program_calling() const
  {
    return !current_call_ || (!callbacks_.empty() && callbacks_.back().depth == outer_calls_.size());
  }
  // How many program callbacks are under way, one inside another's call.
  std::size_t program_callbacks() const { return callbacks_.size(); }
  // Where the current (outermost) MPI procedure returns to: in the program
  // when the program called it directly, else in a library between them.
  std::uintptr_t call_return_address() const { return call_return_address_; }

  // MPI life cycle, maintained by the MPI model.
  bool mpi_initialized = false;
  bool mpi_finalized = false;
  // Sessions (MPI-4.1 §11.3) initialized and not finalized yet, and whether
  // the rank ever initialized one: a rank that only uses the Sessions Model
  // never calls MPI_Init and ends normally once its sessions are finalized.
  int open_sessions = 0;
  bool used_sessions = false;
  // MPI may be called now: the World Model is initialized and not finalized,
  // or a session is open (MPI-4.1 §11.4.1).
  bool mpi_usable() const { return (mpi_initialized && !mpi_finalized) || open_sessions > 0; }

  // Simulated time the rank last returned from an MPI procedure.
  double left_mpi_at = 0;
  // Reads of a clock by the program outside MPI (gettimeofday, clock_gettime,
  // time): a loop that reads one may be waiting for a time-out, not livelocked.
  uint64_t clock_reads = 0;

  // What a blocked rank waits for, in words ("MPI_Recv(source=1, tag=0,
  // ...)"), described on demand: building the text at every blocking call
  // cost more than the call. The describer lives in the blocked call's
  // frame; freeze() keeps the text before frames go away.
  void set_blocked_on(const std::function<std::string()>* describe)
  {
    if (frozen_)
      return;
    blocked_describe_ = describe;
    blocked_on_.clear();
  }
  const std::string& blocked_on() const
  {
    if (blocked_on_.empty() && blocked_describe_)
      blocked_on_ = (*blocked_describe_)();
    return blocked_on_;
  }
  // The run ended: the rank's state and what it waits for stay as they are
  // now for the report, while its actor is killed and unwinds (unwinding
  // leaves MPI calls, which would otherwise show it in user code).
  bool frozen() const { return frozen_; }
  void freeze()
  {
    blocked_on();
    blocked_describe_ = nullptr;
    frozen_ = true;
  }

  // End of the rank: simulated finish time and how it ended.
  double finish_time = -1;
  int exit_code = 0;
  std::string end_reason;

  // Where a replayed rank is in its trace (progsim replay): explanations name
  // this trace line rather than the replay program's source. Set per event by
  // the replay (pointers to strings it keeps), unset otherwise.
  struct TracePosition {
    const std::string* file = nullptr;
    const std::string* event = nullptr;
    long line = 0;
    const char* separator = ":";  // ", event " for OTF2 archives (event indices, not lines)
    // The file, kept after the replay ends: errors found later (a
    // collective mismatch seen by a peer) name lines the rank replayed.
    std::string kept_file;
  };
  TracePosition trace_position;
  // "FILE:LINE (EVENT)" while replaying, else "".
  std::string trace_location() const
  {
    if (!trace_position.file)
      return "";
    return *trace_position.file + trace_position.separator + std::to_string(trace_position.line) +
           (trace_position.event ? " (" + *trace_position.event + ")" : std::string());
  }
  // "FILE:LINE" of an earlier event of the rank's trace ("" if it never replayed one).
  std::string trace_site(long line) const
  {
    return trace_position.kept_file.empty() ? ""
                                            : trace_position.kept_file + trace_position.separator + std::to_string(line);
  }

  // Where the program called the library interposed between it and MPI
  // (InterposedCall), while that library's call lasts; else null.
  const void* interposed_caller = nullptr;

  // Host CPU time at the last return from MPI (user-time=measured).
  double user_cpu_mark = 0;

  // Per-rank state of the MPI model, opaque to the runtime.
  std::shared_ptr<void> model_state;

  // The C library's per-process state, this rank's (LibcState.hpp).
  LibcState& libc() { return libc_; }

private:
  void count_call(const char* name, const void* caller)
  {
    if (!current_call_)  // not a procedure the library calls itself
      call_return_address_ = reinterpret_cast<std::uintptr_t>(caller);
    current_call_ = name;
    last_call_ = name;
    ++mpi_calls_;
  }

  LibcState libc_;
  const std::function<std::string()>* blocked_describe_ = nullptr;
  bool frozen_ = false;
  std::uintptr_t stack_low_ = 0;
  std::uintptr_t stack_span_ = 0;  // 0: unknown
  bool entry_untold_ = false;  // an inline query's entry not yet told to the listener
  bool stretch_untold_ = false;  // inline queries back to back, not yet told
  double stretch_begin_ = 0;
  double stretch_end_ = 0;
  void tell_stretch();
  double entered_at_ = 0;      // when it entered
  mutable std::string blocked_on_;
  int id_;
  simgrid::s4u::Host* host_;
  RankClock clock_;
  RankState state_ = RankState::NotStarted;
  const char* current_call_ = nullptr;
  std::vector<const char*> outer_calls_;  // the calls current_call_ is nested in
  struct Callback {
    std::size_t depth;                  // outer_calls_.size() while the callback runs
    const void* interposed_caller;      // the outer call's, restored when it returns
  };
  std::vector<Callback> callbacks_;  // program callbacks under way, innermost last
  std::uintptr_t call_return_address_ = 0;
  const char* last_call_ = nullptr;  // call names are string literals
  uint64_t mpi_calls_ = 0;
};

}  // namespace progsim::sim

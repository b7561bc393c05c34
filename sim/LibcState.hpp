// The C library's per-process state, kept per rank.
//
// In an MPI job each rank is a process with its own C library; progsim runs
// every rank as a coroutine of one thread over one C library, so whatever
// the C library keeps per process would be shared by the ranks (rank 0's
// getopt loop would leave optind at the end for the others). Two kinds of
// state, two mechanisms, both chosen for being exact and cheap:
//
//  - Variables the C library writes and the program reads directly: errno,
//    getopt's optind/optarg/opterr/optopt, environ. Ranks only switch inside
//    the simulator (a rank gives control away only in an MPI call, a wrapped
//    sleep, a memory poll or progsim_compute), so these are saved when a rank
//    leaves its user code for the simulator and restored when it returns to
//    it: user code always sees its own values. A few words per MPI call, and
//    no hook on SimGrid's context switches (s4u has none). Should a rank
//    give control away before it says it left user code, the next rank to
//    return to user code saves the values for it. The simulator itself runs
//    with the process's environment.
//    The C streams' buffers are shared too: what the rank wrote through
//    them is forwarded as its output when it leaves user code
//    (OutputCapture::user_code_left), so that lines stay whole per rank.
//  - State hidden inside the C library: the rand()/random() and drand48()
//    generators, strtok()'s position, the atexit() list, getopt's scanning
//    position, the array setenv grows. progsim-cc wraps the program's calls
//    (-Wl,--wrap, see
//    LibcStateWrappers.cpp) and they run on the rank's state below with the
//    reentrant forms (random_r, drand48_r, strtok_r).
//
// With --privatize=off the ranks share the program's globals but still not
// this state.
#pragma once

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace progsim::sim {

class LibcState {
public:
  // The state of a process that just started: errno 0, getopt at argv[1],
  // a copy of the process's environment, unseeded generators.
  explicit LibcState(int rank);
  ~LibcState();
  // Variables every rank's environment has on top of the process's (the
  // launcher's -x / -genv), set before the ranks are created; progsim's
  // own environment stays as it is.
  static void set_rank_variables(const std::vector<std::pair<std::string, std::string>>& variables);
  LibcState(const LibcState&) = delete;
  LibcState& operator=(const LibcState&) = delete;

  // The rank leaves user code for the simulator / returns to it. Nested
  // entries (an MPI procedure calling another) count: only the outermost
  // pair saves and restores.
  void enter_simulator()
  {
    if (depth_++ == 0)
      save();
  }
  void leave_simulator()
  {
    if (depth_ > 0 && --depth_ == 0)
      restore();
  }
  // The rank runs its user code for the first time.
  void start_user_code() { restore(); }
  // The simulator calls back into user code (a reduction operation, an
  // error handler) from inside an MPI call, and gets control back.
  void enter_callback() { restore(); }
  void leave_callback() { save(); }
  // The end of an MPI call that never saved (CallScope's inline local
  // query): the program's values are installed again if a callback saved them.
  void keep_installed() { restore(); }

  // Runs `call` (getopt, getopt_long, ...) for this rank. The position in
  // the current argv element ("-abc") is hidden in the C library: when
  // another rank called getopt since this one did, a new scan restarts the
  // C library (optind = 0, as in a new process), and a scan under way is
  // put back by replaying this rank's calls of it silently.
  int getopt(const std::function<int()>& call);

  // setenv and putenv: glibc's grow one array of its own, shared by every
  // rank; these edit the rank's array instead (getenv, unsetenv and
  // clearenv work on environ, which is the rank's).
  int setenv(const char* name, const char* value, int overwrite);
  int putenv(char* entry);

  // The generators of rand/random (random_r) and drand48 (drand48_r).
  random_data& random_generator();
  char*& random_state_buffer() { return random_buffer_; }  // the state initstate/setstate last installed
  drand48_data& drand48_generator() { return drand48_; }
  char*& strtok_position() { return strtok_position_; }

  // atexit()/on_exit() handlers, run in reverse order when the rank exits
  // (returns from main or calls exit()), as at a process's exit.
  void add_exit_handler(void (*handler)()) { exit_handlers_.push_back({handler, nullptr, nullptr}); }
  void add_exit_handler(void (*handler)(int, void*), void* argument)
  {
    exit_handlers_.push_back({nullptr, handler, argument});
  }
  // Runs and forgets them; exit() in a handler ends that handler only
  // (calling exit twice is undefined in C).
  void run_exit_handlers(int status);

  // What the program set with sigaction()/signal() for a signal progsim
  // keeps for itself (SignalWrappers.cpp): given back to it by the next
  // call, never installed. nullptr: nothing set (the default action).
  const struct sigaction* program_signal_action(int sig) const;
  void set_program_signal_action(int sig, const struct sigaction& action);

  // The simulation ended (whatever rank was in user code): the simulator
  // gets the process's environment back.
  static void restore_process_environment();

private:
  void save();
  void restore();
  void capture();
  void resume_getopt_scan(const std::function<int()>& call);
  // Makes environment_ hold environ's entries (the program may have set
  // environ, clearenv may have emptied it) before it is edited.
  void adopt_environment();
  std::vector<char*>::iterator find_variable(const char* name, std::size_t length);

  int rank_;
  int depth_ = 0;
  int errno_ = 0;
  int optind_ = 1;
  int opterr_ = 1;
  int optopt_ = '?';
  char* optarg_ = nullptr;
  char** environ_ = nullptr;
  std::vector<char*> environment_;  // this rank's initial copy of the environment
  int getopt_calls_ = 0;           // calls of the current scan
  int getopt_optind_after_ = -1;   // optind after the last call: another value starts a new scan
  bool random_ready_ = false;
  random_data random_{};
  alignas(std::int32_t) char random_default_state_[128]{};  // glibc's default: TYPE_3
  char* random_buffer_ = nullptr;
  drand48_data drand48_{};
  char* strtok_position_ = nullptr;
  std::vector<std::pair<int, struct sigaction>> signal_actions_;  // few, set by few programs
  struct ExitHandler {
    void (*plain)();                   // atexit
    void (*with_status)(int, void*);   // on_exit
    void* argument;
  };
  std::vector<ExitHandler> exit_handlers_;
};

// The rank leaves user code for the simulator for the lifetime of this
// object (a wrapped sleep, a memory poll, progsim_compute; MPI procedures
// go through Rank::enter_call).
class SimulatorEntry {
public:
  explicit SimulatorEntry(LibcState& state) : state_(state) { state_.enter_simulator(); }
  ~SimulatorEntry() { state_.leave_simulator(); }
  SimulatorEntry(const SimulatorEntry&) = delete;
  SimulatorEntry& operator=(const SimulatorEntry&) = delete;

private:
  LibcState& state_;
};

}  // namespace progsim::sim

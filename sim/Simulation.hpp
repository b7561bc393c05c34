// One simulated run: the SimGrid engine, the platform, the ranks as actors,
// and how the run ended. There is one Simulation per process (SimGrid keeps
// global state), reachable with Simulation::current().
#pragma once

#include <atomic>

#include "sim/Config.hpp"
#include "sim/Outcome.hpp"
#include "sim/ProgramImage.hpp"
#include "sim/Rank.hpp"
#include "sim/RankModel.hpp"
#include "sim/RunOptions.hpp"
#include "sim/RuntimeParameters.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace progsim::sim {

struct RunResult {
  Outcome outcome = Outcome::Completed;
  std::string message;    // one line per problem, empty when completed
  int exit_status = 0;
  double simulated_time = 0;
};

class Simulation {
public:
  // Validates everything that can be checked before running (options,
  // platform, hostfile, program); throws InputError with a precise reason.
  Simulation(RunOptions options, RankModel& model);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  RunResult run();
  // The --cfg table of the runtime and of `model`, for `--cfg help`.
  static std::string parameter_help(RankModel& model);
  // Checks one --cfg setting as a run would before it starts (a key progsim
  // does not know, a value it cannot parse or out of the key's range):
  // throws InputError naming the key and value. Keys with a '/' that
  // progsim does not know are SimGrid's: the model names are checked here
  // (check_simgrid_setting), the rest when a run starts.
  static void check_parameter(RankModel& model, const std::string& key, const std::string& value);
  // Whether progsim knows `key`, or leaves it to SimGrid (it has a '/').
  static bool knows_parameter(RankModel& model, const std::string& key);
  // Writes the JSON report if one was requested (also called after a crash).
  void write_report() const;
  void write_timeline_file() const;

  static Simulation* current() { return current_; }
  const RunOptions& options() const { return options_; }
  const RuntimeParameters& parameters() const { return parameters_; }
  int size() const { return static_cast<int>(ranks_.size()); }
  Rank& rank(int id) { return *ranks_[id]; }
  const Rank& rank(int id) const { return *ranks_[id]; }
  // The rank whose actor is running now, or nullptr (simulator code).
  Rank* current_rank() const;
  RankModel& model() { return model_; }
  const RankModel& model() const { return model_; }
  const RunResult& result() const { return result_; }
  bool running() const { return running_; }
  // An outcome was decided: the run is ending.
  bool ending() const { return outcome_decided_; }

  // Every ending goes through one of two paths that share the outcome
  // decision, the frozen descriptions of blocked ranks, the report, the
  // timeline (marked partial) and the removal of temporary directories:
  //  - end_run, from a rank or agent (MPI_Abort, fatal error, exit without
  //    finalize, deadlock, watchdog, interruption): kills every actor and
  //    lets run() finish; does not return;
  //  - end_from_signal, from a signal handler whose rank cannot be unwound
  //    (a crash), from a rank diverted into the trampoline (an interruption
  //    no rank noticed at a safe point: Interruption.hpp), or for a thread
  //    of the program (the rank's stack may hold a C++ std::thread being
  //    joined, whose destructor calls std::terminate): writes what run()
  //    would and exits the process.
  [[noreturn]] void end_run(Outcome outcome, const std::string& message, int exit_status);
  [[noreturn]] void end_from_signal(Outcome outcome, const std::string& message, int exit_status);
  // From now on end_run ends as end_from_signal does (a thread of the
  // program ends its rank: ProgramThreads).
  void end_without_unwinding() { end_without_unwinding_ = true; }
  // What end_from_signal also finishes before the process exits (outputs
  // its caller writes after run() otherwise: the OTF2 export), given the
  // simulated end.
  void on_end_from_signal(std::function<void(double)> finish) { finish_after_signal_ = std::move(finish); }
  // Host time decided the outcome (the CPU-time watchdog fired).
  void mark_nondeterministic() { deterministic_ = false; }
  // The simulated time of the engine (0 before it started).
  double now() const;
  // The latest clock of the engine and of the ranks still running: a rank
  // with deferred CPU debt is ahead of the engine (RankClock), and a run
  // that ends (a deadlock) ends when its last rank got there.
  double latest_clock() const;

  // Called by the rank runtime when a rank's main returns or exit() is called.
  void rank_returned(Rank& rank, int code);

private:
  // Freezes every rank's state and description of what it waits for
  // (Rank::freeze) before ending the run kills and unwinds the actors.
  void freeze_ranks();
  void build_config();
  void start_engine();
  // Guard pages below each rank's stack (SimGrid's contexts/guard-size):
  // one below 4,096 ranks, none from there, unless --cfg guard-pages says.
  long long stack_guard_pages() const;
  void create_ranks();
  void on_deadlock();
  // A rank returned from main without `missing_call` (MPI_Finalize, or
  // MPI_Session_finalize for a session left open): the run is aborted.
  [[noreturn]] void end_without_finalize(Rank& rank, const std::string& missing_call);
  // The first outcome decided is the run's; later ones are ignored.
  void decide_outcome(Outcome outcome, const std::string& message, int exit_status);
  // After run_until() reached the time limit: kills the actors still
  // running (ranks, progress threads, NIC watchers) and lets them unwind,
  // so that no semaphore or activity is destroyed while one waits on it.
  void stop_remaining_actors();
  void finish_result();

  RunOptions options_;
  RankModel& model_;
  RuntimeParameters parameters_;
  Config config_;
  std::unique_ptr<simgrid::s4u::Engine> engine_;
  std::unique_ptr<ProgramImage> program_;
  std::vector<std::unique_ptr<Rank>> ranks_;
  std::vector<Rank*> rank_by_actor_;  // indexed by SimGrid actor id
  // The rank current_rank() found last: the next call, most often from the
  // same rank, is recognised by its stack (Rank::stack_holds) without
  // asking SimGrid. Atomic: another thread of the program may ask.
  mutable std::atomic<Rank*> last_found_{nullptr};
  RunResult result_;
  std::function<void(double)> finish_after_signal_;
  bool outcome_decided_ = false;
  // When end_from_signal ended the run (it gives every rank a finish time, so
  // latest_clock can no longer find it from the ranks still running), or -1.
  double ended_from_signal_at_ = -1;
  bool end_without_unwinding_ = false;
  bool running_ = false;
  bool deterministic_ = true;

  static Simulation* current_;
};

}  // namespace progsim::sim

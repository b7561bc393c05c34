#include "sim/Simulation.hpp"

#include "sim/CrashHandler.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/ForkedChild.hpp"
#include "sim/InputFile.hpp"
#include "sim/Interruption.hpp"
#include "sim/OutputCapture.hpp"
#include "sim/ProgressLine.hpp"
#include "sim/Placement.hpp"
#include "sim/Report.hpp"
#include "sim/RankRuntime.hpp"
#include "sim/SimgridSettings.hpp"
#include "sim/TemporaryDirectory.hpp"
#include "sim/memory/MemoryWatch.hpp"
#include "sim/memory/StackArena.hpp"
#include "sim/timeline/Timeline.hpp"
#include "sim/timeline/TimelineFormats.hpp"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u/Actor.hpp>

#include <csignal>
#include <malloc.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace sg4 = simgrid::s4u;

namespace progsim::sim {

Simulation* Simulation::current_ = nullptr;

namespace {

constexpr int kGlibcTopPad = 128 * 1024;  // M_TOP_PAD's default (mallopt(3))

}  // namespace

const char* to_string(Outcome outcome)
{
  switch (outcome) {
    case Outcome::Completed: return "completed";
    case Outcome::Deadlock: return "deadlock";
    case Outcome::Aborted: return "aborted";
    case Outcome::Crashed: return "crashed";
    case Outcome::Stuck: return "stuck";
    case Outcome::Erroneous: return "erroneous";
    case Outcome::Interrupted: return "interrupted";
  }
  return "?";
}

const char* to_string(RankState state)
{
  switch (state) {
    case RankState::NotStarted: return "not-started";
    case RankState::UserCode: return "user-code";
    case RankState::InMpi: return "in-mpi";
    case RankState::Blocked: return "blocked";
    case RankState::Sleeping: return "sleeping";
    case RankState::Polling: return "polling-memory";
    case RankState::Finished: return "finished";
    case RankState::Failed: return "failed";
  }
  return "?";
}

Simulation::Simulation(RunOptions options, RankModel& model) : options_(std::move(options)), model_(model)
{
  if (current_)
    throw InputError{"only one simulation per process"};
  if (options_.nranks < 1)
    throw InputError{"-n must be at least 1"};
  if (options_.ranks_per_node < 1)
    throw InputError{"--ranks-per-node must be at least 1"};
  build_config();
  for (auto& [key, value] : options_.cfg) {
    if (config_.knows(key) || key.find('/') == std::string::npos)
      config_.set(key, value);
  }
  parameters_.measure_user_time = parameters_.user_time == "measured";
  deterministic_ = !parameters_.measure_user_time;
  if (options_.platform_file.empty())
    options_.platform_file = data_directory() + "/platforms/cluster-128.xml";
  if (std::string why = input_file_problem(options_.platform_file); !why.empty())
    throw InputError{options_.platform_file + ": cannot read the platform file" + why};
  program_ = std::make_unique<ProgramImage>(options_.program, options_.privatize);
  current_ = this;
  start_engine();
  LibcState::set_rank_variables(options_.environment);
  create_ranks();
}

Simulation::~Simulation()
{
  model_.on_simulation_teardown();
  current_ = nullptr;
}

void Simulation::build_config()
{
  register_runtime_parameters(config_, parameters_);
  model_.register_parameters(config_);
}

namespace {

// Every --cfg parameter of the runtime and of a model, bound to throwaway
// fields (and to `model`'s own, which the caller made for this): --cfg help
// and the checks of settings before any run.
struct ScratchConfig {
  Config config;
  RuntimeParameters parameters;
  explicit ScratchConfig(RankModel& model)
  {
    register_runtime_parameters(config, parameters);
    model.register_parameters(config);
  }
};

}  // namespace

std::string Simulation::parameter_help(RankModel& model)
{
  return ScratchConfig(model).config.help();
}

bool Simulation::knows_parameter(RankModel& model, const std::string& key)
{
  return key.find('/') != std::string::npos || ScratchConfig(model).config.knows(key);
}

void Simulation::check_parameter(RankModel& model, const std::string& key, const std::string& value)
{
  ScratchConfig scratch(model);
  if (!scratch.config.knows(key) && key.find('/') != std::string::npos) {
    check_simgrid_setting(key, value);
    return;  // SimGrid checks the rest when a run starts
  }
  scratch.config.set(key, value);
}

long long Simulation::stack_guard_pages() const
{
  return parameters_.guard_pages >= 0 ? parameters_.guard_pages : (options_.nranks < 4096 ? 1 : 0);
}

void Simulation::start_engine()
{
  long long guard = stack_guard_pages();
  std::vector<std::string> args = {"progsim",
                                   "--log=root.thres:critical",
                                   "--log=ker_engine.app:file:/dev/null",
                                   "--log=ker_engine.add:no",
                                   "--cfg=contexts/factory:boost",
                                   // Latency and bandwidth exactly as the platform says (no TCP
                                   // correction factors); --cfg network/model=... overrides.
                                   "--cfg=network/model:CM02",
                                   "--cfg=network/crosstraffic:0",
                                   "--cfg=contexts/stack-size:" + std::to_string(parameters_.stack_size_kib),
                                   "--cfg=contexts/guard-size:" + std::to_string(guard)};
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  engine_ = std::make_unique<sg4::Engine>(&argc, argv.data());
  for (auto& [key, value] : options_.cfg) {
    if (config_.knows(key) || key.find('/') == std::string::npos)
      continue;
    check_simgrid_setting(key, value);
    try {
      sg4::Engine::set_config(key + ":" + value);
    } catch (const std::exception& e) {
      throw InputError{"--cfg " + key + "=" + value + ": " + simgrid_error_summary(e.what())};
    }
  }
  try {
    engine_->load_platform(options_.platform_file);
  } catch (const simgrid::ParseError& e) {
    throw InputError{"invalid platform: " + std::string(e.what())};
  } catch (const std::exception& e) {
    throw InputError{options_.platform_file + ": invalid platform: " + e.what()};
  }
  if (engine_->get_host_count() == 0)
    throw InputError{options_.platform_file + ": the platform has no host"};
}

void Simulation::create_ranks()
{
  std::vector<sg4::Host*> hosts = engine_->get_all_hosts();
  PlacementRequest request{options_.nranks,   options_.ranks_per_node, options_.hostfile,
                           options_.host_list, options_.map_by,         options_.oversubscribe};
  std::vector<sg4::Host*> placement = place_ranks(request, hosts);
  for (int r = 0; r < options_.nranks; ++r)
    ranks_.push_back(
        std::make_unique<Rank>(r, placement[r], parameters_.time_quantum, parameters_.observation_lag));
}

Rank* Simulation::current_rank() const
{
  // Every MPI call asks: one context lookup. Outside SimGrid's contexts
  // (another thread) there is no actor; maestro's id (0) maps to no rank.
  if (!running_)
    return nullptr;
  Rank* last = last_found_.load(std::memory_order_relaxed);
  if (last && last->stack_holds(__builtin_frame_address(0)))
    return last;
  const sg4::Actor* self = sg4::Actor::self();
  if (!self)
    return nullptr;
  auto aid = static_cast<size_t>(self->get_pid());
  Rank* rank = aid < rank_by_actor_.size() ? rank_by_actor_[aid] : nullptr;
  if (rank)
    last_found_.store(rank, std::memory_order_relaxed);
  return rank;
}

RunResult Simulation::run()
{
  // Again: SimGrid's engine installed its own SIGINT handler (exit 1, no report).
  Interruption::install();
  Interruption::set_simulation(this);
  model_.on_simulation_start(*this);
  parameters_.call_cost += model_.call_overhead();
  std::vector<std::string> argv = {options_.program};
  argv.insert(argv.end(), options_.args.begin(), options_.args.end());

  // Load every instance first: a loading error is still an input error.
  std::vector<ProgramInstance> instances;
  for (auto& rank : ranks_) {
    // A signal while loading (thousands of privatized copies take seconds)
    // ends the run here, before its grace period could expire in loading code
    // that cannot be diverted (Interruption.hpp).
    if (Interruption::pending())
      break;
    instances.push_back(program_->instantiate(rank->id()));
  }
  program_->loading_done();

  sg4::Engine::on_deadlock_cb([this] { on_deadlock(); });
  OutputCapture::start(options_.tag_output);
  CrashHandler::install(*this);
  // After SimGrid's engine and the CrashHandler: unexplained faults chain to it.
  memory::MemoryWatch::instance().start(*this, parameters_);
  if (!options_.timeline_file.empty())
    Timeline::start(size(), options_.policy, options_.timeline_selection);
  running_ = true;
  ProgressLine::start(*this, OutputCapture::real_stderr());
  if (int sig = Interruption::pending()) {  // while the program was loading
    decide_outcome(Outcome::Interrupted, Interruption::message(sig, 0, " (before the run started)"), 128 + sig);
  } else {
    // SimGrid callocs each rank's stack. glibc clears a calloc'd block carved
    // from heap memory it already holds, which made every page of a small
    // (replay: 64 KiB) stack resident at once; with no top padding each stack
    // is freshly sbrk'd memory, known zero and left untouched, so only the
    // pages a rank uses become resident (10,000-rank replay: 77 -> 34 KiB
    // per rank). Large stacks are mmapped anyway.
    ::mallopt(M_TOP_PAD, 0);
    // Unguarded stacks come from one mapping instead (memory/StackArena.hpp):
    // page-aligned and apart from the heap, only their used pages resident.
    if (stack_guard_pages() == 0)
      memory::StackArena::open(ranks_.size(), static_cast<std::size_t>(parameters_.stack_size_kib) * 1024);
    for (auto& rank : ranks_) {
      ProgramInstance instance = instances[static_cast<size_t>(rank->id())];
      Rank* r = rank.get();
      // argv by reference: every actor ends before run() returns
      // (stop_remaining_actors); a copy per rank cost about 200 bytes each.
      sg4::ActorPtr actor = sg4::Actor::create("rank-" + std::to_string(r->id()), r->host(),
                                               [this, r, instance, &argv] { run_rank(*this, *r, instance, argv); });
      auto aid = static_cast<size_t>(actor->get_pid());
      if (rank_by_actor_.size() <= aid)
        rank_by_actor_.resize(aid + 1, nullptr);
      rank_by_actor_[aid] = r;
    }
    memory::StackArena::close();
    ::mallopt(M_TOP_PAD, kGlibcTopPad);
    if (options_.host_time_limit > 0)
      Interruption::limit_host_time(options_.host_time_limit, options_.host_time_limit_source);
    if (options_.time_limit > 0)
      engine_->run_until(options_.time_limit);
    else
      engine_->run();
  }
  ProgressLine::stop();
  freeze_ranks();
  finish_result();  // before stop_remaining_actors, at the time the run stopped
  // The run is over: a signal from here on waits until the files are written.
  sigset_t interruptions, previous;
  sigemptyset(&interruptions);
  for (int s : {SIGINT, SIGTERM, SIGALRM})
    sigaddset(&interruptions, s);
  ::sigprocmask(SIG_BLOCK, &interruptions, &previous);
  Interruption::set_simulation(nullptr);
  stop_remaining_actors();
  running_ = false;
  LibcState::restore_process_environment();
  memory::MemoryWatch::instance().stop();
  OutputCapture::stop();
  CrashHandler::uninstall();
  write_report();
  write_timeline_file();
  ::sigprocmask(SIG_SETMASK, &previous, nullptr);
  return result_;
}

void Simulation::stop_remaining_actors()
{
  if (engine_->get_actor_count() == 0)
    return;
  // Killed from maestro, they unwind (destructors run, semaphores and
  // activities are released) the next time the engine schedules them. The
  // engine also runs the timers still pending (a NIC's next step, a
  // packet's arrival): the model must not deliver into the ranks' memory.
  model_.on_run_stopped();
  sg4::Actor::kill_all();
  engine_->run();
}

double Simulation::now() const
{
  return engine_ ? sg4::Engine::get_clock() : 0.0;
}

double Simulation::latest_clock() const
{
  double latest = std::max(now(), ended_from_signal_at_);
  for (const auto& rank : ranks_)
    if (rank->finish_time < 0)
      latest = std::max(latest, rank->clock().now());
  return latest;
}

void Simulation::finish_result()
{
  double latest = 0;
  for (auto& rank : ranks_)
    latest = std::max(latest, rank->finish_time >= 0 ? rank->finish_time : rank->clock().now());
  result_.simulated_time = latest;
  if (outcome_decided_)
    return;
  std::string unfinished;
  for (auto& rank : ranks_)
    if (rank->state() != RankState::Finished)
      unfinished += (unfinished.empty() ? "" : ", ") + std::to_string(rank->id());
  if (unfinished.empty()) {
    std::string errors = model_.standard_errors_at_completion();
    result_.outcome = errors.empty() ? Outcome::Completed : Outcome::Erroneous;
    result_.exit_status = errors.empty() ? 0 : kExitErroneous;
    result_.message = errors;
    if (!errors.empty()) {
      diag(errors);
      return;
    }
    // As mpirun: a program whose rank returns non-zero (a failed self-check)
    // makes the launcher fail, with the status of the first such rank.
    for (auto& rank : ranks_)
      if (rank->exit_code != 0) {
        result_.exit_status = failure_exit_status(rank->exit_code);
        result_.message = "rank " + std::to_string(rank->id()) + " returned exit code " +
                          std::to_string(rank->exit_code) + " after MPI_Finalize; progsim exits with it";
        diag(result_.message);
        return;
      }
    return;
  }
  result_.outcome = Outcome::Stuck;
  result_.exit_status = kExitStuck;
  std::string source = options_.time_limit_source.empty() ? "" : " (" + options_.time_limit_source + ")";
  result_.message = "simulated time limit of " + format_time(options_.time_limit) + source +
                    " reached; ranks still running: " + unfinished;
  diag(result_.message);
}

void Simulation::rank_returned(Rank& rank, int code)
{
  rank.finish_time = rank.clock().now();
  rank.exit_code = code;
  // Every session must be finalized, as MPI_Finalize must end the World
  // Model (MPI-4.1 §11.3.1).
  bool world_done = rank.mpi_finalized || !rank.mpi_initialized;
  if (world_done && rank.open_sessions > 0) {
    end_without_finalize(rank, "MPI_Session_finalize on " + std::to_string(rank.open_sessions) + " session(s)");
  }
  if (world_done) {
    if (!rank.mpi_initialized && !rank.used_sessions)
      rank.end_reason = "ended without calling MPI_Init";
    rank.set_state(RankState::Finished);
    model_.on_rank_end(rank);
    return;
  }
  end_without_finalize(rank, "MPI_Finalize");
}

void Simulation::end_without_finalize(Rank& rank, const std::string& missing_call)
{
  rank.set_state(RankState::Failed);
  rank.end_reason = "exited (code " + std::to_string(rank.exit_code) + ") without calling " + missing_call;
  end_run(Outcome::Aborted,
          "rank " + std::to_string(rank.id()) + " " + rank.end_reason + " at " + format_time(rank.finish_time) +
              (*rank.last_call() ? "; its last MPI call was " + std::string(rank.last_call()) : ""),
          failure_exit_status(rank.exit_code));
}

void Simulation::decide_outcome(Outcome outcome, const std::string& message, int exit_status)
{
  if (outcome_decided_)
    return;
  outcome_decided_ = true;
  result_.outcome = outcome;
  result_.message = message;
  result_.exit_status = exit_status;
  diag(message);
}

void Simulation::end_run(Outcome outcome, const std::string& message, int exit_status)
{
  if (ForkedChild::active())  // the parent's run, not the child's to end
    ForkedChild::end_instead_of("would end the run (" + message + ")");
  if (end_without_unwinding_)
    end_from_signal(outcome, message, exit_status);
  if (Rank* rank = current_rank())
    OutputCapture::collect(rank->id());
  decide_outcome(outcome, message, exit_status);
  freeze_ranks();
  // Watched pages open again before the ranks unwind: an unwinder (or a
  // sanitizer's bookkeeping) reading a watched stack page must not fault.
  memory::MemoryWatch::instance().stop();
  model_.on_run_stopped();
  sg4::Actor::kill_all();
  sg4::this_actor::exit();
  std::abort();  // not reached: exit() unwinds the actor
}

void Simulation::end_from_signal(Outcome outcome, const std::string& message, int exit_status)
{
  if (ForkedChild::active())  // the parent's outputs, not the child's to write
    ForkedChild::end_instead_of("would end the run (" + message + ")");
  // Watched pages open again first: writing the files may touch them.
  memory::MemoryWatch::instance().stop();
  freeze_ranks();
  decide_outcome(outcome, message, exit_status);
  double latest = latest_clock();
  for (auto& rank : ranks_)
    latest = std::max(latest, rank->finish_time);
  for (auto& rank : ranks_)
    if (rank->finish_time < 0)
      rank->finish_time = latest;
  result_.simulated_time = latest;
  ended_from_signal_at_ = latest;
  running_ = false;
  OutputCapture::stop();
  write_report();
  write_timeline_file();
  if (finish_after_signal_)
    finish_after_signal_(result_.simulated_time);
  TemporaryDirectory::remove_all();
  ::_exit(result_.exit_status);
}

void Simulation::freeze_ranks()
{
  for (auto& rank : ranks_)
    rank->freeze();
}

void Simulation::on_deadlock()
{
  freeze_ranks();
  std::string text = "deadlock at " + format_time(latest_clock()) + ": nothing can happen any more";
  for (auto& rank : ranks_) {
    std::string line = "  rank " + std::to_string(rank->id()) + ": ";
    switch (rank->state()) {
      case RankState::Blocked:
        line += "blocked in " + (rank->blocked_on().empty() ? std::string(rank->last_call()) : rank->blocked_on());
        break;
      case RankState::Finished:
        line += "finished at " + format_time(rank->finish_time);
        break;
      case RankState::Polling:
        if (const memory::PollInfo* poll = memory::MemoryWatch::instance().poll_info(rank->id()))
          line += "polling watched memory '" + poll->description + "' at offset " + std::to_string(poll->offset) +
                  " since " + format_time(poll->since);
        break;
      default:
        line += to_string(rank->state());
        if (rank->current_call())
          line += std::string(" in ") + rank->current_call();
    }
    text += "\n" + line;
  }
  decide_outcome(Outcome::Deadlock, text, kExitDeadlock);
}

void Simulation::write_timeline_file() const
{
  if (options_.timeline_file.empty())
    return;
  Timeline::stop(result_.simulated_time, to_string(result_.outcome));
  if (!write_timeline(Timeline::recorded(), options_.timeline_file, options_.timeline_format))
    diag(options_.timeline_file + ": cannot write the timeline");
}

void Simulation::write_report() const
{
  if (options_.report_file.empty())
    return;
  std::ofstream out(options_.report_file);
  if (!out) {
    diag(options_.report_file + ": cannot write the report");
    return;
  }
  sim::write_report(out, *this, config_, deterministic_);
  out << "\n";
}

}  // namespace progsim::sim

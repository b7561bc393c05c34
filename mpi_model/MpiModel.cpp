#include "MpiModel.hpp"

#include "coll/Collectives.hpp"
#include "diagnosis/CallSites.hpp"
#include "diagnosis/DeadlockDiagnosis.hpp"
#include "diagnosis/FinalizeChecks.hpp"
#include "diagnosis/PointToPointWaits.hpp"
#include "p2p/MessageRaces.hpp"
#include "p2p/PointToPoint.hpp"
#include "progress/PolicyCatalog.hpp"
#include "progress/PolicyReport.hpp"
#include "progress/ProgressEngine.hpp"
#include "diagnosis/RmaWaits.hpp"
#include "diagnosis/SessionFinalizeWaits.hpp"
#include "rma/RmaEngine.hpp"
#include "sim/Config.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/SimulatorThread.hpp"
#include "transport/Fabric.hpp"

#include <simgrid/s4u/Engine.hpp>

namespace progsim::mpi {

MpiModel* MpiModel::instance_ = nullptr;

MpiModel::MpiModel(std::string policy) : policy_(std::move(policy)), policy_description_(&find_policy(policy_))
{
  for (const PolicyDescription* p : policy_catalog())
    policy_parameters_.emplace_back(p, p->parameters());
  instance_ = this;
}

MpiModel::~MpiModel()
{
  instance_ = nullptr;
}

RankProgress& MpiModel::rank_progress(int rank)
{
  return progress_->rank(rank);
}

MPI_Message MpiModel::add_matched_message(Packet message)
{
  MPI_Message handle = 0x6c000000 | next_message_index_++;
  matched_messages_.emplace(handle, std::move(message));
  return handle;
}

std::optional<Packet> MpiModel::take_matched_message(MPI_Message handle)
{
  auto it = matched_messages_.find(handle);
  if (it == matched_messages_.end())
    return std::nullopt;
  Packet p = std::move(it->second);
  matched_messages_.erase(it);
  return p;
}

void MpiModel::register_parameters(sim::Config& config)
{
  ModelParameters& p = parameters_;
  config.add("eager-threshold", p.eager_threshold, {0, 1099511627776.0}, "bytes",
             "largest message sent eagerly; larger ones use the rendezvous protocol; 0 makes every standard "
             "send synchronous (exposes unsafe programs). Default as MPICH ch3/ch4 shared memory (64 KiB)");
  config.add("rendezvous", p.rendezvous, {"push", "pull"},
             "rendezvous variant: push (RTS, CTS, the origin writes the data; classic software protocol) or "
             "pull (RTS, the target reads the data by RDMA get, then FIN)");
  config.add("eager-threshold-shm", p.eager_threshold_shm, {-1, 1099511627776.0}, "bytes",
             "eager-threshold for messages between ranks of one host (shared memory); -1 (default): "
             "eager-threshold. Real MPIs switch protocols at different sizes on each transport (progsim calibrate "
             "measures both)");
  config.add("eager-threshold-network", p.eager_threshold_network, {-1, 1099511627776.0}, "bytes",
             "eager-threshold for messages between hosts (the network); -1 (default): eager-threshold");
  config.add("rendezvous-shm", p.rendezvous_shm, {"same", "push", "pull"},
             "rendezvous variant between ranks of one host; same (default): rendezvous");
  config.add("rendezvous-network", p.rendezvous_network, {"same", "push", "pull"},
             "rendezvous variant between hosts; same (default): rendezvous");
  config.add("rendezvous-buffered", p.rendezvous_buffered, {"same", "push", "pull"},
             "rendezvous variant of buffered sends (MPI_Bsend, MPI_Ibsend) on every transport; same (default): that "
             "of the transport. Open MPI's ob1 pushes a buffered message from the attached buffer and pulls others");
  config.add("nic-transfers", p.nic_transfers, {1, 1e6}, "transfers",
             "transfers one host's NIC keeps on the network at once (its DMA queues); further departures wait "
             "in FIFO order until one ends");
  config.add("header-bytes", p.header_bytes, {0, 1048576}, "bytes", "size of an envelope or control packet on the wire");
  config.add("chunk-cost", p.chunk_cost, {0, 1}, "s", "host CPU time to run one progress chunk (protocol step)");
  config.add("poll-cost", p.poll_cost, {0, 1}, "s",
             "host CPU time of one progress poll: each test procedure call and each wake-up of a blocked call");
  config.add("call-sites", p.call_sites,
             "record where the program called each blocking MPI procedure, for file:line in deadlock "
             "explanations (off: a few percent faster when ranks block very often)");
  config.add("livelock-tests", p.livelock_tests, {0, 1e12}, "calls",
             "a rank that makes this many test calls in a row (MPI_Test*, MPI_Iprobe, MPI_Win_test...) that find "
             "nothing, with no other MPI call and no clock read between them, while nothing is in flight and every "
             "other rank waits, has ended or loops the same way, is held in its test call until something arrives "
             "for it: a livelock then ends the run as a deadlock. 0: never held (such a run never ends)");
  config.add("weak-progress-every-call", p.progress_every_call,
             "weak: every MPI call progresses (as MPICH does), not only blocked calls, test procedures and "
             "finalization");
  for (auto& [policy, policy_parameters] : policy_parameters_)
    policy_parameters->register_parameters(config);
  coll::register_collective_parameters(config, p.coll);
  config.add("win-start-blocks", p.win_start_blocks,
             "MPI_Win_start blocks until every target of the access epoch posted (MPI-4.1 §12.5.2 allows both); "
             "no (default, as MPICH): it returns at once and operations wait for the post");
  config.add("win-complete-remote", p.win_complete_remote,
             "MPI_Win_complete returns only when the targets applied the operations (remote completion); no "
             "(default, as MPICH): when they are sent, MPI_Win_wait at the target waits for them");
  config.add("rma-issue", p.rma_issue, {"call", "sync"},
             "when an RMA operation is sent: at its call (default, MPICH for contiguous data) or deferred to the "
             "synchronization that closes the epoch (MPI-4.1 §12.7.3 allows both)");
  config.add("window-watch", p.window_watch, {"auto", "all", "none"},
             "window memory watched so that busy-waiting on it lets simulated time pass: auto (default) watches "
             "window parts MPI allocates (MPI_Win_allocate, _allocate_shared) of at most 4096 bytes and "
             "MPI_Win_create memory of at most 64 bytes (a flag) on the stack or in the program's globals; not "
             "heap memory or data arrays, which the program fills and checks element by element and whose pages "
             "the simulator and the MPI calls' frames share (every access traps: slow); all; none");
  config.add("part-aggregation", p.part_aggregation, {"per-partition", "whole-message"},
             "partitioned sends (MPI_Psend_init): per-partition (default) sends each partition as a message of its "
             "own (eager or rendezvous by its size) as soon as MPI_Pready marks it; whole-message sends one "
             "message once every partition is ready (as MPICH 4.0's active-message implementation)");
  config.add("session-finalize-sync", p.session_finalize_sync, {"local", "collective"},
             "whether MPI_Session_finalize synchronizes (MPI-4.1 §11.3.1 allows both): local (default, as MPICH) "
             "returns without waiting for other processes; collective waits until every member of each "
             "communicator derived from the session and not freed has entered MPI_Session_finalize too");
  config.add("strict", p.strict,
             "objects the program never freed before MPI_Finalize (communicators, groups, datatypes, ops, "
             "windows, infos, error handlers, keyvals, persistent requests) and undefined outcomes (conflicting "
             "RMA accesses, MPI-4.1 §12.7) are errors (outcome erroneous), not only warnings; the same as "
             "progsim run --strict");
  config.add("match-record", p.match_record,
             "record every decision a wildcard receive or probe (MPI_ANY_SOURCE, MPI_ANY_TAG), MPI_Waitany, "
             "MPI_Testany, MPI_Waitsome or MPI_Testsome made, with the other choices a correct MPI could have made, "
             "in the report's message_races (progsim check explores them)");
  config.add("match-schedule", p.match_schedule, {},
             "force decisions: 'R:K=S' makes rank R's K-th decision (wildcard receives and probes, MPI_Waitany, "
             "MPI_Waitsome calls, MPI_Testany, MPI_Testsome calls that return something, counted together from 1) "
             "match or see the message of source S (its rank in the communicator), 'R:K=#I' makes it return index "
             "I (MPI_Waitany, MPI_Testany), 'R:K=#I+J' exactly the indices I, J (MPI_Waitsome, MPI_Testsome); "
             "comma-separated. A forced choice that never comes makes the run infeasible (report: "
             "message_races/infeasible), not the program's error");
  config.add("check-buffers", p.check_buffers,
             "report the program's accesses to the buffer of a pending nonblocking or persistent point-to-point "
             "operation (a write to a send buffer, any access to a receive buffer, before MPI_Wait/MPI_Test "
             "completed it: MPI-4.1 §3.7.2), found by page protection (needs memory-watch); the same as progsim run "
             "--check buffers");
  config.add("report-messages", p.report_messages, {0, 1e8}, "", "per-message records written to the report");
}

void MpiModel::on_simulation_start(sim::Simulation& simulation)
{
  simulation_ = &simulation;
  sim::memory::SimulatorThread::adopt();  // MPI calls from other threads are refused (bindings/ThreadCheck)
  int n = simulation.size();
  processes_.assign(static_cast<size_t>(n), Process{});
  std::vector<simgrid::s4u::Host*> hosts;
  for (int r = 0; r < n; ++r) {
    processes_[static_cast<size_t>(r)].world_rank = r;
    hosts.push_back(simulation.rank(r).host());
  }
  communicators_.reset(n);
  standard_errors_ = StandardErrors(parameters_.strict);
  leaks_ = Leaks();
  pending_buffers_.start(*this, parameters_.check_buffers);
  for (auto& [policy, policy_parameters] : policy_parameters_)
    if (policy == policy_description_)
      progress_ = std::make_unique<ProgressEngine>(simulation, parameters_, *policy,
                                                   policy_parameters->make_policy(parameters_));
  fabric_ = std::make_unique<Fabric>(
      hosts, static_cast<std::size_t>(parameters_.nic_transfers),
      [this](Packet&& p) {
        if (progress_->all_ranks_ended() || progress_->effects_stopped())
          return;
        if (p.kind == PacketKind::Rma)
          rma_->on_arrival(std::move(p));
        else
          p2p_->on_arrival(std::move(p));
      },
      [this] { progress_->check_deadlock(); });
  p2p_ = std::make_unique<PointToPoint>(*progress_, *fabric_, datatypes_, parameters_, n);
  races_.reset();
  if (parameters_.match_record || !parameters_.match_schedule.empty()) {
    races_ = std::make_unique<MessageRaces>(parameters_.match_record, parameters_.match_schedule, n);
    p2p_->watch_races(races_.get());
  }
  rma_ = std::make_unique<rma::RmaEngine>(*progress_, *fabric_, parameters_, n);
  progress_->start(
      [this] { return fabric_->in_flight() + p2p_->pending_matches(); },
      [this, program = simulation.options().program] {
        PointToPointWaits p2p_waits(*p2p_, *progress_, standard_errors_);
        RmaWaits rma_waits(*rma_, *p2p_);
        SessionFinalizeWaits session_waits;
        DeadlockDiagnosis d = diagnose_deadlock(*progress_, {&p2p_waits, &rma_waits, &session_waits}, program);
        if (races_ && races_->infeasible())  // the schedule's doing, not the program's
          for (const std::string& why : races_->infeasible_reasons())
            d.text += "\n  note: match-schedule: " + why + ": this execution is infeasible, not the program's";
        return std::make_pair(d.text, d.json);
      },
      [this](int r) { return p2p_->posted_receives(r); });
}

void MpiModel::on_run_stopped()
{
  if (progress_)
    progress_->stop_effects();
}

void MpiModel::on_simulation_teardown()
{
  if (fabric_)
    fabric_->release_transfers();
}

void MpiModel::on_rank_end(sim::Rank& rank)
{
  progress_->policy().on_rank_end(*progress_, rank.id());
  p2p_->on_rank_end(rank.id());
  progress_->note_rank_end(rank.id());
  progress_->check_deadlock();
}

double MpiModel::call_overhead() const
{
  return progress_->policy().call_overhead();
}

std::string MpiModel::standard_errors_at_completion()
{
  coll::check_collectives_complete(*this);
  check_finalize_requirements(*this, leaks_);
  // Every path that holds a request for the overlap meter releases it
  // (p2p/HeldRequests.cpp): checked once per run; a slip is said, not hidden
  // (the meter may then have kept too much, never dropped what it needed:
  // report overlap.approximate_operations says if it did).
  std::string held = p2p_->held_requests_mismatch(requests_.live_requests());
  if (!held.empty())
    sim::diag("internal error: the overlap meter's held requests differ from the request table's:\n" + held);
  if (!leaks_.warning().empty())
    sim::diag(leaks_.warning());
  if (!standard_errors_.undefined_warning().empty())
    sim::diag(standard_errors_.undefined_warning());
  return standard_errors_.summary();
}

void MpiModel::add_to_report(nlohmann::ordered_json& report) const
{
  report_clock_ = simulation_->latest_clock();
  progress_->policy().add_to_report(report);
  if (!progress_->deadlock().is_null())
    report["deadlock"] = progress_->deadlock();
  report["errors"] = standard_errors_.to_json();
  report["undefined"] = standard_errors_.undefined_to_json();
  report["leaks"] = leaks_.to_json();
  report["progress_delays"] = progress_->delays().to_json();
  report["network"] = {{"packets", fabric_->packets_sent()}, {"bytes", fabric_->bytes_sent()}};
  report["messages"] = p2p_->messages().to_json();
  if (races_)
    report["message_races"] = races_->to_json(  // sites are resolved only now, as errors' are
        [this](int rank, std::uintptr_t mark) { return call_site_text(const_cast<MpiModel&>(*this), rank, mark); });
}

void MpiModel::add_rank_to_report(const sim::Rank& rank, nlohmann::ordered_json& entry) const
{
  const ProgressCounters& c = progress_->rank(rank.id()).counters;
  entry["blocked_time"] = progress_->rank(rank.id()).blocked_time(report_clock_);
  entry["tests"] = c.tests;
  entry["win_tests"] = rma_->win_tests(rank.id());
  entry["false_tests"] = c.false_tests;
  add_policy_fields_to_rank(policy_catalog(), *progress_, rank.id(), entry);
  const OverlapMeter& overlap = progress_->rank(rank.id()).overlap;
  nlohmann::ordered_json per_operation = nlohmann::ordered_json::array();
  for (const OverlapMeter::Operation& op : overlap.kept_operations())
    per_operation.push_back({{"call", op.call ? op.call : ""},
                             {"start", op.post},
                             {"complete", op.complete},
                             {"communication_time", op.communication},
                             {"hidden_time", op.hidden}});
  entry["overlap"] = {{"operations", overlap.operations()},
                      {"communication_time", overlap.communication_time()},
                      {"hidden_time", overlap.hidden_time()}};
  // Only when the bound on kept intervals (OverlapMeter::kMaxIntervals) cut
  // into an operation's time: the figures above are then approximate.
  if (overlap.approximate_operations() > 0)
    entry["overlap"]["approximate_operations"] = overlap.approximate_operations();
  entry["overlap"]["per_operation"] = std::move(per_operation);
  entry["sessions"] = processes_[static_cast<size_t>(rank.id())].sessions.created();
}

}  // namespace progsim::mpi

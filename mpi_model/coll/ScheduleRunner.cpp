#include "coll/ScheduleRunner.hpp"

#include "diagnosis/CallSites.hpp"
#include "sim/CallScope.hpp"
#include "sim/Rank.hpp"

#include "MpiModel.hpp"
#include "core/CallContext.hpp"
#include "p2p/PointToPoint.hpp"
#include "progress/ProgressEngine.hpp"
#include "sim/ActingTime.hpp"
#include "sim/Rank.hpp"

namespace progsim::mpi::coll {

namespace {

// How internal sends travel (--cfg coll-sync, an implementation freedom of
// MPI-4.1 §6.14: a collective may or may not synchronize its members).
void apply_sync_mode(Request& send, const std::string& mode)
{
  if (mode == "always")
    send.mode = SendMode::Synchronous;  // every message waits for its receiver
  else if (mode == "never")
    send.library_buffered = true;  // buffered by the library: a sender never waits
}

}  // namespace

int ScheduleRunner::start()
{
  schedule_ = Schedule(request_.owner);
  round_ = 0;
  posted_ = false;
  outstanding_ = 0;
  messages_.clear();
  error_ = MPI_SUCCESS;
  request_.state = RequestState::Posted;
  request_.status_error = MPI_SUCCESS;
  request_.status_source = MPI_ANY_SOURCE;
  request_.status_tag = MPI_ANY_TAG;
  request_.status_bytes = 0;
  request_.post_time = sim::acting_time();
  if (int err = build_(schedule_)) {
    // Nothing was sent: the members check the same arguments.
    error_ = err;
    schedule_ = Schedule();
  }
  charge_setup();
  run();
  return MPI_SUCCESS;
}

void ScheduleRunner::charge_setup()
{
  std::size_t later = 0;
  const std::vector<Round>& rounds = schedule_.rounds();
  for (std::size_t i = 1; i < rounds.size(); ++i)
    later += rounds[i].messages.size();
  if (later == 0)
    return;
  RankProgress& owner = MpiModel::instance().rank_progress(request_.owner);
  double cost = MpiModel::instance().progress().policy().collective_setup_cost(owner, later);
  owner.sim_rank().clock().charge_cpu(cost);
}

void ScheduleRunner::post(const Round& round)
{
  MpiModel& model = MpiModel::instance();
  const std::string& sync = model.parameters().coll.sync;
  posting_ = true;
  outstanding_ = round.messages.size();
  messages_.clear();
  messages_.reserve(round.messages.size());
  for (const MessageStep& m : round.messages) {
    OperationArgs a;
    a.buf = m.buf;
    a.count = m.count;
    a.datatype = m.type;
    a.peer = m.peer;
    a.tag = m.channel.tag;
    a.comm = m.channel.comm;
    a.context_offset = 1;
    a.call = request_.call;
    RequestPtr r = m.send ? model.p2p().make_send(request_.owner, SendMode::Standard, a)
                          : model.p2p().make_recv(request_.owner, a);
    if (m.send)
      apply_sync_mode(*r, sync);
    if (m.check_types) {
      r->check_types = true;
      // Posted inside the owner's call (the first round): its site names the errors.
      if (sim::Rank* caller = sim::calling_rank(); caller && caller->id() == request_.owner)
        r->call_site = call_site_mark(caller);
    }
    r->completion_listener = [this] { message_done(); };
    r->listener_only = true;  // the program waits for the collective, finish() wakes it
    messages_.push_back(r);
    model.p2p().start(r);
  }
  posting_ = false;
  posted_ = true;
}

void ScheduleRunner::message_done()
{
  --outstanding_;
  if (outstanding_ > 0 || posting_)
    return;
  // The round's messages are complete; what follows is a decoupled activity.
  int rounds = static_cast<int>(schedule_.rounds().size());
  int next = static_cast<int>(round_) + 2;
  MpiModel::instance().progress().enable_round(request_.owner, request_.call, next > rounds ? rounds : next, rounds,
                                               [this] { run(); });
}

void ScheduleRunner::run()
{
  std::vector<Round>& rounds = schedule_.rounds();
  while (round_ < rounds.size()) {
    Round& round = rounds[round_];
    if (!posted_)
      post(round);
    if (outstanding_ > 0)
      return;  // message_done() enables the chunk that continues
    for (const RequestPtr& m : messages_)
      if (m->status_error != MPI_SUCCESS && error_ == MPI_SUCCESS)
        error_ = m->status_error;
    messages_.clear();
    // Copies and reductions into the program's buffers: with --check
    // buffers, their guarded pages are open meanwhile (else each
    // instruction traps; the simulator's accesses are never reported).
    auto local_steps = [&] {
      for (const LocalStep& step : round.after) {
        int err = step();
        if (err != MPI_SUCCESS && error_ == MPI_SUCCESS)
          error_ = err;
      }
    };
    if (request_.rare().buffer_guards.empty() || round.after.empty())
      local_steps();
    else
      MpiModel::instance().pending_buffers().model_access_all(request_, local_steps);
    // A round is never looked at again once done (only the count is): its
    // steps go now, not when the schedule ends (a replay of a million ranks,
    // each inside a 20-round allreduce, holds every rank's schedule at once).
    round = Round{};
    ++round_;
    posted_ = false;
  }
  finish();
}

void ScheduleRunner::finish()
{
  request_.status_error = error_;
  request_.state = RequestState::Complete;
  request_.complete_time = sim::acting_time();
  schedule_ = Schedule();  // scratch memory is not needed any more
  MpiModel::instance().rank_progress(request_.owner).wake();
}

std::string ScheduleRunner::describe() const
{
  for (const RequestPtr& m : messages_)
    if (!m->complete())
      return m->describe();
  std::string comm = request_.comm_name.empty() ? "comm" : request_.comm_name;
  return std::string(request_.call) + "(comm=" + comm + "), round " + std::to_string(round_ + 1) + " of " +
         std::to_string(schedule_.rounds().size());
}

std::vector<RequestPtr> ScheduleRunner::in_flight() const
{
  std::vector<RequestPtr> pending;
  for (const RequestPtr& m : messages_)
    if (!m->complete())
      pending.push_back(m);
  return pending;
}

RequestPtr make_collective_request(const CallContext& caller, const Communicator& comm, Builder build, bool persistent)
{
  RequestPtr r = new_request(RequestKind::Collective, caller.world(), comm, 1, caller.call());
  r->persistent = persistent;
  r->state = RequestState::Inactive;
  r->collective = std::make_shared<ScheduleRunner>(*r, std::move(build));
  return r;
}

int run_blocking(const CallContext& caller, const Communicator& comm, Builder build)
{
  RequestPtr r = make_collective_request(caller, comm, std::move(build), false);
  r->collective->start();
  caller.wait(r);
  int err = r->status_error;
  r->collective.reset();  // breaks the request <-> runner reference
  return err;
}

}  // namespace progsim::mpi::coll

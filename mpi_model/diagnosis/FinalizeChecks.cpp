#include "diagnosis/FinalizeChecks.hpp"

#include "MpiModel.hpp"
#include "diagnosis/CallSites.hpp"
#include "diagnosis/Leaks.hpp"
#include "p2p/PointToPoint.hpp"
#include "rma/RmaEngine.hpp"
#include "sim/Simulation.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <algorithm>

namespace progsim::mpi {

namespace {

constexpr const char* kSection = "MPI-4.1 §11.2.2";
// Errors of one rule listed one by one; the rest are counted in one more.
constexpr std::size_t kMaxReported = 10;

// Reports errors of one rule, at most kMaxReported of them one by one.
class RuleReporter {
public:
  RuleReporter(MpiModel& model, const char* rule, const char* section, const char* requirement)
      : model_(model), rule_(rule), section_(section), requirement_(requirement)
  {
  }
  ~RuleReporter()
  {
    if (count_ <= kMaxReported)
      return;
    StandardError e = make(std::to_string(count_ - kMaxReported) + " more of the same (" + rule_ + ")");
    model_.standard_errors().add(std::move(e));
  }
  // `n` more errors counted, not listed.
  void skip(std::size_t n) { count_ = std::max(count_, kMaxReported) + n; }
  void add(const std::string& what, std::vector<ErrorSite> sites)
  {
    if (++count_ > kMaxReported)
      return;
    StandardError e = make(what);
    e.sites = std::move(sites);
    model_.standard_errors().add(std::move(e));
  }

private:
  StandardError make(const std::string& what) const
  {
    StandardError e;
    e.rule = rule_;
    e.section = section_;
    e.requirement = requirement_;
    e.what = what;
    e.time = simgrid::s4u::Engine::get_clock();
    return e;
  }

  MpiModel& model_;
  const char* rule_;
  const char* section_;
  const char* requirement_;
  std::size_t count_ = 0;
};

std::string comm_text(const std::string& name)
{
  return name.empty() ? "comm" : name;
}

void check_messages(MpiModel& model)
{
  RuleReporter report(model, "message never received", kSection,
                      "each process executes the matching receives of the messages sent to it before it finalizes "
                      "(Example 11.4: a send without a matching receive is erroneous)");
  for (const SentMessage& m : model.p2p().unreceived().remaining())
    report.add(std::string(m.call) + "(dest=" + std::to_string(m.dest_local) + ", tag=" + std::to_string(m.tag) +
                   ", comm=" + comm_text(m.comm_name) + ", " + std::to_string(m.bytes) + " bytes) of rank " +
                   std::to_string(m.source) + " was never received: rank " + std::to_string(m.dest) +
                   " finalized without a matching receive",
               {{m.source, m.call, call_site_text(model, m.source, m.site)}});
}

std::string request_text(const Request& r)
{
  if (r.kind == RequestKind::Send || r.kind == RequestKind::Recv)
    return r.describe();
  if (r.kind == RequestKind::Generalized)
    return "MPI_Grequest_start()";
  return std::string(r.call) + (r.comm_name.empty() ? "" : "(comm=" + r.comm_name + ")");
}

// Requests: an inactive persistent one is a leak (in `leaks`, by rank); any
// other one is an operation the process started and never completed.
void check_requests(MpiModel& model, std::vector<std::vector<Leak>>& leaks)
{
  RuleReporter report(model, "request not completed", kSection,
                      "a process completes every operation it started (MPI_Wait, MPI_Test & co. return it, or "
                      "MPI_Request_free frees it) before it finalizes");
  std::vector<RequestPtr> requests = model.requests().live_requests();
  std::stable_sort(requests.begin(), requests.end(),
                   [](const RequestPtr& a, const RequestPtr& b) { return a->owner < b->owner; });
  for (const RequestPtr& r : requests) {
    std::string source = call_site_text(model, r->owner, r->call_site);
    if (r->persistent && !r->active()) {
      leaks[static_cast<size_t>(r->owner)].push_back(
          {r->owner, "request", static_cast<std::uint32_t>(r->handle), r->call, source});
      continue;
    }
    std::string state = r->persistent ? "was started (MPI_Start) and never completed"
                        : r->complete() ? "completed, but no MPI_Wait or MPI_Test returned it (nor was it freed)"
                                        : "never completed";
    report.add("rank " + std::to_string(r->owner) + "'s " + request_text(*r) + " " + state + " before it finalized",
               {{r->owner, r->call, source}});
  }
}

// Adds rank `r`'s leaks of one kind, handles ascending.
template <typename Handles>
void add_leaks(MpiModel& model, Leaks& leaks, int r, const char* kind, const Handles& handles)
{
  for (auto handle : handles) {
    Leak leak{r, kind, static_cast<std::uint32_t>(handle), "", ""};
    if (const CreationSite* site = model.process(r).creations.find(leak.handle)) {
      leak.call = site->call;
      leak.source = call_site_text(model, r, site->mark);
    }
    leaks.add(std::move(leak));
  }
}

void collect_leaks(MpiModel& model, Leaks& leaks, int r)
{
  Process& p = model.process(r);
  std::vector<MPI_Comm> internal;  // live windows' own communicators
  std::vector<MPI_Win> windows;
  for (const rma::Window* w : model.rma().windows(r).live_windows()) {
    internal.push_back(w->comm);
    windows.push_back(w->handle);
  }
  std::vector<MPI_Comm> comms;
  for (const Communicator* c : model.communicators().live_communicators(r))
    if (c->handle != MPI_COMM_WORLD && c->handle != MPI_COMM_SELF &&
        std::find(internal.begin(), internal.end(), c->handle) == internal.end())
      comms.push_back(c->handle);
  std::sort(comms.begin(), comms.end());
  add_leaks(model, leaks, r, "communicator", comms);
  add_leaks(model, leaks, r, "group", p.groups.live_handles());
  add_leaks(model, leaks, r, "datatype", model.datatypes().live_derived_of(r));
  std::vector<MPI_Op> ops;
  for (std::uint32_t index : p.ops.live_indices())
    ops.push_back(MPI_OP_NULL + Process::kFirstUserOp + static_cast<int>(index));
  add_leaks(model, leaks, r, "op", ops);
  add_leaks(model, leaks, r, "window", windows);
  add_leaks(model, leaks, r, "info", p.infos.live_handles());
  std::vector<MPI_Errhandler> errhandlers;
  for (std::size_t i = 0; i < p.errhandlers.size(); ++i)
    if (!p.errhandlers[i].freed)
      errhandlers.push_back(MPI_ERRHANDLER_NULL + Process::kFirstUserErrhandler + static_cast<int>(i));
  add_leaks(model, leaks, r, "errhandler", errhandlers);
  add_leaks(model, leaks, r, "keyval", p.keyvals.live_keyvals());
}

}  // namespace

void check_finalize_requirements(MpiModel& model, Leaks& leaks)
{
  check_messages(model);
  int world = static_cast<int>(model.simulation().size());
  std::vector<std::vector<Leak>> request_leaks(static_cast<size_t>(world));
  check_requests(model, request_leaks);
  for (int r = 0; r < world; ++r) {
    collect_leaks(model, leaks, r);
    for (Leak& leak : request_leaks[static_cast<size_t>(r)])
      leaks.add(std::move(leak));
  }
  if (!model.parameters().strict)
    return;
  RuleReporter report(model, "object never freed", kSection,
                      "(with --strict) every MPI object the program creates is freed before MPI_Finalize");
  for (const Leak& leak : leaks.items())
    report.add(Leaks::describe(leak), {{leak.rank, leak.call, leak.source}});
  if (leaks.count() > leaks.items().size())
    report.skip(leaks.count() - leaks.items().size());
}

}  // namespace progsim::mpi

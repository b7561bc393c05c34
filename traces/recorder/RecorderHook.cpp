// What a recording does with the calls it does not record as themselves:
// the calls no wrapper sees, through the generic hook (classified in
// traces/UnrecordedCalls.def), and wrappers entered from a program callback.
#include "traces/recorder/RecorderInternals.hpp"

#include "sim/ForkedChild.hpp"
#include "sim/ProgramCallHook.hpp"

#include <string>
#include <string_view>
#include <unordered_map>

namespace progsim::traces::recorder {

namespace {

// What a recording does with a call it has no wrapper for
// (UnrecordedCalls.def): nullptr for a local call, else why it is refused.
const char* refusal_of(const char* name)
{
  static const std::unordered_map<std::string_view, const char*> classes = [] {
#define PROGSIM_REFUSAL(reason, text) const char* reason = text;
#define PROGSIM_LOCAL_CALL(name)
#define PROGSIM_REFUSED_CALL(name, reason)
#include "traces/UnrecordedCalls.def"
#undef PROGSIM_REFUSAL
#undef PROGSIM_LOCAL_CALL
#undef PROGSIM_REFUSED_CALL
    return std::unordered_map<std::string_view, const char*>{
#define PROGSIM_REFUSAL(reason, text)
#define PROGSIM_LOCAL_CALL(name) {#name, nullptr},
#define PROGSIM_REFUSED_CALL(name, reason) {#name, reason},
#include "traces/UnrecordedCalls.def"
#undef PROGSIM_REFUSAL
#undef PROGSIM_LOCAL_CALL
#undef PROGSIM_REFUSED_CALL
    };
  }();
  auto found = classes.find(name);
  return found == classes.end() ? "not classified in traces/UnrecordedCalls.def" : found->second;
}

}  // namespace

void write_unsupported(int rank, const char* name, const char* why)
{
  g_recorder->write(rank, Event({{"call", "unsupported"}, {"name", name}, {"why", why}}));
}

void program_call(progsim::sim::Rank& rank, const char* name, bool local_query)
{
  if (!g_recorder || sim::ForkedChild::active())  // not the rank's call (recording_rank)
    return;
  // A program callback's call inside an MPI call: only a generalized
  // request's callback and the attribute delete callbacks MPI_Finalize runs
  // have their calls recorded (WrapperEntry); the others' local calls are
  // left out, as their cost is not replayed.
  if (rank.current_call() && !in_grequest_callback(rank)) {
    RankRecord& record = g_recorder->rank(rank.id());
    if (record.in_callback == 0 && rank.program_callbacks() == 1 &&
        std::string_view(rank.current_call()) == "MPI_Finalize" && !refusal_of(name))
      g_recorder->finalize_local(rank.id(), name, !local_query);
    return;
  }
  g_recorder->rank(rank.id()).failed_call = nullptr;  // recorded as a local call or refused, failed or not
  if (const char* why = refusal_of(name))
    write_unsupported(rank.id(), name, why);
  else
    g_recorder->local(rank.id(), name, !local_query);
}

void failed_call(progsim::sim::Rank& rank, const char* name, const char* error)
{
  if (!g_recorder)
    return;
  RankRecord& record = g_recorder->rank(rank.id());
  if (record.in_callback > 0 || rank.in_nested_call())
    return;  // a callback's call, or a call MPI made itself
  record.failed_call = name;
  record.failed_error = error;
}

bool in_grequest_callback(const sim::Rank& rank)
{
  if (!g_recorder)
    return false;
  const RankRecord& record = g_recorder->rank(rank.id());
  return record.callback_fn && record.in_callback == 0 && rank.program_calling() &&
         rank.program_callbacks() == record.callback_level;
}

WrapperEntry::WrapperEntry(const char* name)
{
  sim::Rank* rank = g_recorder && !sim::ForkedChild::active() ? sim::calling_rank() : nullptr;
  if (!rank)
    return;
  if (!rank->current_call()) {
    if (name && g_recorder->rank(rank->id()).in_callback == 0) {
      outer_rank_ = rank->id();
      RankRecord& record = g_recorder->rank(outer_rank_);
      record.failed_call = nullptr;
      written_before_ = record.written;
    }
    return;
  }
  RankRecord& record = g_recorder->rank(rank->id());
  if (in_grequest_callback(*rank))
    return;  // recorded like the program's own calls, their events marked (Recorder::emit)
  if (record.in_callback == 0 && std::string_view(rank->current_call()) == "MPI_Finalize") {
    finalize_rank_ = rank->id();
    ++record.in_finalize_callback;
    return;
  }
  rank_ = rank->id();
  if (g_recorder->rank(rank_).in_callback++ == 0 && name)
    write_unsupported(rank_, name, (std::string("called from a program callback inside ") + rank->current_call() +
                                    ", which a replay does not run")
                                       .c_str());
}

WrapperEntry::~WrapperEntry()
{
  if (rank_ >= 0 && g_recorder)
    --g_recorder->rank(rank_).in_callback;
  if (finalize_rank_ >= 0 && g_recorder)
    --g_recorder->rank(finalize_rank_).in_finalize_callback;
  if (outer_rank_ < 0 || !g_recorder)
    return;
  RankRecord& record = g_recorder->rank(outer_rank_);
  if (record.failed_call && record.written > written_before_)
    g_recorder->write_failed(outer_rank_, record.failed_call, record.failed_error);
  record.failed_call = nullptr;
}

}  // namespace progsim::traces::recorder

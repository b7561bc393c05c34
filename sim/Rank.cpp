#include "sim/Rank.hpp"

#include "sim/Interruption.hpp"
#include "sim/RankStateListener.hpp"
#include "sim/timeline/Timeline.hpp"

namespace progsim::sim {

namespace {

RankStateListener g_state_listener = nullptr;
void* g_state_listener_context = nullptr;

// Tells the listener, if any, that `rank` is in its current state since `now`.
void tell_listener(const Rank& rank, double now)
{
  if (g_state_listener)
    g_state_listener(g_state_listener_context, rank, now);
}

}  // namespace

void set_rank_state_listener(RankStateListener listener, void* context)
{
  g_state_listener = listener;
  g_state_listener_context = context;
}

void Rank::set_state(RankState state)
{
  if (frozen_)
    return;
  tell_stretch();
  if (entry_untold_) {  // a change inside an inline query: its entry first
    entry_untold_ = false;
    tell_listener(*this, entered_at_);
  }
  state_ = state;
  if (Timeline* timeline = Timeline::active())
    timeline->rank_state(*this);
  if (g_state_listener)  // only then is the clock read
    tell_listener(*this, clock_.now());
  // Entering MPI, blocking and going to sleep are the points where a run
  // that progsim was asked to stop (SIGINT, SIGTERM) can end cleanly.
  if (state == RankState::InMpi || state == RankState::Blocked || state == RankState::Sleeping)
    Interruption::safe_point();
}

void Rank::enter_inline_query(double now)
{
  if (frozen_ || Timeline::active()) {
    set_state(RankState::InMpi);
    return;
  }
  state_ = RankState::InMpi;
  entry_untold_ = true;
  entered_at_ = now;
  Interruption::safe_point();  // as set_state(InMpi)
}

void Rank::leave_inline_query(double now)
{
  if (entry_untold_ && !frozen_) {
    entry_untold_ = false;
    state_ = RankState::UserCode;
    if (stretch_untold_ && entered_at_ == stretch_end_) {  // right after the last one
      stretch_end_ = now;
      return;
    }
    tell_stretch();
    stretch_untold_ = true;
    stretch_begin_ = entered_at_;
    stretch_end_ = now;
    return;
  }
  if (state_ == RankState::InMpi || state_ == RankState::Blocked)
    set_state(RankState::UserCode);
}

void Rank::tell_stretch()
{
  if (!stretch_untold_)
    return;
  stretch_untold_ = false;
  if (!g_state_listener)
    return;
  RankState state = state_;
  state_ = RankState::InMpi;
  tell_listener(*this, stretch_begin_);
  state_ = RankState::UserCode;
  tell_listener(*this, stretch_end_);
  state_ = state;
}

}  // namespace progsim::sim

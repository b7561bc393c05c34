#include "progress/ProgressDelays.hpp"

#include <algorithm>

namespace progsim::mpi {

void ProgressDelays::note(const ProgressChunk& chunk, double run_at, Executor executor, const char* label)
{
  double delay = run_at - chunk.enabled_at;
  if (delay < kNoteworthy)
    return;
  auto longer = [](const Delay& a, const Delay& b) {
    double da = a.run_at - a.enabled_at, db = b.run_at - b.enabled_at;
    return da != db ? da > db : a.chunk_id < b.chunk_id;
  };
  Delay d{chunk.id, std::string(), chunk.owner, chunk.peer, chunk.enabled_at, run_at, executor, label};
  if (longest_.size() == kKept && !longer(d, longest_.back()))
    return;
  d.chunk = chunk.describe();  // only for a delay that is kept
  longest_.insert(std::upper_bound(longest_.begin(), longest_.end(), d, longer), d);
  if (longest_.size() > kKept)
    longest_.pop_back();
}

nlohmann::ordered_json ProgressDelays::to_json() const
{
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Delay& d : longest_) {
    std::string why = d.executor == Executor::Rank
                          ? "rank " + std::to_string(d.owner) + " was outside MPI: under weak progress its "
                            "decoupled activities run only when it calls MPI (MPI-4.1 §2.9); strong progress "
                            "(a progress thread, NIC offload) runs them at once"
                          : std::string("its executor (") + d.label + ") was busy";
    list.push_back({{"owner", d.owner},
                    {"peer", d.peer},
                    {"chunk", d.chunk},
                    {"enabled_at", d.enabled_at},
                    {"run_at", d.run_at},
                    {"delay", d.run_at - d.enabled_at},
                    {"executor", d.label},
                    {"class", d.executor == Executor::Rank ? "needs strong progress" : "executor busy"},
                    {"why", why}});
  }
  return list;
}

}  // namespace progsim::mpi

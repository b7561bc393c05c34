#include "diagnosis/DeadlockDiagnosis.hpp"

#include "diagnosis/DeadlockClassification.hpp"
#include "diagnosis/DeadlockRendering.hpp"
#include "diagnosis/DeadlockViews.hpp"
#include "diagnosis/WaitChains.hpp"

namespace progsim::mpi {

const char* to_string(WaitKind kind)
{
  switch (kind) {
    case WaitKind::MatchingCall: return "matching call";
    case WaitKind::ProgressChunk: return "progress chunk";
    case WaitKind::CollectivePartner: return "collective partner";
    case WaitKind::Memory: return "memory";
    case WaitKind::Own: return "own";
  }
  return "?";
}

DeadlockDiagnosis diagnose_deadlock(const ProgressEngine& progress, const std::vector<const WaitForSource*>& sources,
                                    const std::string& program)
{
  std::vector<RankView> views = build_rank_views(progress, sources, program);
  WaitChains chains = find_wait_chains(views);
  DeadlockClass cls = classify_deadlock(views, chains);
  DeadlockDiagnosis d;
  d.classification = cls.name;
  d.text = render_deadlock_text(views, chains, cls);
  d.json = render_deadlock_json(views, chains, cls);
  return d;
}

}  // namespace progsim::mpi

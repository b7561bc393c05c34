// The MPI library model as the rank runtime sees it: it assembles the
// handle tables, the fabric, the progress engine with the selected policy
// and the point-to-point engine, and reports on them. One per simulation.
#pragma once

#include "ModelParameters.hpp"
#include "core/Communicator.hpp"
#include "core/DatatypeTable.hpp"
#include "core/Process.hpp"
#include "core/Request.hpp"
#include "diagnosis/Leaks.hpp"
#include "diagnosis/PendingBuffers.hpp"
#include "diagnosis/StandardErrors.hpp"
#include "sim/RankModel.hpp"
#include "transport/Packet.hpp"

#include <map>
#include <optional>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace progsim::sim {
class Rank;
}

namespace progsim::mpi {

class Fabric;
class PointToPoint;
class MessageRaces;
namespace rma {
class RmaEngine;
}
class ProgressEngine;
class RankProgress;
class PolicyParameters;
struct PolicyDescription;

class MpiModel final : public sim::RankModel {
public:
  explicit MpiModel(std::string policy);
  ~MpiModel() override;

  static MpiModel& instance() { return *instance_; }
  const ModelParameters& parameters() const { return parameters_; }
  const std::string& policy_name() const { return policy_; }
  Process& process(int rank) { return processes_[static_cast<size_t>(rank)]; }
  sim::Simulation& simulation() { return *simulation_; }
  CommunicatorTable& communicators() { return communicators_; }
  DatatypeTable& datatypes() { return datatypes_; }
  RequestTable& requests() { return requests_; }
  PointToPoint& p2p() { return *p2p_; }
  rma::RmaEngine& rma() { return *rma_; }
  ProgressEngine& progress() { return *progress_; }
  // The rules of the standard the program broke so far.
  StandardErrors& standard_errors() { return standard_errors_; }
  const StandardErrors& standard_errors() const { return standard_errors_; }
  // --check buffers: the guards of pending operations' buffers.
  PendingBuffers& pending_buffers() { return pending_buffers_; }
  RankProgress& rank_progress(int rank);
  // Messages taken out by MPI_Mprobe / MPI_Improbe, until MPI_(I)mrecv.
  MPI_Message add_matched_message(Packet message);
  std::optional<Packet> take_matched_message(MPI_Message handle);

  void register_parameters(sim::Config& config) override;
  void on_simulation_start(sim::Simulation& simulation) override;
  void on_rank_end(sim::Rank& rank) override;
  void on_run_stopped() override;
  void on_simulation_teardown() override;
  double call_overhead() const override;
  std::string standard_errors_at_completion() override;
  void add_to_report(nlohmann::ordered_json& report) const override;
  void add_rank_to_report(const sim::Rank& rank, nlohmann::ordered_json& entry) const override;

private:
  std::string policy_;
  ModelParameters parameters_;
  const PolicyDescription* policy_description_;
  // Every catalogue policy's own parameters, in catalogue order.
  std::vector<std::pair<const PolicyDescription*, std::unique_ptr<PolicyParameters>>> policy_parameters_;
  sim::Simulation* simulation_ = nullptr;
  std::vector<Process> processes_;
  CommunicatorTable communicators_;
  DatatypeTable datatypes_;
  RequestTable requests_;
  std::unique_ptr<ProgressEngine> progress_;
  std::unique_ptr<Fabric> fabric_;
  std::unique_ptr<PointToPoint> p2p_;
  std::unique_ptr<rma::RmaEngine> rma_;
  std::unique_ptr<MessageRaces> races_;  // match-record / match-schedule only
  StandardErrors standard_errors_;
  PendingBuffers pending_buffers_;
  Leaks leaks_;  // found when every rank finished (diagnosis/FinalizeChecks)
  std::map<MPI_Message, Packet> matched_messages_;
  MPI_Message next_message_index_ = 2;  // 1 is MPI_MESSAGE_NO_PROC
  // Simulation::latest_clock() when the report began (add_to_report comes
  // before the ranks' entries): a look at every rank's clock per rank made
  // the report of N ranks cost N^2.
  mutable double report_clock_ = 0;
  static MpiModel* instance_;
};

}  // namespace progsim::mpi

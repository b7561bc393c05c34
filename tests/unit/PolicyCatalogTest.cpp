// The policy catalogue: each policy declares its parameters, report fields
// and executor, and what reports and `progsim compare` show is read from
// the declarations, so a policy added to the list is picked up everywhere
// (tests/progress/toy_policy.sh builds and runs one).
#include "ModelParameters.hpp"
#include "progress/PolicyCatalog.hpp"
#include "progress/PolicyReport.hpp"
#include "sim/Config.hpp"
#include "sim/Diagnostics.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace progsim::mpi;

namespace {

std::vector<std::string> labels(const std::vector<const ExecutorDescription*>& executors)
{
  std::vector<std::string> out;
  for (const ExecutorDescription* e : executors)
    out.push_back(e->label);
  return out;
}

// A policy that exists only in this test.
const PolicyDescription& fpga_policy()
{
  static const PolicyDescription description{
      "fpga",
      "test only",
      ExecutorDescription{"fpga", "#123456", "by the FPGA"},
      {{"fpga_busy", ReportField::Unit::Seconds, false, "FPGA busy", "seconds the FPGA ran chunks"},
       {"fpga_queue_full", ReportField::Unit::Count, true, "", ""}},
      nullptr};
  return description;
}

}  // namespace

TEST(PolicyCatalog, FindsEachPolicyByNameAndListsThemOnAnUnknownName)
{
  std::set<std::string> names;
  for (const PolicyDescription* p : policy_catalog()) {
    EXPECT_TRUE(names.insert(p->name).second) << p->name;
    EXPECT_EQ(&find_policy(p->name), p);
  }
  EXPECT_EQ(policy_names(policy_catalog(), ","), "weak,thread,offload,ideal");
  try {
    find_policy("eager");
    FAIL() << "no error for an unknown policy";
  } catch (const progsim::sim::InputError& e) {
    EXPECT_EQ(e.message, "unknown progress policy 'eager' (expected one of: weak, thread, offload, ideal)");
  }
}

// The columns and chunk counts compare shows, and the HTML legend's executors.
TEST(PolicyCatalog, ExecutorsAndCompareColumnsComeFromTheDescriptions)
{
  EXPECT_EQ(labels(executors(policy_catalog())), (std::vector<std::string>{"rank", "thread", "nic", "immediate"}));
  std::vector<const ReportField*> columns = compare_columns(policy_catalog());
  ASSERT_EQ(columns.size(), 1u);
  EXPECT_EQ(columns[0]->name, "progress_thread_cpu");

  PolicyList with_fpga = policy_catalog();
  with_fpga.push_back(&fpga_policy());
  EXPECT_EQ(labels(executors(with_fpga)), (std::vector<std::string>{"rank", "thread", "nic", "immediate", "fpga"}));
  EXPECT_EQ(executors(with_fpga).back()->colour, "#123456");
  columns = compare_columns(with_fpga);
  ASSERT_EQ(columns.size(), 2u);
  EXPECT_EQ(columns[1]->name, "fpga_busy");
  EXPECT_EQ(columns[1]->column, "FPGA busy");
}

// Each policy registers its own --cfg keys (none shared with another) and
// makes itself from them.
TEST(PolicyCatalog, EveryPolicyRegistersItsOwnParametersAndMakesItself)
{
  std::set<std::string> keys;
  ModelParameters model;
  for (const PolicyDescription* p : policy_catalog()) {
    SCOPED_TRACE(p->name);
    progsim::sim::Config config;
    std::unique_ptr<PolicyParameters> parameters = p->parameters();
    parameters->register_parameters(config);
    for (const std::string& key : config.keys())
      EXPECT_TRUE(keys.insert(key).second) << key;
    EXPECT_EQ(parameters->make_policy(model)->name(), p->name);
  }
  EXPECT_EQ(keys, (std::set<std::string>{"thread-interval", "thread-poll-cost", "thread-lock-cost",
                                         "nic-step-latency", "nic-match-entries", "nic-post-cost"}));
}

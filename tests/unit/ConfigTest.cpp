#include "sim/Config.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/RuntimeParameters.hpp"

#include "MpiModel.hpp"
#include "progress/PolicyCatalog.hpp"

#include <gtest/gtest.h>

#include <cmath>

using progsim::sim::Config;
using progsim::sim::InputError;
using progsim::sim::Range;

namespace {

// The InputError message of config.set(key, value), or "" when it is accepted.
std::string rejection(Config& config, const std::string& key, const std::string& value)
{
  try {
    config.set(key, value);
  } catch (const InputError& e) {
    return e.message;
  }
  return "";
}

}  // namespace

TEST(Config, ParsesNumbersWithUnits)
{
  Config config;
  double latency = 1.0;
  long long bytes = 0;
  config.add("latency", latency, {0, 10}, "s", "a latency");
  config.add("threshold", bytes, {0, 1e9}, "B", "a size");
  config.set("latency", "250ns");
  EXPECT_DOUBLE_EQ(latency, 250e-9);
  config.set("threshold", "64KiB");
  EXPECT_EQ(bytes, 65536);
  config.set("latency", "3");
  EXPECT_DOUBLE_EQ(latency, 3.0);
}

TEST(Config, RejectsBadValuesNamingTheKey)
{
  Config config;
  double latency = 1.0;
  long long count = 0;
  std::string mode = "a";
  config.add("latency", latency, {0, 10}, "s", "a latency");
  config.add("count", count, {0, 100}, "", "a count");
  config.add("mode", mode, {"a", "b"}, "a choice");
  try {
    config.set("latency", "fast");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(e.message.find("latency=fast"), std::string::npos);
  }
  EXPECT_THROW(config.set("count", "1.5"), InputError);
  EXPECT_THROW(config.set("mode", "c"), InputError);
  EXPECT_THROW(config.set("nosuchkey", "1"), InputError);
  EXPECT_DOUBLE_EQ(latency, 1.0);
}

TEST(Config, HelpListsDefaultsAndChoices)
{
  Config config;
  bool flag = true;
  std::string mode = "a";
  config.add("flag", flag, "turns it on");
  config.add("mode", mode, {"a", "b"}, "a choice");
  std::string help = config.help();
  EXPECT_NE(help.find("flag (default yes)"), std::string::npos);
  EXPECT_NE(help.find("[a|b]"), std::string::npos);
  EXPECT_EQ(config.to_json().dump(), R"({"flag":true,"mode":"a"})");
}

TEST(Config, RejectsValuesOutsideTheRangeNamingKeyValueAndRange)
{
  Config config;
  double cost = 1.0;
  long long bytes = 16;
  double interval = 1.0;
  double watchdog = 30;
  config.add("cost", cost, {0, 10}, "s", "a cost");
  config.add("bytes", bytes, {0, 1024}, "bytes", "a size");
  config.add("interval", interval, {1e-9, 1}, "s", "never 0");
  config.add("watchdog", watchdog, {1, 100, true}, "s", "0: off");
  EXPECT_EQ(rejection(config, "cost", "-1"), "--cfg cost=-1: out of range (allowed: 0 to 10 s)");
  EXPECT_EQ(rejection(config, "cost", "nan"), "--cfg cost=nan: not a finite number");
  EXPECT_EQ(rejection(config, "cost", "inf"), "--cfg cost=inf: not a finite number");
  EXPECT_EQ(rejection(config, "cost", "-inf"), "--cfg cost=-inf: not a finite number");
  EXPECT_EQ(rejection(config, "cost", "1e999"), "--cfg cost=1e999: not a number");
  EXPECT_EQ(rejection(config, "bytes", "-1"), "--cfg bytes=-1: out of range (allowed: 0 to 1024 bytes)");
  EXPECT_EQ(rejection(config, "bytes", "2KiB"), "--cfg bytes=2KiB: out of range (allowed: 0 to 1024 bytes)");
  EXPECT_EQ(rejection(config, "bytes", "1e30"), "--cfg bytes=1e30: out of range (allowed: 0 to 1024 bytes)");
  EXPECT_EQ(rejection(config, "interval", "0"), "--cfg interval=0: out of range (allowed: 1e-09 to 1 s)");
  EXPECT_EQ(rejection(config, "watchdog", "0.5"),
            "--cfg watchdog=0.5: out of range (allowed: 0 (off) or 1 to 100 s)");
  EXPECT_EQ(cost, 1.0);
  EXPECT_EQ(bytes, 16);
  EXPECT_EQ(rejection(config, "cost", "10"), "");
  EXPECT_EQ(rejection(config, "bytes", "1KiB"), "");
  EXPECT_EQ(rejection(config, "watchdog", "0"), "");
  EXPECT_EQ(cost, 10.0);
  EXPECT_EQ(bytes, 1024);
  EXPECT_EQ(watchdog, 0.0);
  EXPECT_NE(config.help().find("interval (default 1 s; 1e-09 to 1 s)"), std::string::npos) << config.help();
  EXPECT_NE(config.help().find("watchdog (default 30 s; 0 (off) or 1 to 100 s)"), std::string::npos);
}

TEST(Config, DefaultOutsideItsRangeIsAProgrammingError)
{
  Config config;
  double cost = -1;
  EXPECT_THROW(config.add("cost", cost, {0, 1}, "s", "a cost"), std::logic_error);
}

// Every numeric parameter progsim registers (runtime, model, each policy's)
// has a range: no NaN, no infinity, no value below its minimum.
TEST(Config, EveryRegisteredNumberIsRangeChecked)
{
  for (const progsim::mpi::PolicyDescription* policy : progsim::mpi::policy_catalog()) {
    Config config;
    progsim::sim::RuntimeParameters runtime;
    progsim::sim::register_runtime_parameters(config, runtime);
    progsim::mpi::MpiModel model(policy->name);
    model.register_parameters(config);
    int numeric = 0;
    for (const std::string& key : config.keys()) {
      std::optional<Range> range = config.range(key);
      if (!range)
        continue;
      ++numeric;
      SCOPED_TRACE(key);
      EXPECT_TRUE(std::isfinite(range->min) && std::isfinite(range->max) && range->min <= range->max);
      for (const char* bad : {"nan", "inf", "-inf"})
        EXPECT_NE(rejection(config, key, bad), "");
      char below[64];
      std::snprintf(below, sizeof below, "%.17g", range->min - std::max(1.0, std::fabs(range->min)));
      EXPECT_NE(rejection(config, key, below).find("out of range (allowed: "), std::string::npos);
      EXPECT_NE(config.help().find("  " + key + " (default "), std::string::npos);
    }
    EXPECT_GE(numeric, 18);  // 7 of the runtime, 11 of the model when this was written
  }
}

// The values of issue 14, each with the message a user sees.
TEST(Config, RejectsTheReportedBadValues)
{
  Config config;
  progsim::sim::RuntimeParameters runtime;
  progsim::sim::register_runtime_parameters(config, runtime);
  progsim::mpi::MpiModel model("thread");
  model.register_parameters(config);
  EXPECT_EQ(rejection(config, "eager-threshold", "-1"),
            "--cfg eager-threshold=-1: out of range (allowed: 0 to 1099511627776 bytes)");
  EXPECT_EQ(rejection(config, "call-cost", "-1"), "--cfg call-cost=-1: out of range (allowed: 1e-12 to 1 s)");
  EXPECT_EQ(rejection(config, "call-cost", "0"), "--cfg call-cost=0: out of range (allowed: 1e-12 to 1 s)");
  EXPECT_EQ(rejection(config, "call-cost", "nan"), "--cfg call-cost=nan: not a finite number");
  EXPECT_EQ(rejection(config, "call-cost", "inf"), "--cfg call-cost=inf: not a finite number");
  EXPECT_EQ(rejection(config, "time-quantum", "-1"), "--cfg time-quantum=-1: out of range (allowed: 0 to 1 s)");
  EXPECT_EQ(rejection(config, "thread-interval", "0"),
            "--cfg thread-interval=0: out of range (allowed: 1e-09 to 1 s)");
  EXPECT_EQ(rejection(config, "time-quantum", "0"), "");
  EXPECT_EQ(rejection(config, "eager-threshold", "0"), "");
  EXPECT_EQ(rejection(config, "watchdog", "0"), "");
  EXPECT_EQ(rejection(config, "guard-pages", "-1"), "");
}

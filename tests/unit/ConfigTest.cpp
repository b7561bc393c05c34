#include "sim/Config.hpp"
#include "sim/Diagnostics.hpp"

#include <gtest/gtest.h>

using progsim::sim::Config;
using progsim::sim::InputError;

TEST(Config, ParsesNumbersWithUnits)
{
  Config config;
  double latency = 1.0;
  long long bytes = 0;
  config.add("latency", latency, "s", "a latency");
  config.add("threshold", bytes, "B", "a size");
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
  config.add("latency", latency, "s", "a latency");
  config.add("count", count, "", "a count");
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

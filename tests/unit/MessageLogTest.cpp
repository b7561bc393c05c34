// The report's per-message log (mpi_model/p2p/MessageLog.hpp): the first
// `keep` messages kept whole, later ones only until they complete; nodes of
// completed messages are reused by later ones.
#include "p2p/MessageLog.hpp"

#include <gtest/gtest.h>

using progsim::mpi::MessageLog;
using progsim::mpi::MessageRecord;

namespace {

MessageRecord record(int source, double post_time)
{
  MessageRecord r;
  r.source = source;
  r.post_time = post_time;
  return r;
}

TEST(MessageLog, LaterMessagesCompleteInAnyOrderWithTheirOwnRecord)
{
  MessageLog log(1);
  EXPECT_EQ(log.add(record(0, 0.0)), 1u);  // kept whole
  // Several rounds of messages beyond `keep`, completed in reverse order,
  // so that later rounds run on reused nodes.
  std::uint64_t next = 2;
  for (int round = 0; round < 3; ++round) {
    std::vector<std::uint64_t> ids;
    for (int i = 0; i < 4; ++i)
      ids.push_back(log.add(record(10 * round + i, round)));
    for (std::uint64_t id : ids)
      EXPECT_EQ(id, next++);
    log.matched(ids[2], round + 0.5);
    for (int i = 3; i >= 0; --i) {
      std::optional<MessageRecord> done = log.completed(ids[static_cast<std::size_t>(i)], round + 1.0);
      ASSERT_TRUE(done.has_value());
      EXPECT_EQ(done->id, ids[static_cast<std::size_t>(i)]);
      EXPECT_EQ(done->source, 10 * round + i);
      EXPECT_DOUBLE_EQ(done->post_time, round);
      EXPECT_DOUBLE_EQ(done->match_time, i == 2 ? round + 0.5 : -1);
      EXPECT_DOUBLE_EQ(done->complete_time, round + 1.0);
      // Completed once: a second completion finds nothing.
      EXPECT_FALSE(log.completed(ids[static_cast<std::size_t>(i)], round + 2.0).has_value());
    }
  }
  EXPECT_EQ(log.size(), 13u);
  nlohmann::ordered_json j = log.to_json();
  EXPECT_EQ(j["count"], 13);
  EXPECT_EQ(j["completed"], 12);  // message 1 never completed
  EXPECT_DOUBLE_EQ(j["latency_median"].get<double>(), 1.0);
}

TEST(MessageLog, UnknownIdsAreIgnored)
{
  MessageLog log(0);
  EXPECT_FALSE(log.completed(7, 1.0).has_value());
  log.matched(7, 1.0);
  EXPECT_EQ(log.add(record(1, 0.5)), 1u);
  EXPECT_FALSE(log.completed(2, 1.0).has_value());
  std::optional<MessageRecord> done = log.completed(1, 1.0);
  ASSERT_TRUE(done.has_value());
  EXPECT_DOUBLE_EQ(done->post_time, 0.5);
}

}  // namespace

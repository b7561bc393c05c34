// Matching rules of MPI-4.1 §3.5: context, source and tag; wildcards; posting
// and arrival order (non-overtaking).
#include "p2p/MatchingQueues.hpp"

#include <gtest/gtest.h>

using namespace progsim::mpi;

namespace {

Packet message(int context, int source, int tag, std::uint64_t id)
{
  Packet p;
  p.kind = PacketKind::Eager;
  p.context_id = context;
  p.src_local = source;
  p.tag = tag;
  p.message_id = id;
  return p;
}

constexpr double kAlways = 1e300;  // a horizon by which every receive was posted

RequestPtr receive(int context, int source, int tag, double post_time = 0)
{
  auto r = std::make_shared<Request>();
  r->post_time = post_time;
  r->kind = RequestKind::Recv;
  r->context_id = context;
  r->peer = source;
  r->tag = tag;
  return r;
}

}  // namespace

TEST(MatchingQueues, EnvelopeMatchesContextSourceAndTag)
{
  Packet m = message(0, 3, 7, 1);
  EXPECT_TRUE(envelope_matches(0, 3, 7, m));
  EXPECT_TRUE(envelope_matches(0, MPI_ANY_SOURCE, 7, m));
  EXPECT_TRUE(envelope_matches(0, 3, MPI_ANY_TAG, m));
  EXPECT_FALSE(envelope_matches(1, 3, 7, m)) << "another communicator context never matches";
  EXPECT_FALSE(envelope_matches(0, 2, 7, m));
  EXPECT_FALSE(envelope_matches(0, 3, 8, m));
}

TEST(MatchingQueues, PostedReceivesMatchInPostingOrder)
{
  MatchingQueues q;
  RequestPtr specific = receive(0, 3, 7);
  RequestPtr any = receive(0, MPI_ANY_SOURCE, MPI_ANY_TAG);
  q.post(any);
  q.post(specific);
  EXPECT_EQ(q.take_posted(message(0, 3, 7, 1), kAlways), any) << "the first posted receive that fits wins";
  EXPECT_EQ(q.take_posted(message(0, 3, 7, 2), kAlways), specific);
  EXPECT_EQ(q.take_posted(message(0, 3, 7, 3), kAlways), nullptr);
  EXPECT_EQ(q.posted_count(), 0u);
}

TEST(MatchingQueues, UnexpectedMessagesMatchInArrivalOrder)
{
  MatchingQueues q;
  q.add_unexpected(message(0, 1, 5, 1));
  q.add_unexpected(message(0, 2, 5, 2));
  q.add_unexpected(message(0, 1, 5, 3));
  ASSERT_NE(q.peek_unexpected(0, 1, 5), nullptr);
  EXPECT_EQ(q.peek_unexpected(0, 1, 5)->message_id, 1u) << "peek does not remove";
  EXPECT_EQ(q.take_unexpected(0, 1, 5)->message_id, 1u);
  EXPECT_EQ(q.take_unexpected(0, 1, 5)->message_id, 3u);
  EXPECT_EQ(q.take_unexpected(0, MPI_ANY_SOURCE, MPI_ANY_TAG)->message_id, 2u);
  EXPECT_FALSE(q.take_unexpected(0, MPI_ANY_SOURCE, MPI_ANY_TAG).has_value());
}

TEST(MatchingQueues, CancelledReceiveLeavesTheQueue)
{
  MatchingQueues q;
  RequestPtr r = receive(0, 1, 1);
  q.post(r);
  EXPECT_TRUE(q.remove_posted(*r));
  EXPECT_FALSE(q.remove_posted(*r));
  EXPECT_EQ(q.take_posted(message(0, 1, 1, 1), kAlways), nullptr);
}

TEST(MatchingQueues, ReceivesPostedAfterTheHorizonAreNotSeenYet)
{
  // A rank with deferred CPU debt posts ahead of SimGrid's clock: an agent
  // matching at an earlier time sees only what was posted by then, and
  // learns which later receive would have taken the message.
  MatchingQueues q;
  RequestPtr early = receive(0, 1, 1, 1.0);
  RequestPtr late_any = receive(0, MPI_ANY_SOURCE, MPI_ANY_TAG, 3.0);
  RequestPtr late = receive(0, 2, 2, 2.0);
  q.post(late_any);
  q.post(late);
  q.post(early);
  RequestPtr later;
  EXPECT_EQ(q.take_posted(message(0, 2, 2, 1), 1.5, &later), nullptr) << "both fitting receives are posted after 1.5";
  EXPECT_EQ(later, late_any) << "the first fitting one in posting order";
  later = nullptr;
  EXPECT_EQ(q.take_posted(message(0, 2, 2, 2), 2.0, &later), late) << "posted at 2.0: seen at 2.0, ahead of late_any";
  EXPECT_EQ(later, late_any);
  later = nullptr;
  EXPECT_EQ(q.take_posted(message(0, 1, 1, 3), 1.0, &later), early);
  EXPECT_EQ(later, late_any) << "a later fitting receive is reported even when an earlier one matched";
  EXPECT_EQ(q.posted_count(), 1u);
}

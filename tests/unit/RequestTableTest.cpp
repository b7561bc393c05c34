#include "core/Request.hpp"

#include <gtest/gtest.h>

using namespace progsim::mpi;

TEST(RequestTable, HandlesAreReusedDeterministically)
{
  RequestTable table;
  auto a = std::make_shared<Request>();
  auto b = std::make_shared<Request>();
  MPI_Request ha = table.insert(a);
  MPI_Request hb = table.insert(b);
  EXPECT_NE(ha, MPI_REQUEST_NULL);
  EXPECT_NE(ha, hb);
  EXPECT_EQ(table.find(ha), a);
  table.erase(ha);
  EXPECT_EQ(table.find(ha), nullptr);
  auto c = std::make_shared<Request>();
  EXPECT_EQ(table.insert(c), ha) << "the freed slot is reused first";
  EXPECT_EQ(table.live(), 2u);
  EXPECT_EQ(table.find(MPI_REQUEST_NULL), nullptr);
  EXPECT_EQ(table.find(0x12345678), nullptr) << "a handle of another kind is not a request";
}

TEST(Request, DescribeNamesCallPeerTagCommAndSize)
{
  Request r;
  r.comm_name = "MPI_COMM_WORLD";
  r.kind = RequestKind::Recv;
  r.call = "MPI_Recv";
  r.peer = MPI_ANY_SOURCE;
  r.tag = 4;
  r.bytes = 16;
  EXPECT_EQ(r.describe(), "MPI_Recv(source=MPI_ANY_SOURCE, tag=4, comm=MPI_COMM_WORLD, 16 bytes)");
}

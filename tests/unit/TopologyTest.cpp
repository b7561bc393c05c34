// The topology kinds of mpi_model/topology without any MPI state:
// MPI_Dims_create's balanced factorisation, Cartesian coordinates, ranks,
// shifts, subgrids and neighbourhoods, graph checks and neighbourhoods.
#include "topology/CartesianTopology.hpp"
#include "topology/DimsCreate.hpp"
#include "topology/DistGraphTopology.hpp"
#include "topology/GraphTopology.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <numeric>

using namespace progsim::mpi::topology;

namespace {

std::vector<int> dims_of(int nnodes, std::vector<int> dims)
{
  DimsResult r = dims_create(nnodes, dims);
  EXPECT_TRUE(r.ok) << r.error;
  return dims;
}

int spread(const std::vector<int>& dims)
{
  return dims.front() - dims.back();
}

}  // namespace

TEST(DimsCreate, BalancedNonIncreasing)
{
  EXPECT_EQ(dims_of(12, {0, 0}), (std::vector<int>{4, 3}));
  EXPECT_EQ(dims_of(12, {0, 0, 0}), (std::vector<int>{3, 2, 2}));
  EXPECT_EQ(dims_of(64, {0, 0, 0, 0}), (std::vector<int>{4, 4, 2, 2}));
  EXPECT_EQ(dims_of(7, {0, 0}), (std::vector<int>{7, 1}));
  EXPECT_EQ(dims_of(1, {0, 0, 0}), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(dims_of(1000000000, {0, 0, 0}), (std::vector<int>{1000, 1000, 1000}));
}

TEST(DimsCreate, SmallestSpreadNotGreedy)
{
  // 1323 = 3^3 7^2: 49 x 27 (spread 22) beats 63 x 21.
  EXPECT_EQ(dims_of(1323, {0, 0}), (std::vector<int>{49, 27}));
  // 432 in 3: 9 x 8 x 6 (spread 3); a greedy split of primes gives 12 x 6 x 6.
  EXPECT_EQ(dims_of(432, {0, 0, 0}), (std::vector<int>{9, 8, 6}));
}

TEST(DimsCreate, TiesKeepTheLargerTrailingDimensions)
{
  // 5040 in 3: 21 x 16 x 15 and 20 x 18 x 14 both have spread 6.
  EXPECT_EQ(dims_of(5040, {0, 0, 0}), (std::vector<int>{21, 16, 15}));
  // 5616 in 4: 13 x 9 x 8 x 6 and 13 x 12 x 6 x 6 both have spread 7.
  EXPECT_EQ(dims_of(5616, {0, 0, 0, 0}), (std::vector<int>{13, 9, 8, 6}));
}

TEST(DimsCreate, FixedEntriesKept)
{
  EXPECT_EQ(dims_of(24, {0, 3, 0}), (std::vector<int>{4, 3, 2}));
  EXPECT_EQ(dims_of(16, {0, 8, 0, 2}), (std::vector<int>{1, 8, 1, 2}));
  EXPECT_EQ(dims_of(6, {2, 3}), (std::vector<int>{2, 3}));
  EXPECT_EQ(dims_of(1, {}), (std::vector<int>{}));
}

TEST(DimsCreate, Errors)
{
  std::vector<int> d{3, 0};
  EXPECT_FALSE(dims_create(10, d).ok);
  d = {-1, 0};
  EXPECT_FALSE(dims_create(4, d).ok);
  d = {2, 2};
  EXPECT_FALSE(dims_create(8, d).ok);
  d = {0};
  EXPECT_FALSE(dims_create(-3, d).ok);
}

TEST(DimsCreate, EveryResultIsAFactorisationWithMinimalSpread)
{
  for (int n = 1; n <= 300; ++n)
    for (int k = 1; k <= 4; ++k) {
      std::vector<int> d = dims_of(n, std::vector<int>(static_cast<size_t>(k), 0));
      EXPECT_EQ(std::accumulate(d.begin(), d.end(), 1, std::multiplies<>()), n);
      EXPECT_TRUE(std::is_sorted(d.rbegin(), d.rend())) << n << " in " << k;
      if (k == 2) {
        // Brute force: the divisor pair closest to sqrt(n).
        int best = n - 1;
        for (int a = 1; a * a <= n; ++a)
          if (n % a == 0)
            best = std::min(best, n / a - a);
        EXPECT_EQ(spread(d), best) << n;
      }
    }
}

TEST(Cartesian, RowMajorRoundTrip)
{
  CartesianTopology t({4, 3, 2}, {false, true, false});
  EXPECT_EQ(t.size(), 24);
  EXPECT_EQ(t.coords(0), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(t.coords(1), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(t.coords(2), (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(t.coords(23), (std::vector<int>{3, 2, 1}));
  for (int r = 0; r < t.size(); ++r) {
    std::string why;
    EXPECT_EQ(t.rank(t.coords(r), why), r);
  }
}

TEST(Cartesian, PeriodicWrapAndBorders)
{
  CartesianTopology t({4, 3}, {true, false});
  std::string why;
  EXPECT_EQ(t.rank({-1, 2}, why), 11);
  EXPECT_EQ(t.rank({9, 1}, why), 4);
  EXPECT_EQ(t.rank({0, 3}, why), -1);
  EXPECT_NE(why.find("non-periodic"), std::string::npos);
  CartesianTopology::Shift s = t.shift(0, 0, 1);
  EXPECT_EQ(s.source, 9);
  EXPECT_EQ(s.dest, 3);
  s = t.shift(0, 1, 1);
  EXPECT_EQ(s.source, MPI_PROC_NULL);
  EXPECT_EQ(s.dest, 1);
  s = t.shift(5, 1, -1);  // (1, 2): dest (1, 1) = 4, source past the border
  EXPECT_EQ(s.source, MPI_PROC_NULL);
  EXPECT_EQ(s.dest, 4);
  s = t.shift(4, 0, -5);  // periodic: -5 = -1 mod 4
  EXPECT_EQ(s.source, 7);
  EXPECT_EQ(s.dest, 1);
}

TEST(Cartesian, Check)
{
  EXPECT_EQ(CartesianTopology::check({2, 3}, 6), "");
  EXPECT_NE(CartesianTopology::check({2, 4}, 6), "");
  EXPECT_NE(CartesianTopology::check({2, 0}, 6), "");
  EXPECT_EQ(CartesianTopology::check({}, 1), "");
}

TEST(Cartesian, SubgridColorsAndKeys)
{
  CartesianTopology t({2, 3, 4}, {true, false, true});
  std::vector<bool> keep{false, true, true};
  CartesianTopology sub = t.sub(keep);
  EXPECT_EQ(sub.dims(), (std::vector<int>{3, 4}));
  EXPECT_EQ(sub.periods(), (std::vector<bool>{false, true}));
  // (1, 2, 3) = rank 23: subgrid 1, rank 11 in it.
  EXPECT_EQ(t.sub_color(23, keep), 1);
  EXPECT_EQ(t.sub_key(23, keep), 11);
  std::vector<bool> middle{false, true, false};
  EXPECT_EQ(t.sub_color(23, middle), 1 * 4 + 3);
  EXPECT_EQ(t.sub_key(23, middle), 2);
  CartesianTopology none = t.sub({false, false, false});
  EXPECT_EQ(none.ndims(), 0);
  EXPECT_EQ(none.size(), 1);
}

TEST(Cartesian, NeighborsPerDimensionBelowThenAbove)
{
  CartesianTopology t({4, 3}, {true, false});
  Neighbors n = t.neighbors(3);  // (1, 0)
  EXPECT_EQ(n.sources, (std::vector<int>{0, 6, MPI_PROC_NULL, 4}));
  EXPECT_EQ(n.destinations, n.sources);
  // Data sent down arrives at the peer as coming from above.
  EXPECT_EQ(n.destination_channels, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(n.source_channels, (std::vector<int>{1, 0, 3, 2}));
  // A periodic dimension of size 2: the same process on both sides.
  CartesianTopology pair({2}, {true});
  EXPECT_EQ(pair.neighbors(0).sources, (std::vector<int>{1, 1}));
}

TEST(Graph, ChecksAndNeighbors)
{
  int index[] = {2, 3, 4};
  int edges[] = {1, 2, 0, 0};
  EXPECT_EQ(GraphTopology::check(3, index, edges, 3), "");
  EXPECT_NE(GraphTopology::check(4, index, edges, 3), "");
  EXPECT_EQ(GraphTopology::check(0, nullptr, nullptr, 3), "");
  int bad_edge[] = {1, 3, 0, 0};
  EXPECT_NE(GraphTopology::check(3, index, bad_edge, 3), "");
  int decreasing[] = {2, 1, 4};
  EXPECT_NE(GraphTopology::check(3, decreasing, edges, 3), "");
  GraphTopology g({2, 3, 4}, {1, 2, 0, 0});
  EXPECT_EQ(g.nnodes(), 3);
  EXPECT_EQ(g.nedges(), 4);
  EXPECT_EQ(g.neighbors_of(0), (std::vector<int>{1, 2}));
  EXPECT_EQ(g.neighbors_of(2), (std::vector<int>{0}));
  EXPECT_EQ(g.neighbors(1).sources, (std::vector<int>{0}));
  EXPECT_EQ(g.kind(), MPI_GRAPH);
}

TEST(DistGraph, NeighborsAreTheAdjacency)
{
  Adjacency a;
  a.sources = {3, 3, 1};
  a.destinations = {0};
  DistGraphTopology t(a);
  Neighbors n = t.neighbors(2);
  EXPECT_EQ(n.sources, (std::vector<int>{3, 3, 1}));
  EXPECT_EQ(n.destinations, (std::vector<int>{0}));
  EXPECT_EQ(n.source_channels, (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(t.kind(), MPI_DIST_GRAPH);
}

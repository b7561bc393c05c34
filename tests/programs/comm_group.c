/* Group operations on the group of MPI_COMM_WORLD (run with 5 ranks): incl,
 * excl, range_incl, range_excl, union, intersection, difference,
 * translate_ranks (with MPI_PROC_NULL and MPI_UNDEFINED results), compare,
 * size, rank, MPI_GROUP_EMPTY and free. */
#include "check.h"

static int group_size(MPI_Group g)
{
  int s = -1;
  MPI_Group_size(g, &s);
  return s;
}

/* The world ranks of g's members, in order. */
static void members(MPI_Group g, MPI_Group world, int* out)
{
  int n = group_size(g), in[16];
  for (int i = 0; i < n; ++i)
    in[i] = i;
  MPI_Group_translate_ranks(g, n, in, world, out);
}

static int equals(const int* a, const int* b, int n)
{
  for (int i = 0; i < n; ++i)
    if (a[i] != b[i])
      return 0;
  return 1;
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 5) {
    if (rank == 0)
      printf("run with 5 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int r = -1, m[16];
  CHECK(group_size(world) == 5, "world group size %d", group_size(world));
  MPI_Group_rank(world, &r);
  CHECK(r == rank, "world group rank %d", r);

  /* incl {4, 1, 3} keeps that order */
  MPI_Group inc;
  int pick[3] = {4, 1, 3};
  MPI_Group_incl(world, 3, pick, &inc);
  members(inc, world, m);
  CHECK(group_size(inc) == 3 && equals(m, pick, 3), "incl: %d %d %d", m[0], m[1], m[2]);
  MPI_Group_rank(inc, &r);
  CHECK(r == (rank == 4 ? 0 : rank == 1 ? 1 : rank == 3 ? 2 : MPI_UNDEFINED), "incl rank %d", r);

  /* excl {1, 3} keeps 0 2 4 */
  MPI_Group exc;
  int drop[2] = {3, 1}, kept[3] = {0, 2, 4};
  MPI_Group_excl(world, 2, drop, &exc);
  members(exc, world, m);
  CHECK(group_size(exc) == 3 && equals(m, kept, 3), "excl: %d %d %d", m[0], m[1], m[2]);

  /* range_incl (4, 0, -2) and (1, 1, 1): 4 2 0 1 */
  MPI_Group rin;
  int ranges[2][3] = {{4, 0, -2}, {1, 1, 1}}, rexp[4] = {4, 2, 0, 1};
  MPI_Group_range_incl(world, 2, ranges, &rin);
  members(rin, world, m);
  CHECK(group_size(rin) == 4 && equals(m, rexp, 4), "range_incl: %d %d %d %d", m[0], m[1], m[2], m[3]);
  /* range_excl (0, 4, 2): 1 3 */
  MPI_Group rex;
  int xr[1][3] = {{0, 4, 2}}, xexp[2] = {1, 3};
  MPI_Group_range_excl(world, 1, xr, &rex);
  members(rex, world, m);
  CHECK(group_size(rex) == 2 && equals(m, xexp, 2), "range_excl: %d %d", m[0], m[1]);

  /* union (4 1 3) + (0 2 4) = 4 1 3 0 2; intersection = 4; difference = 1 3 */
  MPI_Group un, in, df;
  MPI_Group_union(inc, exc, &un);
  int uexp[5] = {4, 1, 3, 0, 2};
  members(un, world, m);
  CHECK(group_size(un) == 5 && equals(m, uexp, 5), "union: %d %d %d %d %d", m[0], m[1], m[2], m[3], m[4]);
  MPI_Group_intersection(inc, exc, &in);
  members(in, world, m);
  CHECK(group_size(in) == 1 && m[0] == 4, "intersection size %d", group_size(in));
  MPI_Group_difference(inc, exc, &df);
  int dexp[2] = {1, 3};
  members(df, world, m);
  CHECK(group_size(df) == 2 && equals(m, dexp, 2), "difference: %d %d", m[0], m[1]);

  /* translate with MPI_PROC_NULL and a rank missing from the target */
  int from[3] = {0, MPI_PROC_NULL, 2}, to[3];
  MPI_Group_translate_ranks(inc, 3, from, exc, to);
  CHECK(to[0] == 2 && to[1] == MPI_PROC_NULL && to[2] == MPI_UNDEFINED, "translate: %d %d %d", to[0], to[1],
        to[2]);

  /* compare */
  int result;
  MPI_Group_compare(world, world, &result);
  CHECK(result == MPI_IDENT, "compare world world %d", result);
  MPI_Group_compare(world, un, &result);
  CHECK(result == MPI_SIMILAR, "compare world union %d", result);
  MPI_Group_compare(inc, exc, &result);
  CHECK(result == MPI_UNEQUAL, "compare incl excl %d", result);
  MPI_Group again;
  MPI_Group_incl(world, 3, pick, &again);
  MPI_Group_compare(inc, again, &result);
  CHECK(result == MPI_IDENT, "compare equal groups %d", result);

  /* empty results are MPI_GROUP_EMPTY */
  MPI_Group empty;
  MPI_Group_difference(inc, inc, &empty);
  CHECK(empty == MPI_GROUP_EMPTY && group_size(empty) == 0, "empty difference");
  MPI_Group_rank(MPI_GROUP_EMPTY, &r);
  CHECK(r == MPI_UNDEFINED, "rank in MPI_GROUP_EMPTY %d", r);
  MPI_Group_incl(world, 0, pick, &empty);
  CHECK(empty == MPI_GROUP_EMPTY, "incl of nothing");

  MPI_Group* all[] = {&world, &inc, &exc, &rin, &rex, &un, &in, &df, &again};
  for (unsigned i = 0; i < sizeof all / sizeof all[0]; ++i) {
    MPI_Group_free(all[i]);
    CHECK(*all[i] == MPI_GROUP_NULL, "group %u not reset by free", i);
  }
  finish("comm_group");
  MPI_Finalize();
  return 0;
}

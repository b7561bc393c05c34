/* Communicator constructors on 6 ranks (2 per host): MPI_Comm_split by
 * color with the key reversing the order, MPI_UNDEFINED, context
 * separation of split communicators from MPI_COMM_WORLD, MPI_Comm_compare,
 * MPI_Comm_create and MPI_Comm_create_group, MPI_Comm_split_type
 * (MPI_COMM_TYPE_SHARED groups the ranks of a host), MPI_Comm_idup, names,
 * and many dup/free cycles and live communicators. */
#include "check.h"

#include <string.h>

static void split_by_color(int rank, int size)
{
  /* color rank % 3, key -rank: each color's ranks in decreasing world rank */
  MPI_Comm c;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 3, -rank, &c);
  int csize, crank;
  MPI_Comm_size(c, &csize);
  MPI_Comm_rank(c, &crank);
  int members = (size - rank % 3 + 2) / 3;
  CHECK(csize == members, "split size %d, expected %d", csize, members);
  /* ranks of this color in decreasing order: rank r is at position (last - r) / 3 */
  int last = rank % 3 + 3 * (members - 1);
  CHECK(crank == (last - rank) / 3, "split rank %d, expected %d", crank, (last - rank) / 3);

  /* translate all ranks of c to MPI_COMM_WORLD */
  MPI_Group cg, wg;
  MPI_Comm_group(c, &cg);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  int in[6], out[6];
  for (int i = 0; i < csize; ++i)
    in[i] = i;
  MPI_Group_translate_ranks(cg, csize, in, wg, out);
  for (int i = 0; i < csize; ++i)
    CHECK(out[i] == last - 3 * i, "member %d of the split is world rank %d", i, out[i]);
  MPI_Group_free(&cg);
  MPI_Group_free(&wg);

  /* Messages on c and on MPI_COMM_WORLD with the same peer and tag do not
   * mix: send on WORLD first, receive on c first. */
  if (csize > 1) {
    int right = (crank + 1) % csize, left = (crank + csize - 1) % csize;
    int right_world = last - 3 * right, left_world = last - 3 * left;
    int w = 1000 + rank, s = 2000 + rank, rw = -1, rs = -1;
    MPI_Request reqs[2];
    MPI_Isend(&w, 1, MPI_INT, right_world, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(&s, 1, MPI_INT, right, 7, c, &reqs[1]);
    MPI_Recv(&rs, 1, MPI_INT, left, 7, c, MPI_STATUS_IGNORE);
    MPI_Recv(&rw, 1, MPI_INT, left_world, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Status sts[2];
    MPI_Waitall(2, reqs, sts);
    CHECK(rs == 2000 + left_world && rw == 1000 + left_world, "contexts mixed: %d %d", rs, rw);
  }

  /* compare */
  int result;
  MPI_Comm_compare(c, c, &result);
  CHECK(result == MPI_IDENT, "compare with itself %d", result);
  MPI_Comm_compare(c, MPI_COMM_WORLD, &result);
  CHECK(result == MPI_UNEQUAL, "compare with world %d", result);
  MPI_Comm_free(&c);
  CHECK(c == MPI_COMM_NULL, "MPI_Comm_free did not reset the handle");

  /* one color, reversed keys: same members, other order */
  MPI_Comm rev;
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
  MPI_Comm_rank(rev, &crank);
  CHECK(crank == size - 1 - rank, "reversed rank %d", crank);
  MPI_Comm_compare(rev, MPI_COMM_WORLD, &result);
  CHECK(result == MPI_SIMILAR, "compare reversed with world %d", result);
  MPI_Comm_free(&rev);

  /* MPI_UNDEFINED gives MPI_COMM_NULL */
  MPI_Comm some;
  MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 5 : MPI_UNDEFINED, 0, &some);
  if (rank < 2) {
    MPI_Comm_size(some, &csize);
    CHECK(csize == 2, "color 5 size %d", csize);
    MPI_Comm_free(&some);
  } else {
    CHECK(some == MPI_COMM_NULL, "undefined color gave a communicator");
  }
}

static void dup_and_compare(int rank, int size)
{
  MPI_Comm d;
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  int result, dsize, drank;
  MPI_Comm_compare(d, MPI_COMM_WORLD, &result);
  CHECK(result == MPI_CONGRUENT, "compare dup with world %d", result);
  MPI_Comm_size(d, &dsize);
  MPI_Comm_rank(d, &drank);
  CHECK(dsize == size && drank == rank, "dup size %d rank %d", dsize, drank);
  int flag = -1;
  MPI_Comm_test_inter(d, &flag);
  CHECK(flag == 0, "test_inter %d", flag);

  /* names */
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
  CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14, "world name \"%s\" (%d)", name, len);
  MPI_Comm_get_name(d, name, &len);
  CHECK(len == 0 && name[0] == 0, "dup name \"%s\"", name);
  MPI_Comm_set_name(d, "my dup");
  MPI_Comm_get_name(d, name, &len);
  CHECK(strcmp(name, "my dup") == 0 && len == 6, "set name \"%s\"", name);

  /* a dup of the dup, then an allreduce on each */
  MPI_Comm dd;
  MPI_Comm_dup(d, &dd);
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dd);
  CHECK(sum == size, "allreduce on a dup of a dup %d", sum);
  MPI_Comm_free(&dd);

  /* idup completes; the request is waited */
  MPI_Comm id;
  MPI_Request req;
  MPI_Comm_idup(d, &id, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  CHECK(req == MPI_REQUEST_NULL, "idup request not freed");
  MPI_Comm_compare(id, d, &result);
  CHECK(result == MPI_CONGRUENT, "compare idup %d", result);
  MPI_Barrier(id);
  MPI_Comm_free(&id);
  MPI_Comm_free(&d);

  /* idup does not wait for the other members: rank 0 first receives a
   * synchronous send from every other rank, which they make after their
   * idup (MPICH's comm_idup pattern). */
  MPI_Comm late;
  MPI_Request late_req;
  int token = rank;
  if (rank == 0) {
    for (int i = 1; i < size; ++i)
      MPI_Recv(&token, 1, MPI_INT, i, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Comm_idup(MPI_COMM_WORLD, &late, &late_req);
  } else {
    MPI_Comm_idup(MPI_COMM_WORLD, &late, &late_req);
    MPI_Ssend(&token, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
  }
  MPI_Wait(&late_req, MPI_STATUS_IGNORE);
  int lsum = 0;
  MPI_Allreduce(&token, &lsum, 1, MPI_INT, MPI_SUM, late);
  /* rank 0's token is the last one it received (size - 1) */
  CHECK(lsum == (size - 1) + size * (size - 1) / 2, "allreduce on a late idup %d", lsum);
  MPI_Comm_free(&late);

  /* Many dup/free cycles, and many communicators alive at once. */
  for (int i = 0; i < 5000; ++i) {
    MPI_Comm t;
    MPI_Comm_dup(MPI_COMM_WORLD, &t);
    MPI_Comm_free(&t);
  }
  MPI_Comm many[100];
  for (int i = 0; i < 100; ++i)
    MPI_Comm_dup(i == 0 ? MPI_COMM_WORLD : many[i - 1], &many[i]);
  int v = rank, total = 0;
  MPI_Allreduce(&v, &total, 1, MPI_INT, MPI_SUM, many[99]);
  CHECK(total == size * (size - 1) / 2, "allreduce on the 100th dup %d", total);
  for (int i = 99; i >= 0; --i)
    MPI_Comm_free(&many[i]);
}

static void create(int rank, int size)
{
  MPI_Group world, evens, odds;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int range[1][3] = {{0, size - 1, 2}};
  MPI_Group_range_incl(world, 1, range, &evens);
  MPI_Group_difference(world, evens, &odds);

  /* MPI_Comm_create: collective over MPI_COMM_WORLD */
  MPI_Comm ce;
  MPI_Comm_create(MPI_COMM_WORLD, evens, &ce);
  if (rank % 2 == 0) {
    int r, s;
    MPI_Comm_rank(ce, &r);
    MPI_Comm_size(ce, &s);
    CHECK(r == rank / 2 && s == (size + 1) / 2, "create: rank %d size %d", r, s);
    int x = rank, m = -1;
    MPI_Allreduce(&x, &m, 1, MPI_INT, MPI_MAX, ce);
    CHECK(m == 2 * ((size - 1) / 2), "create: max %d", m);
    MPI_Comm_free(&ce);
  } else {
    CHECK(ce == MPI_COMM_NULL, "create gave a communicator to a non-member");
  }

  /* MPI_Comm_create_group: only the odd ranks take part */
  if (rank % 2 == 1) {
    MPI_Comm co;
    MPI_Comm_create_group(MPI_COMM_WORLD, odds, 42, &co);
    int r, s;
    MPI_Comm_rank(co, &r);
    MPI_Comm_size(co, &s);
    CHECK(r == rank / 2 && s == size / 2, "create_group: rank %d size %d", r, s);
    int x = 1, n = 0;
    MPI_Allreduce(&x, &n, 1, MPI_INT, MPI_SUM, co);
    CHECK(n == size / 2, "create_group: sum %d", n);
    MPI_Comm_free(&co);
  }
  MPI_Group_free(&world);
  MPI_Group_free(&evens);
  MPI_Group_free(&odds);
  MPI_Barrier(MPI_COMM_WORLD);
}

static void split_type(int rank)
{
  /* run with 2 ranks per node: ranks 2k and 2k+1 share a host */
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int r, s;
  MPI_Comm_rank(node, &r);
  MPI_Comm_size(node, &s);
  CHECK(s == 2 && r == rank % 2, "split_type shared: rank %d size %d", r, s);
  int peer = -1, mine = rank;
  MPI_Sendrecv(&mine, 1, MPI_INT, 1 - r, 0, &peer, 1, MPI_INT, 1 - r, 0, node, MPI_STATUS_IGNORE);
  CHECK(peer == (rank ^ 1), "node peer %d", peer);
  MPI_Comm_free(&node);
  MPI_Comm none;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, rank, MPI_INFO_NULL, &none);
  CHECK(none == MPI_COMM_NULL, "split_type MPI_UNDEFINED gave a communicator");
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 6) {
    if (rank == 0)
      printf("run with 6 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  split_by_color(rank, size);
  dup_and_compare(rank, size);
  create(rank, size);
  split_type(rank);
  finish("comm_split");
  MPI_Finalize();
  return 0;
}

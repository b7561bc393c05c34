/* Exercises every one-sided call the trace recorder records (issue 19, trace
 * format version 2), for record -> replay round trips: windows of every
 * flavor (MPI_Win_create with a displacement unit of 8, MPI_Win_allocate,
 * MPI_Win_allocate_shared, MPI_Win_create_dynamic with MPI_Win_attach and
 * MPI_Win_detach, the address sent by MPI_Allgather), put and get with a
 * derived (strided) target datatype and a 1 MiB put, the accumulates,
 * MPI_Get_accumulate with MPI_NO_OP, MPI_Fetch_and_op, MPI_Compare_and_swap,
 * the request-based forms, fences with asserts, PSCW with groups and an
 * MPI_Win_test loop, MPI_Win_lock (exclusive and shared) and
 * MPI_Win_lock_all, every flush and MPI_Win_sync, computation between the
 * calls. Checks the data it moves; prints "trace_rma ok" per rank. Needs
 * 4 ranks on one node (the shared window). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG (1 << 17) /* doubles: 1 MiB */

static int errors;
static void expect(int ok, const char* what, int rank)
{
  if (!ok) {
    printf("rank %d: wrong %s\n", rank, what);
    ++errors;
  }
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;

  /* MPI_Win_create, displacement unit 8: fence epochs. */
  double* mem = calloc(BIG + 64, sizeof(double));
  MPI_Win win;
  MPI_Win_create(mem, (MPI_Aint)(BIG + 64) * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  double four[4] = {rank, rank, rank, rank};
  MPI_Datatype strided; /* 4 doubles, every other one: starts at its displacement */
  MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &strided);
  MPI_Type_commit(&strided);
  MPI_Put(four, 4, MPI_DOUBLE, right, 8, 1, strided, win);
  MPI_Accumulate(four, 4, MPI_DOUBLE, right, 32, 4, MPI_DOUBLE, MPI_SUM, win);
  progsim_compute(0.0001);
  MPI_Win_fence(0, win);
  expect(mem[8] == left && mem[14] == left && mem[9] == 0 && mem[32] == left, "fence put/accumulate", rank);
  double* big = calloc(BIG, sizeof(double));
  double got[4];
  if (rank == 0)
    MPI_Put(big, BIG, MPI_DOUBLE, 1, 64, BIG, MPI_DOUBLE, win);
  MPI_Get(got, 4, MPI_DOUBLE, left, 8, 1, strided, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  expect(got[0] == (left + size - 1) % size, "get", rank);

  /* PSCW: rank r exposes to r-1, accesses r+1; a MPI_Win_test loop. */
  MPI_Group world_group, to, from;
  MPI_Win_get_group(win, &world_group);
  MPI_Group_incl(world_group, 1, &right, &to);
  MPI_Group_incl(world_group, 1, &left, &from);
  MPI_Win_post(from, 0, win);
  MPI_Win_start(to, 0, win);
  MPI_Put(four, 1, MPI_DOUBLE, right, 40, 1, MPI_DOUBLE, win);
  MPI_Win_complete(win);
  int flag = 0, tests = 0;
  while (!flag && tests < 100000) {
    MPI_Win_test(win, &flag);
    ++tests;
  }
  if (!flag)
    MPI_Win_wait(win);
  expect(mem[40] == left, "PSCW put", rank);
  MPI_Win_post(from, 0, win);
  MPI_Win_start(to, 0, win);
  MPI_Win_complete(win);
  MPI_Win_wait(win);
  MPI_Group_free(&to);
  MPI_Group_free(&from);
  MPI_Group_free(&world_group);

  /* Passive target: exclusive and shared locks, the request-based forms. */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
  double one = 1, old = 0, compare = -1;
  MPI_Fetch_and_op(&one, &old, MPI_DOUBLE, 0, 48, MPI_SUM, win);
  MPI_Win_flush(0, win);
  MPI_Compare_and_swap(&one, &compare, &old, MPI_DOUBLE, 0, 49, win);
  MPI_Win_unlock(0, win);
  MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
  MPI_Request reqs[4];
  double r1[4], r2[4];
  MPI_Rput(four, 4, MPI_DOUBLE, right, 50, 4, MPI_DOUBLE, win, &reqs[0]);
  MPI_Rget(r1, 4, MPI_DOUBLE, right, 8, 1, strided, win, &reqs[1]);
  MPI_Raccumulate(four, 4, MPI_DOUBLE, right, 60, 4, MPI_DOUBLE, MPI_MAX, win, &reqs[2]);
  MPI_Rget_accumulate(NULL, 0, MPI_DOUBLE, r2, 4, MPI_DOUBLE, right, 60, 4, MPI_DOUBLE, MPI_NO_OP, win, &reqs[3]);
  MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
  MPI_Win_flush_local(right, win);
  MPI_Win_unlock(right, win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    expect(mem[48] == size, "fetch_and_op", rank);
  MPI_Win_free(&win);
  MPI_Type_free(&strided);
  free(big);
  free(mem);

  /* MPI_Win_allocate: lock_all epoch with flushes. */
  long* cells;
  MPI_Win_allocate(16 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &cells, &win);
  MPI_Win_lock_all(0, win);
  long add = 1, before = 0;
  MPI_Accumulate(&add, 1, MPI_LONG, right, 3, 1, MPI_LONG, MPI_SUM, win);
  MPI_Win_flush_all(win);
  MPI_Get_accumulate(&add, 1, MPI_LONG, &before, 1, MPI_LONG, left, 4, 1, MPI_LONG, MPI_SUM, win);
  MPI_Win_flush_local_all(win);
  MPI_Win_sync(win);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
  expect(cells[3] == 1 && cells[4] == 1, "allocate accumulates", rank);
  MPI_Win_unlock(rank, win);
  MPI_Win_free(&win);

  /* MPI_Win_allocate_shared on the node: a fence epoch. */
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int* shared;
  MPI_Win_allocate_shared(64 * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &shared, &win);
  MPI_Win_fence(0, win);
  int value = 100 + rank, node_rank, node_size;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size);
  MPI_Put(&value, 1, MPI_INT, (node_rank + 1) % node_size, 5, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);

  /* A dynamic window: each rank attaches two regions and puts into its
   * right neighbour's second one, at the address it was sent. */
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  char* first = calloc(256, 1);
  char* second = calloc(4096, 1);
  MPI_Win_attach(win, first, 256);
  MPI_Win_attach(win, second, 4096);
  MPI_Aint mine, addresses[64];
  MPI_Get_address(second + 100, &mine);
  MPI_Allgather(&mine, 1, MPI_AINT, addresses, 1, MPI_AINT, MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
  char bytes[1000];
  for (int i = 0; i < 1000; ++i)
    bytes[i] = (char)(rank + 1);
  MPI_Put(bytes, 1000, MPI_CHAR, right, addresses[right], 1000, MPI_CHAR, win);
  MPI_Win_unlock(right, win);
  MPI_Barrier(MPI_COMM_WORLD);
  expect(second[100] == (char)(left + 1) && second[1099] == (char)(left + 1), "dynamic put", rank);
  MPI_Win_detach(win, first);
  MPI_Win_detach(win, second);
  MPI_Win_free(&win);
  free(first);
  free(second);

  if (!errors)
    printf("rank %d: trace_rma ok\n", rank);
  MPI_Finalize();
  return 0;
}

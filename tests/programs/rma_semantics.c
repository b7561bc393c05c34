/* One-sided communication semantics (MPI-4.1 chapter 12) on N ranks, under
 * any progress policy: every window flavor, fence/PSCW/passive-target
 * epochs, put/get/accumulate with derived datatypes, fetching atomics,
 * request-based operations, window attributes and errors. Ring pattern:
 * each rank works on its right neighbour. Run with all ranks on one host
 * (--ranks-per-node N) for the shared-memory window part. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

static int rank, size, right, left;

static void fence_put_get_accumulate(void)
{
  int* base;
  MPI_Win win;
  MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  for (int i = 0; i < 8; ++i)
    base[i] = -1;
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  /* A strided put: elements 0, 2, 4, 6 of the target get rank*10 + i. */
  int data[4] = {rank * 10, rank * 10 + 1, rank * 10 + 2, rank * 10 + 3};
  MPI_Datatype stride2;
  MPI_Type_vector(4, 1, 2, MPI_INT, &stride2);
  MPI_Type_commit(&stride2);
  MPI_Put(data, 4, MPI_INT, right, 0, 1, stride2, win);
  MPI_Win_fence(0, win);
  for (int i = 0; i < 4; ++i)
    CHECK(base[2 * i] == left * 10 + i && (i == 0 || base[2 * i + 1] == -1), "fence put: base[%d]=%d", 2 * i,
          base[2 * i]);
  /* Everyone adds its rank+1 to element 1 of rank 0: sum over ranks. */
  int one = rank + 1;
  MPI_Accumulate(&one, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win);
  /* Accumulates of no data (a zero-size datatype, as MPICH's badrma) do nothing. */
  MPI_Datatype empty;
  MPI_Type_contiguous(0, MPI_INT, &empty);
  MPI_Type_commit(&empty);
  int ignored = 0;
  MPI_Accumulate(&one, 1, empty, 0, 1, 1, empty, MPI_SUM, win);
  MPI_Get_accumulate(&one, 1, empty, &ignored, 1, empty, 0, 1, 1, empty, MPI_SUM, win);
  MPI_Type_free(&empty);
  int got[4] = {0};
  MPI_Get(got, 4, MPI_INT, right, 0, 1, stride2, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  if (rank == 0)
    CHECK(base[1] == -1 + size * (size + 1) / 2, "accumulate: %d", base[1]);
  /* The get read the right neighbour's elements 0,2,4,6: what this rank put there. */
  CHECK(got[0] == rank * 10 && got[3] == rank * 10 + 3, "get: %d %d", got[0], got[3]);
  int flag;
  int* model;
  MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
  CHECK(flag && *model == MPI_WIN_UNIFIED, "MPI_WIN_MODEL");
  int* flavor;
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
  CHECK(flag && *flavor == MPI_WIN_FLAVOR_ALLOCATE, "flavor %d", *flavor);
  MPI_Aint* wsize;
  MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flag);
  CHECK(flag && *wsize == 8 * (MPI_Aint)sizeof(int), "size");
  void* wbase;
  MPI_Win_get_attr(win, MPI_WIN_BASE, &wbase, &flag);
  CHECK(flag && wbase == base, "base");
  MPI_Type_free(&stride2);
  MPI_Win_free(&win);
}

static void pscw_ring(void)
{
  double window[2] = {0, 0};
  MPI_Win win;
  MPI_Win_create(window, sizeof window, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Group world, to, from;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &right, &to);
  MPI_Group_incl(world, 1, &left, &from);
  for (int round = 1; round <= 3; ++round) {
    MPI_Win_post(from, 0, win);
    MPI_Win_start(to, 0, win);
    double v = rank + 0.5 * round;
    MPI_Put(&v, 1, MPI_DOUBLE, right, round % 2, 1, MPI_DOUBLE, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    CHECK(window[round % 2] == left + 0.5 * round, "pscw round %d: %g", round, window[round % 2]);
  }
  MPI_Group_free(&to);
  MPI_Group_free(&from);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
}

static void passive_atomics(void)
{
  long counter = 0;
  MPI_Win win;
  MPI_Win_create(&counter, sizeof counter, sizeof counter, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Barrier(MPI_COMM_WORLD);
  /* Each rank increments rank 0's counter 3 times with fetch-and-op. */
  long old[3], one = 1;
  for (int i = 0; i < 3; ++i) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Fetch_and_op(&one, &old[i], MPI_LONG, 0, 0, MPI_SUM, win);
    MPI_Win_unlock(0, win);
  }
  CHECK(old[0] < old[1] && old[1] < old[2], "fetch_and_op is atomic: %ld %ld %ld", old[0], old[1], old[2]);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    CHECK(counter == 3 * size, "counter %ld", counter);
  MPI_Barrier(MPI_COMM_WORLD); /* nobody swaps before rank 0 looked */
  /* Compare-and-swap: only one rank wins 3*size -> -1. */
  long expect = 3 * size, minus = -1, result = 0;
  MPI_Win_lock_all(0, win);
  MPI_Compare_and_swap(&minus, &expect, &result, MPI_LONG, 0, 0, win);
  MPI_Win_flush(0, win);
  MPI_Win_unlock_all(win);
  int won = result == 3 * size, winners = 0;
  MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(winners == 1, "compare_and_swap winners %d", winners);
  /* Request-based get-accumulate under a shared lock. */
  MPI_Request r;
  long before = 0, add = 10;
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  MPI_Rget_accumulate(&add, 1, MPI_LONG, &before, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Win_unlock(0, win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    CHECK(counter == -1 + 10 * size, "rget_accumulate: %ld", counter);
  MPI_Win_free(&win);
}

static void dynamic_and_requests(void)
{
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int* mem = calloc(4, sizeof(int));
  /* Two adjacent regions: the put and get below span both. */
  MPI_Win_attach(win, mem, 2 * sizeof(int));
  MPI_Win_attach(win, mem + 2, 2 * sizeof(int));
  MPI_Aint mine, theirs;
  MPI_Get_address(mem, &mine);
  MPI_Sendrecv(&mine, 1, MPI_AINT, left, 0, &theirs, 1, MPI_AINT, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int v[2] = {rank, rank * rank};
  MPI_Request reqs[2];
  MPI_Win_lock_all(0, win);
  MPI_Rput(v, 2, MPI_INT, right, theirs + (MPI_Aint)sizeof(int), 2, MPI_INT, win, &reqs[0]);
  MPI_Waitall(1, reqs, MPI_STATUSES_IGNORE);
  MPI_Win_flush_all(win);
  int back[2] = {0, 0};
  MPI_Rget(back, 2, MPI_INT, right, theirs + (MPI_Aint)sizeof(int), 2, MPI_INT, win, &reqs[1]);
  MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
  MPI_Win_unlock_all(win);
  CHECK(back[0] == rank && back[1] == rank * rank, "rget after rput: %d %d", back[0], back[1]);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(mem[1] == left && mem[2] == left * left, "dynamic: %d %d", mem[1], mem[2]);
  MPI_Win_detach(win, mem);
  MPI_Win_detach(win, mem + 2);
  MPI_Win_free(&win);
  free(mem);
}

static void shared_window(void)
{
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int nsize;
  MPI_Comm_size(node, &nsize);
  CHECK(nsize == size, "all ranks on one host: %d of %d", nsize, size);
  int* mine;
  MPI_Win win;
  MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &win);
  *mine = 100 + rank;
  MPI_Win_fence(0, win);
  MPI_Aint qsize;
  int unit;
  int* theirs;
  MPI_Win_shared_query(win, right, &qsize, &unit, &theirs);
  CHECK(qsize == sizeof(int) && unit == sizeof(int) && *theirs == 100 + right, "shared query: %d", *theirs);
  CHECK(theirs == mine + (right - rank), "contiguous parts");
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
}

static void errors_and_names(void)
{
  int x = 0;
  MPI_Win win;
  MPI_Win_create(&x, sizeof x, sizeof x, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  int err, cls;
  if (rank == 0) {  /* erroneous (MPI-4.1 §12.5): the run is, by one error */
    err = MPI_Put(&x, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_RMA_SYNC, "put outside an epoch: %d", cls);
  }
  MPI_Win_fence(0, win);
  err = MPI_Put(&x, 2, MPI_INT, right, 0, 2, MPI_INT, win);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_RMA_RANGE, "put beyond the window: %d", cls);
  MPI_Win_fence(0, win);
  MPI_Win_set_name(win, "ring window");
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Win_get_name(win, name, &len);
  CHECK(strcmp(name, "ring window") == 0 && len == 11, "name %s", name);
  MPI_Group g;
  MPI_Win_get_group(win, &g);
  int gsize;
  MPI_Group_size(g, &gsize);
  CHECK(gsize == size, "group size %d", gsize);
  MPI_Group_free(&g);
  int keyval, flag;
  int value = 42;
  int* got;
  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &keyval, NULL);
  MPI_Win_set_attr(win, keyval, &value);
  MPI_Win_get_attr(win, keyval, &got, &flag);
  CHECK(flag && *got == 42, "attribute");
  MPI_Win_free_keyval(&keyval);
  MPI_Win_free(&win);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  fence_put_get_accumulate();
  pscw_ring();
  passive_atomics();
  dynamic_and_requests();
  shared_window();
  errors_and_names();
  finish("rma_semantics");
  MPI_Finalize();
  return 0;
}

/* RMA accesses that span adjacent attached regions of a dynamic window
 * (MPI-4.1 §12.2.4: the target data only has to lie in attached memory, as
 * MPICH's win_dynamic_rma_flush_get has Put, Accumulate and Get_accumulate
 * do), in every form the trace format records (issue 19, branch
 * issue19-rmart): each rank attaches memory in pieces and in every order
 * (after a region, before one, joining two, detached and attached again),
 * and its left neighbour accumulates, fetches, swaps, puts and gets across
 * the seams, also through a strided target datatype. Ring pattern, N ranks. */
#include "check.h"

#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size;

  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int* mem = calloc(16, sizeof(int));  /* regions A [0,4) B [4,8) C [8,12) D [12,16) */
  int* mem2 = calloc(8, sizeof(int));  /* regions F [0,4) E [4,8) */
  const MPI_Aint four = 4 * sizeof(int);
  MPI_Win_attach(win, mem, four);       /* A */
  MPI_Win_attach(win, mem + 4, four);   /* B: after A */
  MPI_Win_attach(win, mem + 12, four);  /* D: apart */
  MPI_Win_attach(win, mem + 8, four);   /* C: after B and before D, joining them */
  MPI_Win_attach(win, mem2 + 4, four);  /* E */
  MPI_Win_attach(win, mem2, four);      /* F: before E */
  MPI_Aint mine[2], theirs[2];
  MPI_Get_address(mem, &mine[0]);
  MPI_Get_address(mem2, &mine[1]);
  MPI_Sendrecv(mine, 2, MPI_AINT, (rank + size - 1) % size, 0, theirs, 2, MPI_AINT, right, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
#define AT(base, i) ((base) + (MPI_Aint)((i) * sizeof(int)))

  int ones[4] = {1, 1, 1, 1}, tens[4] = {10, 10, 10, 10}, hundreds[4] = {100, 100, 100, 100};
  int thousands[2] = {1000, 1000}, twos[3] = {2, 2, 2};
  int got4[4] = {-1, -1, -1, -1}, got2[2] = {-1, -1}, fetched = -1, swapped = -1, five = 5, seven = 7, ten = 10;
  MPI_Request r;
  MPI_Win_lock_all(0, win);
  MPI_Accumulate(ones, 4, MPI_INT, right, AT(theirs[0], 2), 4, MPI_INT, MPI_SUM, win);  /* A|B */
  MPI_Win_flush(right, win);
  MPI_Get_accumulate(tens, 4, MPI_INT, got4, 4, MPI_INT, right, AT(theirs[0], 6), 4, MPI_INT, MPI_SUM, win);  /* B|C */
  MPI_Win_flush(right, win);
  MPI_Raccumulate(hundreds, 4, MPI_INT, right, AT(theirs[0], 10), 4, MPI_INT, MPI_SUM, win, &r);  /* C|D */
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Rget_accumulate(thousands, 2, MPI_INT, got2, 2, MPI_INT, right, AT(theirs[1], 3), 2, MPI_INT, MPI_SUM, win,
                      &r);  /* F|E */
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Win_flush(right, win);
  MPI_Fetch_and_op(&five, &fetched, MPI_INT, right, AT(theirs[0], 4), MPI_SUM, win);  /* B's first */
  MPI_Win_flush(right, win);
  MPI_Compare_and_swap(&seven, &ten, &swapped, MPI_INT, right, AT(theirs[0], 8), win);  /* C's first */
  MPI_Win_flush(right, win);
  /* Elements 1, 3, 5 of the target: a strided accumulate across A|B. */
  MPI_Datatype stride2;
  MPI_Type_vector(3, 1, 2, MPI_INT, &stride2);
  MPI_Type_commit(&stride2);
  MPI_Accumulate(twos, 3, MPI_INT, right, AT(theirs[0], 1), 1, stride2, MPI_SUM, win);
  MPI_Type_free(&stride2);
  MPI_Win_unlock_all(win);
  CHECK(got4[0] == 0 && got4[3] == 0, "get_accumulate fetched %d %d", got4[0], got4[3]);
  CHECK(got2[0] == 0 && got2[1] == 0, "rget_accumulate fetched %d %d", got2[0], got2[1]);
  CHECK(fetched == 1, "fetch_and_op fetched %d", fetched);
  CHECK(swapped == 10, "compare_and_swap fetched %d", swapped);
  MPI_Barrier(MPI_COMM_WORLD);
  const int expected[16] = {0, 2, 1, 3, 6, 3, 10, 10, 7, 10, 100, 100, 100, 100, 0, 0};
  for (int i = 0; i < 16; ++i)
    CHECK(mem[i] == expected[i], "mem[%d] = %d, not %d", i, mem[i], expected[i]);
  CHECK(mem2[2] == 0 && mem2[3] == 1000 && mem2[4] == 1000 && mem2[5] == 0, "mem2 %d %d %d %d", mem2[2], mem2[3],
        mem2[4], mem2[5]);

  /* B detached and attached again, between A and C still attached: a put
   * and a get across all four regions. */
  MPI_Win_detach(win, mem + 4);
  MPI_Win_attach(win, mem + 4, four);
  MPI_Barrier(MPI_COMM_WORLD);
  int out[12], back[12];
  for (int i = 0; i < 12; ++i)
    out[i] = rank * 100 + i;
  MPI_Win_lock_all(0, win);
  MPI_Put(out, 12, MPI_INT, right, AT(theirs[0], 2), 12, MPI_INT, win);
  MPI_Win_flush(right, win);
  MPI_Get(back, 12, MPI_INT, right, AT(theirs[0], 2), 12, MPI_INT, win);
  MPI_Win_unlock_all(win);
  for (int i = 0; i < 12; ++i)
    CHECK(back[i] == out[i], "get after put: back[%d] = %d", i, back[i]);
  MPI_Barrier(MPI_COMM_WORLD);
  int left = (rank + size - 1) % size;
  CHECK(mem[2] == left * 100 && mem[13] == left * 100 + 11, "put landed: %d %d", mem[2], mem[13]);

  for (int i = 0; i < 4; ++i)
    MPI_Win_detach(win, mem + 4 * i);
  MPI_Win_detach(win, mem2);
  MPI_Win_detach(win, mem2 + 4);
  MPI_Win_free(&win);
  free(mem);
  free(mem2);
  finish("rma_dynamic_span");
  MPI_Finalize();
  return 0;
}

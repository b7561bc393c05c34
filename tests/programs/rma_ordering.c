/* Order in which a target applies the operations of one origin (2 ranks,
 * rank 0 is the origin, rank 1 the target).
 *
 * Accumulates of one origin to one location are ordered by default
 * (accumulate_ordering "rar,raw,war,waw", MPI-4.1 §12.2.1, §12.7.2), even
 * when a small one would overtake a large one on the network, or two equal
 * transfers end at the same instant. progsim applies puts in issue order
 * too (an implementation choice: docs/design/rma.md), which MPICH's
 * overlap_wins_put test relies on. */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

enum { kLarge = 8192, kFetches = 16 };

static int rank;

/* A large REPLACE accumulate, then two small ones over its first elements. */
static void large_then_small_accumulates(MPI_Win win, uint64_t* base)
{
  MPI_Win_fence(0, win);
  if (rank == 0) {
    uint64_t* ones = malloc(kLarge * sizeof(uint64_t));
    for (int i = 0; i < kLarge; ++i)
      ones[i] = 1;
    uint64_t two = 2, threes[2] = {3, 3};
    MPI_Accumulate(ones, kLarge, MPI_UINT64_T, 1, 0, kLarge, MPI_UINT64_T, MPI_REPLACE, win);
    MPI_Accumulate(&two, 1, MPI_UINT64_T, 1, 0, 1, MPI_UINT64_T, MPI_REPLACE, win);
    MPI_Accumulate(threes, 2, MPI_UINT64_T, 1, 1, 2, MPI_UINT64_T, MPI_REPLACE, win);
    MPI_Win_fence(0, win);
    free(ones);
  } else {
    MPI_Win_fence(0, win);
    int wrong = 0;
    for (int i = 0; i < kLarge; ++i)
      wrong += base[i] != (i == 0 ? 2u : i <= 2 ? 3u : 1u);
    CHECK(wrong == 0, "large then small accumulates: %d wrong, base[0..3] = %llu %llu %llu %llu", wrong,
          (unsigned long long)base[0], (unsigned long long)base[1], (unsigned long long)base[2],
          (unsigned long long)base[3]);
  }
}

/* Two equal REPLACE accumulates and two equal puts to one location in one
 * epoch: the later one's value stays. */
static void equal_operations(MPI_Win win, uint64_t* base)
{
  MPI_Win_fence(0, win);
  if (rank == 0) {
    uint64_t first = 10, second = 11, third = 20, fourth = 21;
    MPI_Accumulate(&first, 1, MPI_UINT64_T, 1, 0, 1, MPI_UINT64_T, MPI_REPLACE, win);
    MPI_Accumulate(&second, 1, MPI_UINT64_T, 1, 0, 1, MPI_UINT64_T, MPI_REPLACE, win);
    MPI_Put(&third, 1, MPI_UINT64_T, 1, 1, 1, MPI_UINT64_T, win);
    MPI_Put(&fourth, 1, MPI_UINT64_T, 1, 1, 1, MPI_UINT64_T, win);
  }
  MPI_Win_fence(0, win);
  if (rank == 1) {
    CHECK(base[0] == 11, "two accumulates: base[0] = %llu, expected 11", (unsigned long long)base[0]);
    CHECK(base[1] == 21, "two puts: base[1] = %llu, expected 21", (unsigned long long)base[1]);
  }
}

/* Fetch-and-op increments without a flush in between, in a passive epoch:
 * each one reads what the previous one wrote (raw ordering). */
static void fetch_and_op_sequence(MPI_Win win, uint64_t* base)
{
  if (rank == 1)
    base[0] = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    uint64_t one = 1, fetched[kFetches];
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    for (int i = 0; i < kFetches; ++i)
      MPI_Fetch_and_op(&one, &fetched[i], MPI_UINT64_T, 1, 0, MPI_SUM, win);
    MPI_Win_unlock(1, win);
    int wrong = 0;
    for (int i = 0; i < kFetches; ++i)
      wrong += fetched[i] != (uint64_t)i;
    CHECK(wrong == 0, "fetch-and-op sequence: %d of %d fetched values wrong (first %llu, last %llu)", wrong,
          kFetches, (unsigned long long)fetched[0], (unsigned long long)fetched[kFetches - 1]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1)
    CHECK(base[0] == kFetches, "fetch-and-op total %llu", (unsigned long long)base[0]);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  uint64_t* base = calloc(kLarge, sizeof(uint64_t));
  MPI_Win win;
  MPI_Win_create(base, kLarge * sizeof(uint64_t), sizeof(uint64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  large_then_small_accumulates(win, base);
  equal_operations(win, base);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  fetch_and_op_sequence(win, base);
  MPI_Win_free(&win);
  free(base);
  finish("rma_ordering");
  MPI_Finalize();
  return 0;
}

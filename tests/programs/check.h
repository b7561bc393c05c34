/* Checks shared by the test programs: CHECK counts failures and
 * prints them; finish() prints "rank R: NAME ok (N checks)" when none
 * failed, else aborts with exit code 1. */
#ifndef PROGSIM_TEST_CHECK_H
#define PROGSIM_TEST_CHECK_H

#include <mpi.h>
#include <stdio.h>

static int checks_run = 0;
static int checks_failed = 0;

#define CHECK(cond, ...)                                                  \
  do {                                                                    \
    ++checks_run;                                                         \
    if (!(cond)) {                                                        \
      ++checks_failed;                                                    \
      int r_ = -1;                                                        \
      MPI_Comm_rank(MPI_COMM_WORLD, &r_);                                 \
      printf("rank %d: FAILED %s:%d: %s: ", r_, __FILE__, __LINE__, #cond); \
      printf(__VA_ARGS__);                                                \
      printf("\n");                                                       \
    }                                                                     \
  } while (0)

static void finish(const char* name)
{
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (checks_failed) {
    printf("rank %d: %s: %d of %d checks failed\n", rank, name, checks_failed, checks_run);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  printf("rank %d: %s ok (%d checks)\n", rank, name, checks_run);
}

#endif

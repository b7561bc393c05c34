/* Fault injection (issue 14): rank 0 ends the run with a fault while rank 1
 * waits in one of several situations. Two ranks, argv[1] = fault, argv[2] =
 * where the peer waits:
 *   fault: mpi_abort    MPI_Abort(MPI_COMM_WORLD, 7)
 *          fatal_comm   MPI_Send on an invalid communicator
 *          fatal_count  MPI_Send with a negative count
 *          fatal_tag    MPI_Send with a tag above MPI_TAG_UB
 *          segv         a store through a null pointer
 *          fpe          an integer division by zero
 *          abort        abort()
 *          exit         exit(5) without MPI_Finalize
 *          _exit        _exit(5) without MPI_Finalize (no exit handlers)
 *          quick_exit   quick_exit(5) without MPI_Finalize (idem)
 *          usr1         raise(SIGUSR1), whose default action ends a process
 *          itimer       arms ITIMER_VIRTUAL without a handler and computes:
 *                       the kernel's SIGVTALRM ends a process
 *          time_limit   sleeps far beyond the run's --time-limit
 *          heap         corrupts the allocator's free list: glibc aborts
 *          hang         sleeps forever (progsim is interrupted by a signal)
 *          spin         loops in user code forever (idem)
 *   peer:  p2p          MPI_Recv from rank 0 (never sent)
 *          coll         MPI_Barrier that rank 0 never enters
 *          rma          a second MPI_Win_fence that rank 0 never calls
 *          poll         spins on a flag in its window (watched memory) that
 *                       nobody writes
 *          iprobe       loops on MPI_Iprobe for a message nobody sends
 * Rank 0 faults after sleeping 1 ms of simulated time, so the peer is
 * waiting (or still looping) when the fault happens; with argv[3] =
 * at_start, right after MPI_Comm_rank instead. */
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static void fault(const char *kind)
{
  int value = 1;
  if (!strcmp(kind, "mpi_abort")) {
    MPI_Abort(MPI_COMM_WORLD, 7);
  } else if (!strcmp(kind, "fatal_comm")) {
    MPI_Comm bogus = (MPI_Comm)0x7654321;
    MPI_Send(&value, 1, MPI_INT, 1, 0, bogus);
  } else if (!strcmp(kind, "fatal_count")) {
    MPI_Send(&value, -1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  } else if (!strcmp(kind, "fatal_tag")) {
    int *tag_ub, found;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &found);
    MPI_Send(&value, 1, MPI_INT, 1, *tag_ub + 1, MPI_COMM_WORLD); /* progsim's MPI_TAG_UB < INT_MAX */
  } else if (!strcmp(kind, "segv")) {
    volatile int *volatile nowhere = NULL;
    *nowhere = 1;
  } else if (!strcmp(kind, "fpe")) {
    volatile int one = 1, zero = 0; /* both volatile: GCC turns 1 / x into a comparison */
    value = one / zero;
  } else if (!strcmp(kind, "abort")) {
    abort();
  } else if (!strcmp(kind, "exit")) {
    exit(5);
  } else if (!strcmp(kind, "_exit")) {
    _exit(5);
  } else if (!strcmp(kind, "quick_exit")) {
    quick_exit(5);
  } else if (!strcmp(kind, "usr1")) {
    raise(SIGUSR1);
  } else if (!strcmp(kind, "itimer")) {
    struct itimerval in_10ms = {{0, 0}, {0, 10000}};
    setitimer(ITIMER_VIRTUAL, &in_10ms, NULL);
    for (volatile unsigned long i = 0;; ++i)
      ;
  } else if (!strcmp(kind, "time_limit")) {
    sleep(1000);
  } else if (!strcmp(kind, "heap")) {
    /* A write after free overwrites the link of glibc's list of free
     * 24-byte blocks with a misaligned pointer (as glibc >= 2.32 decodes
     * it): the second malloc aborts ("unaligned tcache chunk detected"),
     * and so would every later allocation of that size, progsim's too. */
    char *volatile a = malloc(24), *volatile b = malloc(24);
    free(a);
    free(b);
    volatile uintptr_t *link = (volatile uintptr_t *)b; /* volatile: stores to freed memory are not dropped */
    *link = ((uintptr_t)b >> 12) ^ (uintptr_t)0x4141414141414141ULL;
    a = malloc(24);
    b = malloc(24);
    value = a != b;
  } else if (!strcmp(kind, "hang")) {
    for (;;)
      sleep(1000);
  } else if (!strcmp(kind, "spin")) {
    volatile int never = 0;
    while (!never)
      ;
  }
  printf("rank 0: fault '%s' did not end the run (value %d)\n", kind, value);
}

int main(int argc, char **argv)
{
  if (argc < 3) {
    fprintf(stderr, "usage: faults FAULT PEER [at_start]\n");
    return 2;
  }
  const char *kind = argv[1], *peer = argv[2];
  int rank, *base;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc > 3 && !strcmp(argv[3], "at_start") && rank == 0)
    fault(kind); /* before any call that makes simulated time pass */
  MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  *base = 0;
  MPI_Win_fence(0, win);
  if (rank == 0) {
    usleep(1000);
    fault(kind);
  } else if (rank == 1) {
    int value, flag = 0;
    if (!strcmp(peer, "p2p")) {
      MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (!strcmp(peer, "coll")) {
      MPI_Barrier(MPI_COMM_WORLD);
    } else if (!strcmp(peer, "rma")) {
      MPI_Win_fence(0, win);
    } else if (!strcmp(peer, "poll")) {
      volatile int *watched = base;
      while (*watched == 0)
        ;
    } else if (!strcmp(peer, "iprobe")) {
      while (!flag)
        MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    printf("rank 1: the wait in '%s' ended\n", peer);
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}

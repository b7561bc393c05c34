/* A rank busy in the C library when progsim is interrupted: the code a
 * signal handler interrupts holds the allocator's or stdout's lock, or is
 * midway through updating the heap. Ending the run from inside the handler
 * (writing the report and timeline allocates and takes stdio locks) then
 * waited forever or damaged the heap; interrupt_repeat_test.py sends
 * SIGINT twice, or once and lets the grace period expire, many times.
 *
 * usage: interrupt_busy MODE MARKER (two ranks or more)
 *   MODE: malloc         rank 0 allocates and frees blocks of varying sizes
 *                        forever (mostly inside malloc and free)
 *         printf         rank 0 calls fprintf(stdout) forever (inside
 *                        vfprintf, the stream locked; a line every 2^16
 *                        calls, so the captured output stays small)
 *         thread_malloc  rank 0 starts a thread that allocates forever, as
 *                        in malloc, and waits in pthread_join (the test
 *                        sends its signals to that thread)
 *         flood          rank 0 prints 1 KiB lines and calls MPI_Iprobe
 *                        forever: with progsim's stdout a pipe nobody
 *                        reads, progsim itself blocks forwarding them
 *   MARKER: a file rank 0 creates once it is busy, holding the thread id
 *           of the busy thread (the test waits for it before signalling).
 * Rank 1 waits in MPI_Recv for a message that never comes: no rank ever
 * reaches another MPI call, so nothing but the signals ends the run. */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *marker;

/* Written once the calling thread is about to loop: its kernel thread id. */
static void announce_busy(void)
{
  char path[4096], text[32];
  snprintf(path, sizeof path, "%s.tmp", marker);
  FILE *f = fopen(path, "w");
  if (!f)
    return;
  snprintf(text, sizeof text, "%ld\n", (long)syscall(SYS_gettid));
  fputs(text, f);
  fclose(f);
  rename(path, marker); /* whole or absent */
}

static void *allocate_forever(void *unused)
{
  (void)unused;
  announce_busy();
  unsigned state = 12345;
  for (;;) {
    /* Sizes from 16 bytes to 64 KiB: past the per-thread cache, into the
     * arena's bins (under its lock once the process has a second thread). */
    state = state * 1103515245u + 12345u;
    size_t size = 16 + (state >> 8) % 65536;
    char *volatile block = malloc(size);
    block[0] = 1;
    block[size - 1] = 2;
    free(block);
  }
  return NULL;
}

static void print_forever(void)
{
  announce_busy();
  volatile int width = 0;
  for (unsigned long i = 1;; ++i) {
    if (i % 65536 == 0)
      fprintf(stdout, "rank 0: %lu calls\n", i);
    else
      fprintf(stdout, "%.*s", width, "never printed");
  }
}

static void flood_forever(void)
{
  announce_busy();
  int flag = 0;
  for (int i = 0;; ++i) {
    printf("%01000d\n", i);
    MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  }
}

int main(int argc, char **argv)
{
  if (argc < 3) {
    fprintf(stderr, "usage: interrupt_busy malloc|printf|thread_malloc|flood MARKER\n");
    return 2;
  }
  const char *mode = argv[1];
  marker = argv[2];
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    if (!strcmp(mode, "malloc")) {
      allocate_forever(NULL);
    } else if (!strcmp(mode, "printf")) {
      print_forever();
    } else if (!strcmp(mode, "flood")) {
      flood_forever();
    } else if (!strcmp(mode, "thread_malloc")) {
      pthread_t thread;
      if (pthread_create(&thread, NULL, allocate_forever, NULL) != 0)
        return 3;
      pthread_join(thread, NULL);
    } else {
      fprintf(stderr, "interrupt_busy: unknown mode %s\n", mode);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  } else if (rank == 1) {
    int value;
    MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}

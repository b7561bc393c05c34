/* progsim calibrate's probe set: one MPI program, run with 2 ranks by the
 * machine's real MPI and by progsim alike, so both measure the same thing
 * (tools/progsim/CalibrateCommand.cpp builds and runs it; docs/calibrate.md).
 * "Computing" is usleep: a rank that sleeps makes no MPI call, which is all a
 * weak-progress MPI can tell, and progsim charges it as simulated time.
 *
 *   calibrate_probe pingpong SIZE...   half round trip per size (median)
 *   calibrate_probe block T SIZE...    rank 1 computes T us before its MPI_Recv:
 *                                      how long rank 0's MPI_Send takes (eager
 *                                      returns at once, rendezvous waits T)
 *   calibrate_probe overlap T SIZE...  rank 0 MPI_Isend, computes T, MPI_Wait while
 *                                      rank 1 receives (send_side), and rank 1
 *                                      MPI_Irecv, computes T, MPI_Wait while rank 0
 *                                      sends (recv_side): what moved during compute
 *   calibrate_probe flag T SIZE        MPI-4.1 Example 12.x (MPI_Bsend, then a busy
 *                                      wait on a shared-memory flag): completes, or
 *                                      deadlocks under weak progress
 *   calibrate_probe thread-multiple MODE ...   the same after
 *                                      MPI_Init_thread(MPI_THREAD_MULTIPLE), which an
 *                                      MPI's asynchronous progress thread may need
 *                                      (MPICH's MPIR_CVAR_ASYNC_PROGRESS=1); prints
 *                                      the level provided first
 * Every result is one line "probe=NAME size=BYTES key=value...". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int rank;
static int threaded; /* thread-multiple: the MPI's asynchronous progress mode */

static int compare_doubles(const void* a, const void* b)
{
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static double median(double* values, int n)
{
  qsort(values, (size_t)n, sizeof(double), compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

static char* buffer_of(long size)
{
  char* b = malloc(size > 0 ? (size_t)size : 1);
  memset(b, rank + 1, size > 0 ? (size_t)size : 1);
  return b;
}

/* Fewer repetitions for large messages: a probe set stays under a minute. */
static int repetitions(long size)
{
  return size <= 65536 ? 200 : size <= 1048576 ? 40 : 12;
}

static void pingpong(long size)
{
  char* b = buffer_of(size);
  int reps = repetitions(size);
  double* half = malloc(sizeof(double) * (size_t)reps);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = -2; i < reps; ++i) { /* two warm-up round trips */
    double t0 = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(b, (int)size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(b, (int)size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(b, (int)size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(b, (int)size, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
    if (i >= 0)
      half[i] = (MPI_Wtime() - t0) / 2;
  }
  if (rank == 0)
    printf("probe=pingpong size=%ld reps=%d half_rtt=%.9e\n", size, reps, median(half, reps));
  free(half);
  free(b);
}

/* The smaller of two tries: a loaded machine may delay one, never shorten it. */
static void block(long compute_us, long size)
{
  char* b = buffer_of(size);
  double best = 1e9;
  for (int i = 0; i < 2; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      double t0 = MPI_Wtime();
      MPI_Send(b, (int)size, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
      double t = MPI_Wtime() - t0;
      best = t < best ? t : best;
    } else {
      usleep((useconds_t)compute_us);
      MPI_Recv(b, (int)size, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  if (rank == 0)
    printf("probe=block size=%ld compute=%.9e send_time=%.9e\n", size, compute_us * 1e-6, best);
  free(b);
}

/* CPU seconds used by the whole process (all its threads): while the rank
 * itself sleeps, that is what a progress thread of the MPI library burns. */
static double process_cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void overlap(long compute_us, long size)
{
  char* b = buffer_of(size);
  MPI_Request request;
  double recv_time, send_time, cpu_fraction = 0;
  /* send_side: the sender computes; when does the receiver have the data? */
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (rank == 0) {
    MPI_Isend(b, (int)size, MPI_BYTE, 1, 3, MPI_COMM_WORLD, &request);
    usleep((useconds_t)compute_us);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(b, (int)size, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  recv_time = MPI_Wtime() - t0;
  MPI_Bcast(&recv_time, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  /* recv_side: the receiver computes after posting; when is the sender done? */
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  if (rank == 1) {
    MPI_Irecv(b, (int)size, MPI_BYTE, 0, 4, MPI_COMM_WORLD, &request);
    double cpu0 = process_cpu();
    usleep((useconds_t)compute_us);
    cpu_fraction = (process_cpu() - cpu0) / (compute_us * 1e-6);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(b, (int)size, MPI_BYTE, 1, 4, MPI_COMM_WORLD);
  }
  send_time = MPI_Wtime() - t0;
  MPI_Bcast(&cpu_fraction, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("probe=overlap size=%ld compute=%.9e send_side_recv_time=%.9e recv_side_send_time=%.9e", size,
           compute_us * 1e-6, recv_time, send_time);
    if (threaded) /* under progsim the process's CPU is the simulator's: not printed */
      printf(" recv_side_cpu_fraction=%.4f", cpu_fraction);
    printf("\n");
  }
  free(b);
}

/* MPI-4.1 Example 12.x with a message of SIZE bytes (examples/bsend_shared_flag). */
static void flag(long compute_us, long size)
{
  int disp_unit;
  MPI_Comm comm_sm;
  MPI_Win win_sm;
  volatile int *my_ack, *ack_in_rank0;
  MPI_Aint win_size;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &comm_sm);
  int sm_rank;
  MPI_Comm_rank(comm_sm, &sm_rank);
  MPI_Win_allocate_shared(sm_rank == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, comm_sm, &my_ack, &win_sm);
  MPI_Win_shared_query(win_sm, 0, &win_size, &disp_unit, &ack_in_rank0);
  char* message = buffer_of(size);
  if (sm_rank == 0) {
    *my_ack = 0;
    MPI_Win_fence(0, win_sm);
    int bytes = (int)size + MPI_BSEND_OVERHEAD;
    char* attached = malloc((size_t)bytes);
    MPI_Buffer_attach(attached, bytes);
    MPI_Bsend(message, (int)size, MPI_BYTE, 1, 5, comm_sm);
    usleep((useconds_t)compute_us); /* rank 1 is blocked in MPI_Recv by now */
    while (*ack_in_rank0 != 222)
      ; /* no MPI call: only strong progress moves the buffered data */
    void* detached;
    MPI_Buffer_detach(&detached, &bytes);
    free(detached);
    printf("probe=flag size=%ld completed=1\n", size);
  } else if (sm_rank == 1) {
    MPI_Win_fence(0, win_sm);
    MPI_Recv(message, (int)size, MPI_BYTE, 0, 5, comm_sm, MPI_STATUS_IGNORE);
    *ack_in_rank0 = 222;
  }
  free(message);
  MPI_Win_free(&win_sm);
  MPI_Comm_free(&comm_sm);
}

int main(int argc, char** argv)
{
  threaded = argc > 1 && strcmp(argv[1], "thread-multiple") == 0;
  if (threaded) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
      printf("probe=init size=0 provided=%d multiple=%d\n", provided, provided == MPI_THREAD_MULTIPLE);
    --argc; /* the probe's own arguments follow */
    ++argv;
  } else {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  }
  const char* mode = argc > 1 ? argv[1] : "";
  int first_size = strcmp(mode, "pingpong") == 0 ? 2 : 3;
  long compute_us = argc > 2 ? atol(argv[2]) : 0;
  for (int i = first_size; i < argc; ++i) {
    long size = atol(argv[i]);
    if (strcmp(mode, "pingpong") == 0)
      pingpong(size);
    else if (strcmp(mode, "block") == 0)
      block(compute_us, size);
    else if (strcmp(mode, "overlap") == 0)
      overlap(compute_us, size);
    else if (strcmp(mode, "flag") == 0)
      flag(compute_us, size);
  }
  fflush(stdout);
  MPI_Finalize();
  return 0;
}

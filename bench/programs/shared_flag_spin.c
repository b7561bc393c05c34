/* Memory-polling speed (issue 17; bench/speed.sh, case spin).
 *
 * Two ranks on one host share a flag in a window from
 * MPI_Win_allocate_shared. Rank 0 posts a nonblocking receive of 1 MiB from
 * rank 1, then spins on the flag in a plain C loop: a volatile read, no MPI
 * call, no system call. Rank 1 sleeps SECONDS (default 3; simulated time in
 * progsim), then sends the 1 MiB with a blocking MPI_Send and, once it has
 * returned, sets the flag. Rank 0 leaves the loop, waits for its receive,
 * checks the data and prints
 *   "spin: flag seen at T s after S s of spinning (N polls); data ok"
 * so the spin lasts about SECONDS simulated seconds.
 *
 * 1 MiB is above every eager threshold in use (progsim: 64 KiB), so the send
 * uses the rendezvous protocol: MPI_Send can only return after rank 0's MPI
 * library has answered the request-to-send, and rank 0 makes no MPI call
 * while it spins. So:
 *   - weak progress (MPI progresses only inside MPI calls): the rendezvous
 *     never advances, MPI_Send never returns, the flag is never set:
 *     deadlock (progsim reports it: rank 0 polling the flag, rank 1 blocked
 *     in MPI_Send waiting for rank 0);
 *   - thread (a progress thread per rank), offload (the NIC) and ideal: the
 *     receive side answers without rank 0, the send completes after
 *     SECONDS + the transfer, the flag is set and the program completes.
 * The measurement is the host time of the spin: a spin that cannot end until
 * another rank writes should cost host time per write, not per poll.
 *
 * With the second argument "wtime" the loop is the usual bounded spin,
 *   while (*flag == 0 && MPI_Wtime() - t0 < 2 * SECONDS)
 * one MPI call per iteration (a local one: it changes nothing another rank
 * can see). If the deadline passes first, rank 0 prints
 *   "spin: deadline reached at T s without the flag (N polls); data ok"
 * after its MPI_Wait (which completes the transfer under any policy).
 *
 * Usage: shared_flag_spin [SECONDS [plain|wtime]]   (2 ranks on one host)
 * Under SMPI 3.32 the spin never yields to the simulator (ranks are
 * coroutines without preemption, and its MPI_Wtime lets no simulated time
 * pass), with either loop: the program is for progsim. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BYTES (1024 * 1024)

int main(int argc, char** argv)
{
  int rank, size, disp_unit;
  MPI_Comm node;
  MPI_Win win;
  volatile int *mine, *flag;
  MPI_Aint flag_size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  unsigned seconds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 3;
  int wtime = argc > 2 && strcmp(argv[2], "wtime") == 0;
  if (argc > 2 && !wtime && strcmp(argv[2], "plain") != 0) {
    if (rank == 0)
      fprintf(stderr, "usage: shared_flag_spin [SECONDS [plain|wtime]]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size;
  MPI_Comm_size(node, &node_size);
  if (size != 2 || node_size != 2) {
    if (rank == 0)
      fprintf(stderr, "shared_flag_spin: needs exactly 2 ranks on one host (got %d, %d on this host)\n", size,
              node_size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Win_allocate_shared(rank == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, node, (void*)&mine, &win);
  MPI_Win_shared_query(win, 0, &flag_size, &disp_unit, (void*)&flag);
  if (rank == 0)
    *flag = 0;
  MPI_Win_fence(0, win); /* the flag is 0 before anyone can set it */

  unsigned char* buf = malloc(BYTES);
  if (!buf)
    MPI_Abort(MPI_COMM_WORLD, 3);
  int status = 0;
  if (rank == 0) {
    MPI_Request req;
    MPI_Irecv(buf, BYTES, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &req);
    double t0 = MPI_Wtime();
    long polls = 0;
    if (wtime) {
      while (*flag == 0 && MPI_Wtime() - t0 < 2.0 * seconds) /* bounded: one local MPI call per poll */
        polls++;
    } else {
      while (*flag == 0) /* the spin: no MPI call */
        polls++;
    }
    double t1 = MPI_Wtime();
    int seen = *flag != 0;
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    long wrong = 0;
    for (long i = 0; i < BYTES; i++)
      wrong += buf[i] != (unsigned char)(i * 7 + 1);
    if (seen)
      printf("spin: flag seen at %.6f s after %.6f s of spinning (%ld polls); data %s\n", t1, t1 - t0, polls,
             wrong ? "WRONG" : "ok");
    else
      printf("spin: deadline reached at %.6f s without the flag (%ld polls); data %s\n", t1, polls,
             wrong ? "WRONG" : "ok");
    status = wrong != 0;
  } else {
    for (long i = 0; i < BYTES; i++)
      buf[i] = (unsigned char)(i * 7 + 1);
    sleep(seconds);
    MPI_Send(buf, BYTES, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    *flag = 1; /* after MPI_Send returned */
  }
  free(buf);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return status;
}

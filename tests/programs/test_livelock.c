/* A rank that only calls test procedures that can never succeed, while every
 * other rank has finished or is blocked and nothing is in flight: a livelock,
 * part of the deadlock (it never ends under any MPI).
 *   iprobe   rank 0 finalizes; rank 1 loops on MPI_Iprobe(source=0, tag=5)
 *   test     rank 1 loops on MPI_Test of an MPI_Irecv from rank 0, and rank 0
 *            is blocked in MPI_Recv from rank 1: a cycle
 *   both     each rank loops on MPI_Iprobe for a message of the other
 *   timeout  as iprobe, but the loop gives up after 10 ms of MPI_Wtime: not a
 *            livelock, the run completes at t = 10 ms
 *   sleep    as iprobe with usleep(100) between probes: time passes, nothing
 *            can arrive, still a livelock */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv)
{
  int rank, flag = 0, data = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "iprobe";
  if (strcmp(mode, "test") == 0) {
    if (rank == 0) {
      MPI_Recv(&data, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Request request;
      MPI_Irecv(&data, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &request);
      while (!flag)
        MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    }
  } else if (strcmp(mode, "both") == 0) {
    while (!flag)
      MPI_Iprobe(1 - rank, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    double t0 = MPI_Wtime();
    if (strcmp(mode, "timeout") == 0) {
      while (!flag && MPI_Wtime() - t0 < 0.01)
        MPI_Iprobe(0, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      printf("rank 1: gave up at %.6f, flag %d\n", MPI_Wtime(), flag);
    } else {
      while (!flag) {
        MPI_Iprobe(0, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        if (strcmp(mode, "sleep") == 0)
          usleep(100);
      }
    }
  }
  MPI_Finalize();
  return 0;
}

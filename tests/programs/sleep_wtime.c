/* sleep() advances simulated time; a busy loop on MPI_Wtime() terminates. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double t0 = MPI_Wtime();
  if (rank == 0) {
    sleep(3);
    printf("after sleep(3): %.6f\n", MPI_Wtime() - t0);
    double t1 = MPI_Wtime();
    while (MPI_Wtime() - t1 < 0.5)
      ;
    printf("after busy loop: %.6f\n", MPI_Wtime() - t0);
    usleep(250000);
    struct timespec ts = {0, 125000000};
    nanosleep(&ts, NULL);
    printf("after usleep+nanosleep: %.6f\n", MPI_Wtime() - t0);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d leaves the barrier at %.6f\n", rank, MPI_Wtime() - t0);
  MPI_Finalize();
  return 0;
}

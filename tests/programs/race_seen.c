/* A test procedure forced (match-schedule) to a request not complete yet,
 * while the program knows another one completed (MPI_Request_get_status
 * said so): it must return something (MPI-4.1 §3.7.5), so the schedule
 * cannot be honoured and the run is infeasible, not made to spin for ever.
 * Rank 0 receives two messages of rank 1; the second (tag 1) is sent only
 * after rank 0's answer, which comes after the test loop.
 *   testany: MPI_Testany until flag;  testsome: MPI_Testsome until some. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, a = 0, b = 0;
  const char* mode = argc > 1 ? argv[1] : "testany";
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    int index = -1, flag = 0, n = 0, indices[2];
    MPI_Request r[2];
    MPI_Irecv(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&b, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &r[1]);
    while (!flag)
      MPI_Request_get_status(r[0], &flag, MPI_STATUS_IGNORE);
    do {
      if (strcmp(mode, "testany") == 0) {
        MPI_Testany(2, r, &index, &flag, MPI_STATUS_IGNORE);
      } else {
        MPI_Testsome(2, r, &n, indices, MPI_STATUSES_IGNORE);
        flag = n > 0;
        index = indices[0];
      }
    } while (!flag);
    printf("rank 0: the test returned request %d\n", index);
    MPI_Send(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  } else if (rank == 1) {
    MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Recv(&a, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&rank, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}

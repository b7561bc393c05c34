/* MPI_Start on an active persistent request (MPI-4.1 §3.9: "The associated
 * request should be inactive"). "bad": rank 0 starts its MPI_Send_init
 * request twice without completing it in between (MPI_ERRORS_RETURN: the
 * run goes on). "good": it waits between the two starts. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, value = 42, received[2];
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int bad = argc > 1 && strcmp(argv[1], "bad") == 0;
  if (rank == 0) {
    MPI_Send_init(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &request);
    MPI_Start(&request);
    if (!bad)
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    int err = MPI_Start(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    if (bad) {  /* the second message rank 1 receives */
      MPI_Start(&request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&request);
    printf("rank 0: second MPI_Start %s\n", err == MPI_SUCCESS ? "succeeded" : "failed");
  } else if (rank == 1) {
    MPI_Recv(&received[0], 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&received[1], 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  printf("rank %d: done\n", rank);
  MPI_Finalize();
  return 0;
}

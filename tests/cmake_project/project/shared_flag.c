/* Correct only with strong progress (MPI-4.1 §2.9): rank 0 starts a large
 * (rendezvous) send, then waits outside MPI for a flag in shared memory
 * that rank 1 sets once its receive has returned. Moving the data needs
 * rank 0's MPI library, which weak progress only runs inside MPI calls.
 * Both ranks must share a host (MPIEXEC_PREFLAGS gives two per node). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N (4 * 1024 * 1024)

int main(int argc, char** argv)
{
  int rank, disp_unit;
  MPI_Comm node;
  MPI_Win win;
  MPI_Aint size;
  volatile int *mine, *flag;
  MPI_Request request;
  char* data = malloc(N);
  MPI_Init(&argc, &argv);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &rank);
  MPI_Win_allocate_shared(rank == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, node, &mine, &win);
  MPI_Win_shared_query(win, 0, &size, &disp_unit, &flag);
  if (rank == 0)
    *flag = 0;
  MPI_Win_fence(0, win);
  if (rank == 0) {
    MPI_Isend(data, N, MPI_CHAR, 1, 0, node, &request);
    while (*flag != 1)
      ; /* waits outside MPI */
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(data, N, MPI_CHAR, 0, 0, node, MPI_STATUS_IGNORE);
    *flag = 1;
  }
  MPI_Win_fence(0, win);
  printf("shared_flag: rank %d done\n", rank);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
  MPI_Finalize();
  free(data);
  return 0;
}

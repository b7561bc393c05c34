/* Example 12.x with the receiver late: rank 0 buffers a message and polls
 * a flag in a shared-memory window at once; rank 1 sleeps 20 s before its
 * MPI_Recv and sets the flag after it. With strong progress rank 0 polls
 * for about 20 s of simulated time (its polling waste); under weak progress
 * the buffered data never moves: deadlock. Run with --ranks-per-node 2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N (1024 * 1024)

int main(int argc, char** argv)
{
  int rank, disp_unit;
  MPI_Comm comm_sm;
  MPI_Win win;
  volatile int *mine, *flag;
  MPI_Aint size;
  MPI_Init(&argc, &argv);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &comm_sm);
  MPI_Comm_rank(comm_sm, &rank);
  MPI_Win_allocate_shared(rank == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, comm_sm, &mine, &win);
  MPI_Win_shared_query(win, 0, &size, &disp_unit, &flag);
  MPI_Win_fence(0, win);
  char* message = malloc(N);
  if (rank == 0) {
    int bytes = N + MPI_BSEND_OVERHEAD;
    char* buffer = malloc(bytes);
    MPI_Buffer_attach(buffer, bytes);
    MPI_Bsend(message, N, MPI_CHAR, 1, 0, comm_sm);
    while (*flag != 222)
      ;
    void* detached;
    MPI_Buffer_detach(&detached, &bytes);
    printf("rank 0: flag seen at %.6f\n", MPI_Wtime());
    free(detached);
  } else {
    sleep(20);
    MPI_Recv(message, N, MPI_CHAR, 0, 0, comm_sm, MPI_STATUS_IGNORE);
    *flag = 222;
    printf("rank 1: received at %.6f\n", MPI_Wtime());
  }
  free(message);
  MPI_Win_free(&win);
  MPI_Comm_free(&comm_sm);
  MPI_Finalize();
  return 0;
}

/* MPI-4.1 Example 12.x (proposal for §2.9 "Progress", RMA §12.7.3):
 * synchronizing through a shared-memory flag deadlocks without strong
 * progress. Rank 0 buffers a large message (MPI_Bsend), sleeps, then polls a
 * flag in its part of a shared-memory window that rank 1 sets after its
 * MPI_Recv returns. Sending the buffered data is a decoupled activity of
 * rank 0; under weak progress it runs only when rank 0 calls MPI again,
 * which it does only after the flag is set.
 * Both ranks must be on one host: run with --ranks-per-node 2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N (8 * 1024 * 1024)

int main(int argc, char** argv)
{
  int rank, disp_unit;
  MPI_Comm comm_sm;
  MPI_Win win_sm;
  volatile int *my_ack, *ack_in_rank0;
  MPI_Aint size;
  MPI_Init(&argc, &argv);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &comm_sm);
  MPI_Comm_set_name(comm_sm, "comm_sm");
  MPI_Comm_rank(comm_sm, &rank);
  MPI_Win_allocate_shared(rank == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, comm_sm, &my_ack, &win_sm);
  MPI_Win_shared_query(win_sm, 0, &size, &disp_unit, &ack_in_rank0);
  char* message = malloc(N);
  if (rank == 0) {
    *my_ack = 0;
    MPI_Win_fence(0, win_sm);
    int bytes = N + MPI_BSEND_OVERHEAD;
    char* buffer = malloc(bytes);
    MPI_Buffer_attach(buffer, bytes);
    MPI_Bsend(message, N, MPI_CHAR, 1, 0, comm_sm);
    sleep(10); /* rank 1 is blocked in MPI_Recv by now */
    while (*ack_in_rank0 != 222)
      ; /* empty polling loop */
    void* detached;
    MPI_Buffer_detach(&detached, &bytes);
    printf("rank 0: acknowledged at %.6f\n", MPI_Wtime());
    free(detached);
  } else if (rank == 1) {
    MPI_Win_fence(0, win_sm);
    MPI_Recv(message, N, MPI_CHAR, 0, 0, comm_sm, MPI_STATUS_IGNORE);
    *ack_in_rank0 = 222;
    printf("rank 1: received at %.6f\n", MPI_Wtime());
  }
  free(message);
  MPI_Win_free(&win_sm);
  MPI_Comm_free(&comm_sm);
  MPI_Finalize();
  return 0;
}

/* MPI-4.1 Example 12.x (proposal for §2.9 "Progress", RMA §12.7.3):
 * synchronizing through a shared-memory flag deadlocks without strong
 * progress. Rank 0 buffers a large message (MPI_Bsend), sleeps, then polls a
 * flag that rank 1 sets after its MPI_Recv returns. Sending the buffered
 * data is a decoupled activity of rank 0; under weak progress it runs only
 * when rank 0 calls MPI again, which it does only after the flag is set.
 *
 * The flag is a global shared by the ranks (run with --privatize=off); the
 * standard's version uses a shared-memory window (MPI_Win_allocate_shared). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N (8 * 1024 * 1024)

volatile int ack_in_rank0;

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    progsim_watch_memory((void*)&ack_in_rank0, sizeof ack_in_rank0, "ack_in_rank0");
  MPI_Barrier(MPI_COMM_WORLD);
  char* message = malloc(N);
  if (rank == 0) {
    int size = N + MPI_BSEND_OVERHEAD;
    char* buffer = malloc(size);
    MPI_Buffer_attach(buffer, size);
    MPI_Bsend(message, N, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    sleep(10); /* rank 1 is blocked in MPI_Recv by now */
    while (ack_in_rank0 != 222)
      ; /* empty polling loop */
    void* detached;
    MPI_Buffer_detach(&detached, &size);
    printf("rank 0: acknowledged at %.6f\n", MPI_Wtime());
    free(detached);
  } else if (rank == 1) {
    MPI_Recv(message, N, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    ack_in_rank0 = 222;
    printf("rank 1: received at %.6f\n", MPI_Wtime());
  }
  free(message);
  MPI_Finalize();
  return 0;
}

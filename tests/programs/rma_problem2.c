/* mpi-progress file 004, Problem 2 (Dan Holmes): an MPI_Win_test loop must
 * progress a pending MPI_Bsend. Rank 0 posts an exposure epoch, buffers a
 * large message and sleeps; then it loops on MPI_Win_test. Rank 1 receives
 * the message (whose data rank 0's library sends only when it progresses),
 * then puts an acknowledgement into rank 0's window in an access epoch.
 * Completes under every policy: MPI_Win_test is a test procedure that
 * progresses (MPI-4.1 §2.9). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N (8 * 1024 * 1024)

/* A global: window memory is watched for busy-waiting, and a watched page
 * shared with the stack frames of a loop of MPI calls makes each call trap
 * (slow; see docs/design/rma.md). */
static int ack = 0;

int main(int argc, char** argv)
{
  int rank, my_ack = 222, zero = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* message = malloc(N);
  MPI_Group world, other;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int peer = 1 - rank;
  MPI_Group_incl(world, 1, &peer, &other);
  MPI_Win win;
  if (rank == 0) {
    MPI_Win_create(&ack, sizeof ack, sizeof ack, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_post(other, 0, win);
    int size = N + MPI_BSEND_OVERHEAD;
    char* buffer = malloc((size_t)size);
    MPI_Buffer_attach(buffer, size);
    MPI_Bsend(message, N, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    sleep(10);
    int flag = 0;
    long cnt = 0;
    while (!flag) {
      cnt++;
      MPI_Win_test(win, &flag);
    }
    printf("rank 0: cnt=%ld ack=%d at %.6f\n", cnt, ack, MPI_Wtime());
    void* detached;
    MPI_Buffer_detach(&detached, &size);
    free(detached);
  } else {
    MPI_Win_create(&zero, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Recv(message, N, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_start(other, 0, win);
    MPI_Put(&my_ack, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
    printf("rank 1: received and put at %.6f\n", MPI_Wtime());
  }
  MPI_Win_free(&win);
  MPI_Group_free(&other);
  MPI_Group_free(&world);
  free(message);
  MPI_Finalize();
  return 0;
}

/* mpi-progress file 004, Problem 2 (Dan Holmes): a loop on MPI_Win_test
 * while a buffered send is pending. Rank 0 posts its window, buffers a
 * large message with MPI_Bsend and sleeps; then it loops on MPI_Win_test
 * until rank 1 has put an acknowledgement. Rank 1 must first receive the
 * message, whose data rank 0's library sends when it progresses. Every
 * policy completes: MPI_Win_test is a test procedure, and repeated test
 * calls must progress (MPI-4.1 §2.9). The number of calls is the polling
 * waste (report: ranks/0/win_tests). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N (8 * 1024 * 1024)

static int ack = 0;

int main(int argc, char** argv)
{
  int rank, my_ack = 222;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* message = malloc(N);
  MPI_Group world, other;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int peer = 1 - rank;
  MPI_Group_incl(world, 1, &peer, &other);
  MPI_Win win;
  MPI_Win_create(&ack, rank == 0 ? sizeof ack : 0, sizeof ack, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  if (rank == 0) {
    MPI_Win_post(other, 0, win);
    int size = N + MPI_BSEND_OVERHEAD;
    MPI_Buffer_attach(malloc((size_t)size), size);
    MPI_Bsend(message, N, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    sleep(10);
    int flag = 0;
    long cnt = 0;
    while (!flag) {
      cnt++;
      MPI_Win_test(win, &flag);
    }
    printf("rank 0: %ld MPI_Win_test calls, ack=%d at %.6f\n", cnt, ack, MPI_Wtime());
    void* detached;
    MPI_Buffer_detach(&detached, &size);
    free(detached);
  } else {
    MPI_Recv(message, N, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_start(other, 0, win);
    MPI_Put(&my_ack, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
  }
  MPI_Win_free(&win);
  MPI_Group_free(&other);
  MPI_Group_free(&world);
  free(message);
  MPI_Finalize();
  return 0;
}

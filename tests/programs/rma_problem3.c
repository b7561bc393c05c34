/* mpi-progress file 004, Problem 3 (Dan Holmes, short version, with an
 * 8 MiB message instead of 1 GB): rank 0 buffers a message with MPI_Bsend,
 * sleeps, then busy-waits on a volatile stack variable exposed with
 * MPI_Win_create. Rank 1 receives the message, then sets the variable with
 * lock/put/unlock. Deadlock under weak progress (the buffered data and the
 * lock grant are decoupled activities of rank 0, which never calls MPI
 * again while it spins); completes with an always-progressing library. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char** argv)
{
  volatile int myAck = 222;
  int myRank = -1, tag = 101, size = 8 * 1024 * 1024, count = size / (int)sizeof(double);
  void* pTemp;
  MPI_Win win;
  double* myHugeMessage = malloc((size_t)size);
  char* myHugeBuffer = malloc((size_t)size + MPI_BSEND_OVERHEAD);

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &myRank);
  MPI_Win_create((void*)&myAck, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);

  if (0 == myRank) {
    MPI_Buffer_attach(&myHugeBuffer[0], size + MPI_BSEND_OVERHEAD);
    MPI_Bsend(&myHugeMessage[0], count, MPI_DOUBLE, 1, tag, MPI_COMM_WORLD);
    sleep(10); /* to guarantee that the while starts after rank 1 is blocked in Recv */
    while (myAck != tag)
      ;
    MPI_Buffer_detach(&pTemp, &size);
    printf("rank 0: myAck=%d at %.6f\n", myAck, MPI_Wtime());
  } else if (1 == myRank) {
    sleep(5); /* to guarantee that Bsend is done before Recv is called */
    MPI_Recv(&myHugeMessage[0], count, MPI_DOUBLE, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Put(&tag, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_unlock(0, win);
    printf("rank 1: unlocked at %.6f\n", MPI_Wtime());
  }

  MPI_Win_free(&win);
  MPI_Finalize();
  free(myHugeMessage);
  free(myHugeBuffer);
  return 0;
}

/* Receives matched while their rank waits for something else (issue 17:
 * under offload the NIC's match of a message is a look, not a wake-up, for a
 * rank waiting on requests; tests/progress/progress.cmake compares it with
 * PROGSIM_WAKE_EVERY_COMPLETION=1, which wakes the rank at every match).
 *
 * Rank 0 posts, in this order: an eager receive from rank 1 (tag 1), a
 * rendezvous receive of 1 MiB from rank 2 (tag 2), an eager receive from
 * rank 1 (tag 3), an eager receive from rank 3 (tag 4, a synchronous send);
 * then waits for tag 3 alone (MPI_Wait), for any of the rest (MPI_Waitany),
 * and for the remaining ones (MPI_Waitall). The messages arrive while it
 * waits: tag 1 and the request-to-send of tag 2 at once, tag 3 after 1 ms
 * (rank 1 sleeps), tag 4 after 2 ms. Then a blocking MPI_Recv whose match
 * completes the receive it waits for, and an MPI_Sendrecv ring. Every rank
 * prints when each wait returned. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define BIG (1024 * 1024)

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 4) {
    if (rank == 0)
      fprintf(stderr, "wait_while_matched: needs 4 ranks\n");
    MPI_Finalize();
    return 1;
  }
  char* big = calloc(BIG, 1);
  int a = 0, c = 0, d = 0, e = 0;
  if (rank == 0) {
    MPI_Request r[4];
    MPI_Irecv(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(big, BIG, MPI_CHAR, 2, 2, MPI_COMM_WORLD, &r[1]);
    MPI_Irecv(&c, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &r[2]);
    MPI_Irecv(&d, 1, MPI_INT, 3, 4, MPI_COMM_WORLD, &r[3]);
    MPI_Wait(&r[2], MPI_STATUS_IGNORE);
    printf("rank 0: tag 3 (%d) at %.9f\n", c, MPI_Wtime());
    int index;
    MPI_Waitany(4, r, &index, MPI_STATUS_IGNORE);
    printf("rank 0: waitany -> %d at %.9f\n", index, MPI_Wtime());
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    printf("rank 0: all (%d, %d, %d) at %.9f\n", a, big[BIG - 1], d, MPI_Wtime());
    MPI_Recv(&e, 1, MPI_INT, 2, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank 0: recv %d at %.9f\n", e, MPI_Wtime());
  } else if (rank == 1) {
    a = 11;
    MPI_Send(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    usleep(1000);
    c = 13;
    MPI_Send(&c, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    printf("rank 1: sends done at %.9f\n", MPI_Wtime());
  } else if (rank == 2) {
    big[BIG - 1] = 7;
    MPI_Send(big, BIG, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
    usleep(3000);
    e = 15;
    MPI_Send(&e, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    printf("rank 2: sends done at %.9f\n", MPI_Wtime());
  } else if (rank == 3) {
    usleep(2000);
    d = 14;
    MPI_Ssend(&d, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
    printf("rank 3: ssend done at %.9f\n", MPI_Wtime());
  }
  int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, right, 6, &got, 1, MPI_INT, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("rank %d: ring got %d at %.9f\n", rank, got, MPI_Wtime());
  free(big);
  MPI_Finalize();
  return 0;
}

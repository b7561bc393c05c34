/* --check buffers for partitioned communication (MPI-4.1 §4.2.2): a send
 * partition is the program's until MPI_Pready marks it ready, then the
 * operation's until the request completes; a receive partition is the
 * operation's from MPI_Start until MPI_Parrived reports that it arrived.
 * Rank 0 sends 4 partitions of 2 ints to rank 1. argv[1] picks the side,
 * argv[2] is "bad" (one access the rule forbids) or "good" (its twin).
 *   send  rank 0 writes partition 0 after its MPI_Pready (good: writes
 *         partition 1 before its MPI_Pready, reads partition 0)
 *   recv  rank 1 reads partition 1 when MPI_Parrived reported partition 0
 *         only (good: reads partition 0) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

struct {
  int data[8];
  int other[4]; /* shares the buffer's page */
} s;

int main(int argc, char** argv)
{
  int rank, flag = 0;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "";
  int bad = argc > 2 && strcmp(argv[2], "bad") == 0;
  if (rank == 0) {
    MPI_Psend_init(s.data, 4, 2, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
    MPI_Start(&request);
    s.data[0] = 1;
    s.data[1] = 2;
    MPI_Pready(0, request);
    if (strcmp(mode, "send") == 0) {
      if (bad)
        s.data[0] = 10;
      s.other[0] = s.data[0] + s.data[1];
    }
    s.data[2] = 3;
    s.data[3] = 4;
    MPI_Pready_range(1, 3, request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    s.data[0] = 5; /* completed: the buffer is the program's again */
  } else if (rank == 1) {
    MPI_Precv_init(s.data, 4, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
    MPI_Start(&request);
    s.other[1] = 7;
    while (!flag)
      MPI_Parrived(request, 0, &flag);
    if (strcmp(mode, "recv") == 0)
      s.other[0] = bad ? s.data[2] : s.data[0];
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&request);
  printf("rank %d: %d %d %d %d\n", rank, s.data[0], s.data[1], s.data[3], s.other[0]);
  MPI_Finalize();
  return 0;
}

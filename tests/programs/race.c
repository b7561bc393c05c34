/* Message races (issue 16, docs/design/message-races.md): rank 0 takes one
 * request from rank 1 and one from rank 2 and answers the first it took.
 * Rank 1 waits for the answer; rank 2 does not. When rank 1's request is
 * taken first (as progsim's default run does), the program completes; when
 * rank 2's is, rank 0 answers rank 2 and rank 1 waits forever: a deadlock
 * that only another order of arrival shows.
 *   source:  MPI_ANY_SOURCE twice          source_fixed:  from 1, then from 2
 *   tag:     MPI_ANY_SOURCE, MPI_ANY_TAG    tag_fixed:     tag 1, then tag 2
 *   waitany: two receives, MPI_Waitany     waitany_fixed: MPI_Wait on the first */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, request = 0, answer = 42, first = -1;
  const char* mode = argc > 1 ? argv[1] : "source";
  MPI_Status st;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    if (strcmp(mode, "source") == 0) {
      MPI_Recv(&request, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
      first = st.MPI_SOURCE;
      MPI_Recv(&request, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
    } else if (strcmp(mode, "source_fixed") == 0) {
      MPI_Recv(&request, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &st);
      first = st.MPI_SOURCE;
      MPI_Recv(&request, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &st);
    } else if (strcmp(mode, "tag") == 0) {
      MPI_Recv(&request, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      first = st.MPI_TAG;
      MPI_Recv(&request, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    } else if (strcmp(mode, "tag_fixed") == 0) {
      MPI_Recv(&request, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
      first = st.MPI_TAG;
      MPI_Recv(&request, 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
    } else {
      int requests[2], index = 0;
      MPI_Request r[2];
      MPI_Irecv(&requests[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[0]);
      MPI_Irecv(&requests[1], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &r[1]);
      if (strcmp(mode, "waitany") == 0)
        MPI_Waitany(2, r, &index, &st);
      else
        MPI_Wait(&r[0], &st);
      first = index + 1;
      MPI_Wait(&r[1 - index], MPI_STATUS_IGNORE);
    }
    MPI_Send(&answer, 1, MPI_INT, first, 0, MPI_COMM_WORLD);
    printf("rank 0: answered rank %d first\n", first);
  } else if (rank <= 2) {
    int tag = strncmp(mode, "tag", 3) == 0 ? rank : 0;
    MPI_Send(&rank, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
    if (rank == 1)
      MPI_Recv(&answer, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}

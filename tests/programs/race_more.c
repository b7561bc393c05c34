/* Message races of the calls that return some of several completed requests
 * and of wildcard probes (issue 16, docs/design/message-races.md), as in
 * race.c: rank 0 takes one request from rank 1 and one from rank 2; rank 1
 * waits for an answer, rank 2 does not. progsim's default run sees rank 1's
 * request first (or both at once) and completes; another order of arrival
 * leaves rank 1 waiting for ever.
 *   testany:  MPI_Testany until one completes; answers its sender.
 *   waitsome: one MPI_Waitsome; answers rank 1 if its request is among those
 *             returned (assumes MPI_Waitsome returns every completed one).
 *   testsome: MPI_Testsome until it returns some; the same.
 *   probe, iprobe, mprobe, improbe: an MPI_ANY_SOURCE probe; receives the
 *             probed message (from its source, or MPI_Mrecv), then the
 *             other, and answers the probed one's sender.
 * The *_fixed twins make the same calls: testany_fixed and the probes answer
 * rank 1 whatever came first; waitsome_fixed and testsome_fixed call until
 * both requests are returned.
 *   mprobe_named: MPI_Mprobe from rank 1, then MPI_ANY_SOURCE receive: it has
 *             no alternative (rank 1's message was matched by the probe). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, request = 0, answer = 42, first = -1;
  const char* mode = argc > 1 ? argv[1] : "testany";
  int fixed = strstr(mode, "_fixed") != NULL, some = strstr(mode, "some") != NULL;
  MPI_Status st;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    int requests[2], index = 0, flag = 0, n = 0, returned = 0, indices[2];
    MPI_Request r[2];
    MPI_Message message = MPI_MESSAGE_NULL;
    if (some || strncmp(mode, "testany", 7) == 0) {
      MPI_Irecv(&requests[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[0]);
      MPI_Irecv(&requests[1], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &r[1]);
    }
    if (strncmp(mode, "testany", 7) == 0) {
      while (!flag)
        MPI_Testany(2, r, &index, &flag, &st);
      first = index + 1;
      MPI_Wait(&r[1 - index], MPI_STATUS_IGNORE);
    } else if (some) {
      do {
        if (mode[0] == 'w')
          MPI_Waitsome(2, r, &n, indices, MPI_STATUSES_IGNORE);
        else
          MPI_Testsome(2, r, &n, indices, MPI_STATUSES_IGNORE);
        for (int i = 0; i < n; ++i)
          if (indices[i] == 0)
            first = 1; /* rank 1's request came: answer it */
        returned += n;
      } while (fixed ? returned < 2 : n == 0);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else if (strcmp(mode, "mprobe_named") == 0) {
      MPI_Mprobe(1, 0, MPI_COMM_WORLD, &message, &st);
      MPI_Recv(&request, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
      MPI_Mrecv(&request, 1, MPI_INT, &message, MPI_STATUS_IGNORE);
      first = 1;
    } else {
      if (strncmp(mode, "probe", 5) == 0)
        MPI_Probe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
      else if (strncmp(mode, "iprobe", 6) == 0)
        while (!flag)
          MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &st);
      else if (strncmp(mode, "mprobe", 6) == 0)
        MPI_Mprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &message, &st);
      else
        while (!flag)
          MPI_Improbe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &message, &st);
      first = st.MPI_SOURCE;
      if (message != MPI_MESSAGE_NULL)
        MPI_Mrecv(&request, 1, MPI_INT, &message, MPI_STATUS_IGNORE);
      else
        MPI_Recv(&request, 1, MPI_INT, first, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&request, 1, MPI_INT, 3 - first, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (fixed && !some)
      first = 1; /* the rank that waits for the answer */
    if (first > 0)
      MPI_Send(&answer, 1, MPI_INT, first, 0, MPI_COMM_WORLD);
    printf("rank 0: answered rank %d\n", first);
  } else if (rank <= 2) {
    MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    if (rank == 1)
      MPI_Recv(&answer, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}

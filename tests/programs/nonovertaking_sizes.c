/* Non-overtaking (MPI-4.1 §3.5) whoever runs the matching: rank 0 sends
 * 400 messages of pseudo-random sizes (1 B to 80 KiB, so eager and
 * rendezvous mix) with one tag; rank 1 receives each into a buffer of
 * exactly that size, so a message matched out of order is either truncated
 * (MPI_ERR_TRUNCATE, returned: MPI_ERRORS_RETURN) or has the wrong length
 * or sequence number. Rank 1 computes for a varying short time between
 * receives, so messages arrive while it is in user code (a progress thread
 * or NIC takes their matching) as well as while it is blocked (it matches
 * itself): the reported hazard is a later message matched by the rank while
 * an earlier one is in the progress thread's hands. Every 25th step rank 1
 * pre-posts the next 8 receives at once. Then a burst of small messages
 * (see below). A message out of order aborts the run with exit status 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MESSAGES 400
#define MAX_BYTES (80 * 1024)

static unsigned next_random(unsigned* state)
{
  *state = *state * 1103515245u + 12345u;
  return (*state >> 8) & 0xffffff;
}

static int size_of(int i)
{
  unsigned state = 7u + (unsigned)i * 2654435761u;
  unsigned r = next_random(&state);
  if (r % 10 == 0)
    return 65 * 1024 + (int)(r % (MAX_BYTES - 65 * 1024));  /* rendezvous */
  if (r % 3 == 0)
    return 4 + (int)(r % 28);  /* tiny: overtakes easily on the wire */
  return 4 + (int)(r % 4096);
}

#define BURST 64

static int burst_size(int i)
{
  return 8 + 8 * (i % 3);
}

static int check(int i, const char* buf, int got, int err)
{
  int seq = -1;
  if (err == MPI_SUCCESS && got >= 4)
    memcpy(&seq, buf, sizeof seq);
  if (err != MPI_SUCCESS || got != size_of(i) || seq != i) {
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (err != MPI_SUCCESS)
      MPI_Error_string(err, text, &len);
    printf("message %d out of order: %d bytes with sequence number %d, expected %d bytes %s\n", i, got, seq,
           size_of(i), text);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);  /* rank 0 would wait forever for the rest */
    return 0;
  }
  return 1;
}

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  char* buf = malloc(8 * MAX_BYTES);
  if (rank == 0) {
    for (int i = 0; i < MESSAGES; i++) {
      memset(buf, 0, 4);
      memcpy(buf, &i, sizeof i);
      MPI_Send(buf, size_of(i), MPI_BYTE, 1, 99, MPI_COMM_WORLD);
    }
  } else if (rank == 1) {
    int in_order = 1;
    for (int i = 0; i < MESSAGES && in_order;) {
      progsim_compute(1e-7 * (double)(i % 37));
      if (i % 25 == 0 && i + 8 <= MESSAGES) {
        MPI_Request requests[8];
        MPI_Status statuses[8];
        for (int k = 0; k < 8; k++) {
          MPI_Irecv(buf + k * MAX_BYTES, size_of(i + k), MPI_BYTE, 0, 99, MPI_COMM_WORLD, &requests[k]);
          progsim_compute(1e-8 * (double)((i + k) % 13));  /* arrivals between the posts */
        }
        /* The statuses' MPI_ERROR fields are set only with MPI_ERR_IN_STATUS. */
        int err = MPI_Waitall(8, requests, statuses);
        for (int k = 0; k < 8 && in_order; k++) {
          int got = -1;
          MPI_Get_count(&statuses[k], MPI_BYTE, &got);
          in_order = check(i + k, buf + k * MAX_BYTES, got, err == MPI_ERR_IN_STATUS ? statuses[k].MPI_ERROR : err);
        }
        i += 8;
        continue;
      }
      MPI_Status status;
      int err = MPI_Recv(buf, size_of(i), MPI_BYTE, 0, 99, MPI_COMM_WORLD, &status);
      int got = -1;
      MPI_Get_count(&status, MPI_BYTE, &got);
      in_order = check(i, buf, got, err);
      i++;
    }
    printf("received %d messages of varying sizes in send order: %s\n", MESSAGES, in_order ? "yes" : "NO");
  }
  /* A stream of small messages while the receiver posts few receives, then
   * many: with a small NIC matching table (and a slow NIC), the first
   * arrivals are still in the NIC's queue when later ones fall back to the
   * host, which runs them as soon as the receiver waits. */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    for (int i = 0; i < BURST; i++) {
      memcpy(buf, &i, sizeof i);
      MPI_Send(buf, burst_size(i), MPI_BYTE, 1, 98, MPI_COMM_WORLD);
      progsim_compute(3e-7);
    }
  } else if (rank == 1) {
    MPI_Request requests[BURST];
    for (int i = 0; i < BURST; i++) {
      MPI_Irecv(buf + i * 64, burst_size(i), MPI_BYTE, 0, 98, MPI_COMM_WORLD, &requests[i]);
      if (i == 3)
        progsim_compute(3e-6);
    }
    int in_order = 1;
    for (int i = 0; i < BURST && in_order; i++) {
      MPI_Status status;
      int err = MPI_Wait(&requests[i], &status);
      int got = -1, seq = -1;
      MPI_Get_count(&status, MPI_BYTE, &got);
      memcpy(&seq, buf + i * 64, sizeof seq);
      if (err != MPI_SUCCESS || got != burst_size(i) || seq != i) {
        printf("burst message %d out of order: %d bytes with sequence number %d (error %d)\n", i, got, seq, err);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
    printf("received a burst of %d messages in send order: yes\n", BURST);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}

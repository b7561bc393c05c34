/* MPI_Cancel of sends (MPI-4.1 §3.8.4). argv[1] selects the case:
 *   example89     MPI-3.1 Example 8.9 (MPI-4.1 Example 11.6): rank 0 Issend;
 *                 Cancel; Wait; Test_cancelled, rank 1 only MPI_Finalize.
 *                 "The program is correct": cancelled = 1.
 *   busy_target   the same, rank 1 computes 5 s before MPI_Finalize: rank 0's
 *                 Wait returns without rank 1 (it is local).
 *   after_match   rank 1 receives first (blocked in MPI_Recv), rank 0 cancels
 *                 1 s later: the cancel fails (cancelled = 0) and the data
 *                 arrives; an eager-sync and a rendezvous message.
 *   eager         an eager Isend already buffered at rank 1 (unexpected) is
 *                 cancelled: cancelled = 1 and rank 1 never sees it.
 *   rendezvous    the same for a 1 MiB send whose RTS waits at rank 1.
 *   bsend         the same for an Ibsend. */
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cancelled_flag(MPI_Status* status)
{
  int flag = -1;
  MPI_Test_cancelled(status, &flag);
  return flag;
}

static void example89(int rank, int busy)
{
  if (rank == 0) {
    int value = 42;
    MPI_Request request;
    MPI_Status status;
    MPI_Issend(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    int flag = cancelled_flag(&status);
    printf("rank 0: wait returned at %.6f, cancelled=%d\n", MPI_Wtime(), flag);
    CHECK(flag == 1, "the Issend of Example 8.9 must be cancelled");
  } else if (busy) {
    sleep(5);
  }
}

/* Rank 1 receives `bytes` while rank 0 cancels its send after 1 s. */
static void after_match(int rank, int bytes, int synchronous)
{
  char* buf = malloc((size_t)bytes);
  if (rank == 0) {
    for (int i = 0; i < bytes; ++i)
      buf[i] = (char)(i % 101);
    MPI_Request request;
    MPI_Status status;
    if (synchronous)
      MPI_Issend(buf, bytes, MPI_CHAR, 1, 7, MPI_COMM_WORLD, &request);
    else
      MPI_Isend(buf, bytes, MPI_CHAR, 1, 7, MPI_COMM_WORLD, &request);
    sleep(1);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    int flag = cancelled_flag(&status);
    printf("rank 0: %d B cancel after the match: cancelled=%d\n", bytes, flag);
    CHECK(flag == 0, "a matched send cannot be cancelled");
  } else if (rank == 1) {
    memset(buf, 0, (size_t)bytes);
    MPI_Status status;
    MPI_Recv(buf, bytes, MPI_CHAR, 0, 7, MPI_COMM_WORLD, &status);
    int count = -1, good = 1;
    MPI_Get_count(&status, MPI_CHAR, &count);
    for (int i = 0; i < bytes; ++i)
      good = good && buf[i] == (char)(i % 101);
    printf("rank 1: received %d B, data %s, cancelled=%d\n", count, good ? "correct" : "WRONG",
           cancelled_flag(&status));
    CHECK(count == bytes && good, "the data of the send whose cancel failed");
  }
  free(buf);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Rank 0's send waits unmatched at rank 1 (the barrier orders it), then is
 * cancelled; rank 1 learns whether and checks that it cannot receive it. */
static void cancel_unmatched(int rank, int bytes, int buffered)
{
  char* buf = malloc((size_t)bytes);
  memset(buf, 1, (size_t)bytes);
  void* attached = NULL;
  if (rank == 0) {
    MPI_Request request;
    MPI_Status status;
    if (buffered) {
      int size = bytes + MPI_BSEND_OVERHEAD;
      attached = malloc((size_t)size);
      MPI_Buffer_attach(attached, size);
      MPI_Ibsend(buf, bytes, MPI_CHAR, 1, 5, MPI_COMM_WORLD, &request);
    } else {
      MPI_Isend(buf, bytes, MPI_CHAR, 1, 5, MPI_COMM_WORLD, &request);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    int flag = cancelled_flag(&status);
    printf("rank 0: %s of %d B unmatched at rank 1: cancelled=%d\n", buffered ? "Ibsend" : "Isend", bytes, flag);
    CHECK(flag == 1, "an unmatched send must be cancelled");
    MPI_Send(&flag, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
    if (buffered) {
      int size;
      MPI_Buffer_detach(&attached, &size);
      free(attached);
    }
  } else if (rank == 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    int flag = -1, found = -1;
    MPI_Recv(&flag, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Iprobe(0, 5, MPI_COMM_WORLD, &found, MPI_STATUS_IGNORE);
    printf("rank 1: the sender says cancelled=%d. the message is %s\n", flag, found ? "STILL THERE" : "gone");
    CHECK(flag == 1 && !found, "a cancelled message cannot be received");
  }
  free(buf);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* what = argc > 1 ? argv[1] : "example89";
  if (strcmp(what, "example89") == 0 || strcmp(what, "busy_target") == 0) {
    example89(rank, strcmp(what, "busy_target") == 0);
    if (rank == 0)
      finish(what);
    MPI_Finalize();
    if (rank == 1)
      printf("rank 1: finalized at %.6f\n", MPI_Wtime());
    return 0;
  }
  if (strcmp(what, "after_match") == 0) {
    after_match(rank, 8, 1);
    after_match(rank, 1 << 20, 0);
  } else if (strcmp(what, "eager") == 0) {
    cancel_unmatched(rank, 64, 0);
  } else if (strcmp(what, "rendezvous") == 0) {
    cancel_unmatched(rank, 1 << 20, 0);
  } else if (strcmp(what, "bsend") == 0) {
    cancel_unmatched(rank, 64, 1);
  }
  finish(what);
  MPI_Finalize();
  return 0;
}

/* Point-to-point semantics on 3 ranks: wildcards and probes, matched probes,
 * persistent requests, Waitany/Waitsome/Testall, cancel, PROC_NULL, sendrecv,
 * truncation with MPI_ERRORS_RETURN. Prints one line per check. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void check(int rank, const char* what, int ok)
{
  if (!ok)
    failures++;
  printf("rank %d: %s: %s\n", rank, what, ok ? "ok" : "FAILED");
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Status status;

  /* 1. ANY_SOURCE with Probe: rank 0 receives one message from each other rank. */
  if (rank == 0) {
    int seen = 0;
    for (int i = 1; i < size; i++) {
      MPI_Probe(MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &status);
      int count, value;
      MPI_Get_count(&status, MPI_INT, &count);
      MPI_Recv(&value, 1, MPI_INT, status.MPI_SOURCE, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      seen |= (value == 100 + status.MPI_SOURCE && count == 1) << status.MPI_SOURCE;
    }
    check(rank, "probe + receive from MPI_ANY_SOURCE", seen == ((1 << size) - 2));
  } else {
    int value = 100 + rank;
    MPI_Send(&value, 1, MPI_INT, 0, 11, MPI_COMM_WORLD);
  }

  /* 2. Mprobe/Mrecv and Improbe. */
  if (rank == 1) {
    int a = 7, b = 8;
    MPI_Send(&a, 1, MPI_INT, 2, 21, MPI_COMM_WORLD);
    MPI_Send(&b, 1, MPI_INT, 2, 22, MPI_COMM_WORLD);
  } else if (rank == 2) {
    MPI_Message m1, m2;
    int flag = 0, x = 0, y = 0;
    MPI_Mprobe(1, 22, MPI_COMM_WORLD, &m2, &status);
    while (!flag)
      MPI_Improbe(1, 21, MPI_COMM_WORLD, &flag, &m1, &status);
    MPI_Mrecv(&x, 1, MPI_INT, &m1, MPI_STATUS_IGNORE);
    MPI_Mrecv(&y, 1, MPI_INT, &m2, MPI_STATUS_IGNORE);
    check(rank, "Mprobe/Improbe then Mrecv", x == 7 && y == 8 && m1 == MPI_MESSAGE_NULL);
  }

  /* 3. Persistent requests, started three times. */
  if (rank < 2) {
    int value = 0, sum = 0;
    MPI_Request r;
    if (rank == 0)
      MPI_Send_init(&value, 1, MPI_INT, 1, 31, MPI_COMM_WORLD, &r);
    else
      MPI_Recv_init(&value, 1, MPI_INT, 0, 31, MPI_COMM_WORLD, &r);
    for (int i = 1; i <= 3; i++) {
      if (rank == 0)
        value = i;
      MPI_Start(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      sum += value;
    }
    check(rank, "persistent request started 3 times", sum == 6 && r != MPI_REQUEST_NULL);
    MPI_Request_free(&r);
  }

  /* 4. Waitany / Waitsome / Testall on receives from the two other ranks. */
  {
    int in[2] = {-1, -1}, out = rank, idx, outcount, indices[2], flag = 0;
    int p1 = (rank + 1) % size, p2 = (rank + 2) % size;
    MPI_Request rr[2], sr[2];
    MPI_Irecv(&in[0], 1, MPI_INT, p1, 41, MPI_COMM_WORLD, &rr[0]);
    MPI_Irecv(&in[1], 1, MPI_INT, p2, 41, MPI_COMM_WORLD, &rr[1]);
    MPI_Isend(&out, 1, MPI_INT, (rank + size - 1) % size, 41, MPI_COMM_WORLD, &sr[0]);
    MPI_Isend(&out, 1, MPI_INT, (rank + size - 2) % size, 41, MPI_COMM_WORLD, &sr[1]);
    MPI_Waitany(2, rr, &idx, MPI_STATUS_IGNORE);
    MPI_Status st[2];
    st[0].MPI_ERROR = -1;
    MPI_Waitsome(2, rr, &outcount, indices, st);
    int waitsome_error = st[0].MPI_ERROR;
    st[0].MPI_ERROR = st[1].MPI_ERROR = -1;
    while (!flag)
      MPI_Testall(2, sr, &flag, st);
    check(rank, "Waitany + Waitsome + Testall", in[0] == p1 && in[1] == p2 && rr[0] == MPI_REQUEST_NULL &&
                                                      rr[1] == MPI_REQUEST_NULL);
    /* Success of a multiple completion sets MPI_ERROR as MPICH and Open MPI do. */
    check(rank, "MPI_ERROR of successful Waitsome/Testall statuses",
          waitsome_error == MPI_SUCCESS && st[0].MPI_ERROR == MPI_SUCCESS && st[1].MPI_ERROR == MPI_SUCCESS);
  }

  /* 4b. A message of no data typed MPI_DATATYPE_NULL (accepted as MPICH
   * does); with data, the type is an error. */
  {
    MPI_Status st;
    MPI_Sendrecv(NULL, 0, MPI_DATATYPE_NULL, rank, 42, NULL, 0, MPI_DATATYPE_NULL, rank, 42, MPI_COMM_WORLD, &st);
    int bytes = -1;
    MPI_Get_count(&st, MPI_BYTE, &bytes);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int one = 1, err = MPI_Send(&one, 1, MPI_DATATYPE_NULL, rank, 43, MPI_COMM_WORLD), cls = -1;
    MPI_Error_class(err, &cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    check(rank, "0 items of MPI_DATATYPE_NULL sent, 1 item refused",
          st.MPI_SOURCE == rank && st.MPI_TAG == 42 && bytes == 0 && cls == MPI_ERR_TYPE);
  }

  /* 5. Cancel an unmatched receive; PROC_NULL; Sendrecv_replace around a ring. */
  {
    int x = 0, cancelled = 0;
    MPI_Request r;
    MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &status);
    MPI_Test_cancelled(&status, &cancelled);
    MPI_Recv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &status);
    int v = rank;
    MPI_Sendrecv_replace(&v, 1, MPI_INT, (rank + 1) % size, 51, (rank + size - 1) % size, 51, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    check(rank, "cancel, MPI_PROC_NULL, Sendrecv_replace",
          cancelled && status.MPI_SOURCE == MPI_PROC_NULL && v == (rank + size - 1) % size);
  }

  /* 6. Truncation is reported with MPI_ERRORS_RETURN. */
  if (rank < 2) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int big[4] = {1, 2, 3, 4}, small[2];
    if (rank == 0)
      MPI_Send(big, 4, MPI_INT, 1, 61, MPI_COMM_WORLD);
    else {
      int err = MPI_Recv(small, 2, MPI_INT, 0, 61, MPI_COMM_WORLD, &status);
      int cls;
      MPI_Error_class(err, &cls);
      check(rank, "truncation returns MPI_ERR_TRUNCATE", cls == MPI_ERR_TRUNCATE);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  }

  MPI_Barrier(MPI_COMM_WORLD);
  if (failures == 0 && rank == 0)
    printf("all checks passed\n");
  MPI_Finalize();
  return failures != 0;
}

/* Partitioned communication (MPI-4.1 chapter 4), one scenario per argument:
 *   restart  three epochs of a persistent exchange in both directions
 *            (MPI_Startall, MPI_Waitall), 8 send partitions readied in reverse
 *            order into 4 receive partitions; data and status checked
 *   range    MPI_Pready_range in runs of 4 of 16 partitions, 8 receive
 *            partitions polled with MPI_Parrived
 *   list     MPI_Pready_list: odd partitions, then even ones
 *   proc_null  MPI_PROC_NULL peers complete at once
 *   free_inactive  init and free without start (MPICH part/no_start)
 *   bad_partition / pready_twice / pready_inactive  erroneous calls
 *   missing_pready  the sender never readies partition 3: a deadlock */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOTAL 4096 /* ints */

static int value(int i, int epoch) { return i * 3 + epoch * 100000; }

static int check(const int* buf, int n, int epoch)
{
  int wrong = 0;
  for (int i = 0; i < n; i++)
    wrong += buf[i] != value(i, epoch);
  return wrong;
}

static void restart(int rank)
{
  int peer = 1 - rank;
  int* sbuf = malloc(sizeof(int) * TOTAL);
  int* rbuf = malloc(sizeof(int) * TOTAL);
  MPI_Request reqs[2];
  MPI_Psend_init(sbuf, 8, TOTAL / 8, MPI_INT, peer, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]);
  MPI_Precv_init(rbuf, 4, TOTAL / 4, MPI_INT, peer, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]);
  for (int epoch = 0; epoch < 3; epoch++) {
    memset(rbuf, 0, sizeof(int) * TOTAL);
    MPI_Startall(2, reqs);
    for (int p = 7; p >= 0; p--) {
      for (int i = p * (TOTAL / 8); i < (p + 1) * (TOTAL / 8); i++)
        sbuf[i] = value(i, epoch);
      MPI_Pready(p, reqs[0]);
    }
    MPI_Status st[2];
    MPI_Waitall(2, reqs, st);
    int count;
    MPI_Get_count(&st[1], MPI_INT, &count);
    printf("rank %d: epoch %d source %d tag %d count %d wrong %d\n", rank, epoch, st[1].MPI_SOURCE, st[1].MPI_TAG,
           count, check(rbuf, TOTAL, epoch));
  }
  MPI_Request_free(&reqs[0]);
  MPI_Request_free(&reqs[1]);
  free(sbuf);
  free(rbuf);
}

static void ready_calls(int rank, int use_list)
{
  int* buf = malloc(sizeof(int) * TOTAL);
  MPI_Request req;
  if (rank == 0) {
    MPI_Psend_init(buf, 16, TOTAL / 16, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    for (int i = 0; i < TOTAL; i++)
      buf[i] = value(i, 1);
    if (use_list) {
      int odd[8], even[8];
      for (int k = 0; k < 8; k++) {
        odd[k] = 2 * k + 1;
        even[k] = 14 - 2 * k;
      }
      MPI_Pready_list(8, odd, req);
      MPI_Pready_list(8, even, req);
    } else {
      for (int lo = 0; lo < 16; lo += 4)
        MPI_Pready_range(lo, lo + 3, req);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Precv_init(buf, 8, TOTAL / 8, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    int arrived = 0;
    while (arrived < 8) {
      arrived = 0;
      for (int p = 0; p < 8; p++) {
        int flag;
        MPI_Parrived(req, p, &flag);
        arrived += flag;
      }
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    printf("rank 1: %s: all 8 partitions arrived, wrong %d\n", use_list ? "list" : "range", check(buf, TOTAL, 1));
  }
  if (rank < 2)
    MPI_Request_free(&req);
  free(buf);
}

static void proc_null(void)
{
  int buf[8];
  MPI_Request s, r;
  MPI_Psend_init(buf, 2, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
  MPI_Precv_init(buf, 2, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
  MPI_Start(&s);
  MPI_Start(&r);
  MPI_Pready_range(0, 1, s);
  int flag = 0;
  MPI_Parrived(r, 1, &flag);
  MPI_Status st;
  MPI_Wait(&s, MPI_STATUS_IGNORE);
  MPI_Wait(&r, &st);
  printf("proc_null: parrived %d source %d\n", flag, st.MPI_SOURCE == MPI_PROC_NULL);
  MPI_Request_free(&s);
  MPI_Request_free(&r);
}

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "restart";
  int buf[TOTAL];
  MPI_Request req;
  if (!strcmp(mode, "restart")) {
    restart(rank);
  } else if (!strcmp(mode, "range") || !strcmp(mode, "list")) {
    ready_calls(rank, !strcmp(mode, "list"));
  } else if (!strcmp(mode, "proc_null")) {
    proc_null();
  } else if (!strcmp(mode, "free_inactive")) {
    if (rank == 0)
      MPI_Psend_init(buf, 1, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    else
      MPI_Precv_init(buf, 1, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Request_free(&req);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: freed\n", rank);
  } else if (rank == 0) { /* the erroneous scenarios: rank 0 sends 4 partitions */
    MPI_Psend_init(buf, 4, 16, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    if (!strcmp(mode, "pready_inactive"))
      MPI_Pready(0, req);
    MPI_Start(&req);
    if (!strcmp(mode, "bad_partition"))
      MPI_Pready(4, req);
    if (!strcmp(mode, "cancel"))
      MPI_Cancel(&req);
    if (!strcmp(mode, "free"))
      MPI_Request_free(&req);
    MPI_Pready_range(0, 2, req);
    if (!strcmp(mode, "pready_twice"))
      MPI_Pready(1, req);
    MPI_Wait(&req, MPI_STATUS_IGNORE); /* missing_pready: partition 3 never ready */
  } else {
    MPI_Precv_init(buf, 4, 16, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}

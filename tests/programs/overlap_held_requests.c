/* Every way a program gets an active request and gives it back, on 2 ranks
 * (tests/programs/overlap.cmake): nonblocking sends and receives retired by
 * each wait and test procedure, MPI_Request_free of an active and of a
 * complete request, MPI_Cancel, persistent requests started by MPI_Start and
 * MPI_Startall, nonblocking and persistent collectives, partitioned
 * communication, request-based RMA, MPI_Imrecv, MPI_Isendrecv,
 * MPI_Comm_idup, a receive from MPI_PROC_NULL, a generalized request.
 * Each must be held by the overlap meter exactly as long as the program
 * holds it active: progsim compares the two counts at the end of the run.
 * With argv[1] = "leave", rank 1 finalizes holding a receive never matched
 * and a started persistent receive (an erroneous program: the counts must
 * agree all the same). */
#include <mpi.h>
#include <string.h>

static int query_fn(void* extra, MPI_Status* status)
{
  (void)extra;
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  return MPI_SUCCESS;
}
static int free_fn(void* extra) { (void)extra; return MPI_SUCCESS; }
static int cancel_fn(void* extra, int complete) { (void)extra; (void)complete; return MPI_SUCCESS; }

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, flag;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int peer = 1 - rank, a = rank, b = -1, c[2] = {0, 0};
  int leave = argc > 1 && strcmp(argv[1], "leave") == 0;
  MPI_Request rs[2], r;
  MPI_Status st;

  /* Waitall, Testall, Waitany, Waitsome, Test. */
  MPI_Irecv(&b, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &rs[0]);
  MPI_Isend(&a, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &rs[1]);
  MPI_Waitall(2, rs, MPI_STATUSES_IGNORE);
  MPI_Irecv(&b, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &rs[0]);
  MPI_Issend(&a, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &rs[1]);
  for (flag = 0; !flag;)
    MPI_Testall(2, rs, &flag, MPI_STATUSES_IGNORE);
  MPI_Irecv(&b, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &rs[0]);
  MPI_Isend(&a, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &rs[1]);
  int index, done[2], outcount;
  MPI_Waitany(2, rs, &index, &st);
  MPI_Waitany(2, rs, &index, &st);
  MPI_Irecv(&b, 1, MPI_INT, peer, 4, MPI_COMM_WORLD, &rs[0]);
  MPI_Isend(&a, 1, MPI_INT, peer, 4, MPI_COMM_WORLD, &rs[1]);
  for (int left = 2; left > 0; left -= outcount)
    MPI_Waitsome(2, rs, &outcount, done, MPI_STATUSES_IGNORE);
  MPI_Irecv(&b, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &r);
  MPI_Send(&a, 1, MPI_INT, peer, 5, MPI_COMM_WORLD);
  for (flag = 0; !flag;)
    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);

  /* MPI_Request_free: an active send, then a complete one. */
  MPI_Isend(&a, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, &r);
  MPI_Request_free(&r);
  MPI_Recv(&b, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Isend(&a, 1, MPI_INT, MPI_PROC_NULL, 6, MPI_COMM_WORLD, &r);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Request_free(&r);

  /* MPI_Cancel of a receive never matched, then MPI_Wait. */
  MPI_Irecv(&b, 1, MPI_INT, peer, 60, MPI_COMM_WORLD, &r);
  MPI_Cancel(&r);
  MPI_Wait(&r, &st);

  /* Persistent requests: MPI_Startall and MPI_Start, three rounds each. */
  MPI_Recv_init(&b, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &rs[0]);
  MPI_Send_init(&a, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &rs[1]);
  for (int i = 0; i < 3; i++) {
    MPI_Startall(2, rs);
    MPI_Waitall(2, rs, MPI_STATUSES_IGNORE);
  }
  for (int i = 0; i < 3; i++) {
    MPI_Start(&rs[0]);
    MPI_Start(&rs[1]);
    for (flag = 0; !flag;)
      MPI_Testall(2, rs, &flag, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&rs[0]);
  MPI_Request_free(&rs[1]);

  /* Nonblocking and persistent collectives. */
  MPI_Ibarrier(MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Iallreduce(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Allreduce_init(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
  for (int i = 0; i < 2; i++) {
    MPI_Start(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&r);

  /* Partitioned communication, two epochs. */
  if (rank == 0)
    MPI_Psend_init(c, 2, 1, MPI_INT, peer, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
  else
    MPI_Precv_init(c, 2, 1, MPI_INT, peer, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
  for (int i = 0; i < 2; i++) {
    MPI_Start(&r);
    if (rank == 0) {
      MPI_Pready(1, r);
      MPI_Pready(0, r);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&r);

  /* Request-based RMA in a passive-target epoch. */
  int window_buffer = 0;
  MPI_Win win;
  MPI_Win_create(&window_buffer, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_lock_all(0, win);
  MPI_Rput(&a, 1, MPI_INT, peer, 0, 1, MPI_INT, win, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Rget(&b, 1, MPI_INT, peer, 0, 1, MPI_INT, win, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);

  /* MPI_Imrecv, MPI_Isendrecv, MPI_Comm_idup, MPI_PROC_NULL, generalized. */
  MPI_Send(&a, 1, MPI_INT, peer, 9, MPI_COMM_WORLD);
  MPI_Message message;
  MPI_Mprobe(peer, 9, MPI_COMM_WORLD, &message, MPI_STATUS_IGNORE);
  MPI_Imrecv(&b, 1, MPI_INT, &message, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Isendrecv(&a, 1, MPI_INT, peer, 10, &b, 1, MPI_INT, peer, 10, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Comm dup;
  MPI_Comm_idup(MPI_COMM_WORLD, &dup, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Comm_free(&dup);
  MPI_Irecv(&b, 1, MPI_INT, MPI_PROC_NULL, 11, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Grequest_start(query_fn, free_fn, cancel_fn, NULL, &r);
  MPI_Grequest_complete(r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);

  if (leave && rank == 1) {
    MPI_Request never, started;
    MPI_Irecv(&b, 1, MPI_INT, peer, 90, MPI_COMM_WORLD, &never);
    MPI_Recv_init(c, 1, MPI_INT, peer, 91, MPI_COMM_WORLD, &started);
    MPI_Start(&started);
  }
  MPI_Finalize();
  return 0;
}

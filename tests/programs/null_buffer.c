/* A null buffer with data is MPI_ERR_BUFFER in every kind of call (send,
 * receive, collectives, RMA), never a crash inside the library; MPI_BOTTOM
 * (also null) with a datatype of absolute addresses is a valid buffer
 * (MPI-4.1 §5.1.12). With the argument "fatal", rank 1's null MPI_Send ends
 * the run under the default MPI_ERRORS_ARE_FATAL. */
#include "check.h"

#include <string.h>

static int error_class(int err)
{
  int cls = err;
  MPI_Error_class(err, &cls);
  return cls;
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int peer = 1 - rank;
  if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
    if (rank == 1)
      MPI_Send(NULL, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int counts[2] = {4, 4}, displs[2] = {0, 4}, data[8] = {0};
  MPI_Request request;
  CHECK(error_class(MPI_Send(NULL, 4, MPI_INT, peer, 0, MPI_COMM_WORLD)) == MPI_ERR_BUFFER, "MPI_Send");
  CHECK(error_class(MPI_Isend(NULL, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, &request)) == MPI_ERR_BUFFER, "MPI_Isend");
  CHECK(error_class(MPI_Recv(NULL, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)) == MPI_ERR_BUFFER,
        "MPI_Recv");
  CHECK(error_class(MPI_Bcast(NULL, 4, MPI_INT, 0, MPI_COMM_WORLD)) == MPI_ERR_BUFFER, "MPI_Bcast");
  CHECK(error_class(MPI_Allreduce(data, NULL, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) == MPI_ERR_BUFFER,
        "MPI_Allreduce");
  CHECK(error_class(MPI_Allgatherv(data, 4, MPI_INT, NULL, counts, displs, MPI_INT, MPI_COMM_WORLD)) ==
            MPI_ERR_BUFFER, "MPI_Allgatherv");
  CHECK(error_class(MPI_Alltoallv(NULL, counts, displs, MPI_INT, data, counts, displs, MPI_INT, MPI_COMM_WORLD)) ==
            MPI_ERR_BUFFER, "MPI_Alltoallv");
  CHECK(error_class(MPI_Reduce_scatter(NULL, data, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) == MPI_ERR_BUFFER,
        "MPI_Reduce_scatter");
  /* Zero items at a null buffer move nothing: valid. */
  CHECK(MPI_Bcast(NULL, 0, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Bcast of 0 items");

  MPI_Win win;
  MPI_Win_create(data, sizeof data, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Win_fence(0, win);
  CHECK(error_class(MPI_Put(NULL, 4, MPI_INT, peer, 0, 4, MPI_INT, win)) == MPI_ERR_BUFFER, "MPI_Put");
  CHECK(error_class(MPI_Get(NULL, 4, MPI_INT, peer, 0, 4, MPI_INT, win)) == MPI_ERR_BUFFER, "MPI_Get");
  int one = 1;
  CHECK(error_class(MPI_Fetch_and_op(&one, NULL, MPI_INT, peer, 0, MPI_SUM, win)) == MPI_ERR_BUFFER,
        "MPI_Fetch_and_op");
  CHECK(error_class(MPI_Compare_and_swap(&one, NULL, data, MPI_INT, peer, 0, win)) == MPI_ERR_BUFFER,
        "MPI_Compare_and_swap");
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);

  /* MPI_BOTTOM with absolute addresses: a valid exchange. */
  int value = 40 + rank, got = -1;
  MPI_Aint address;
  MPI_Datatype absolute_send, absolute_recv;
  int one_block = 1;
  MPI_Get_address(&value, &address);
  MPI_Type_create_hindexed(1, &one_block, &address, MPI_INT, &absolute_send);
  MPI_Type_commit(&absolute_send);
  MPI_Get_address(&got, &address);
  MPI_Type_create_hindexed(1, &one_block, &address, MPI_INT, &absolute_recv);
  MPI_Type_commit(&absolute_recv);
  CHECK(MPI_Sendrecv(MPI_BOTTOM, 1, absolute_send, peer, 1, MPI_BOTTOM, 1, absolute_recv, peer, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_Sendrecv with MPI_BOTTOM");
  CHECK(got == 40 + peer, "MPI_BOTTOM exchange: got %d", got);
  MPI_Type_free(&absolute_send);
  MPI_Type_free(&absolute_recv);
  finish("null buffers");
  MPI_Finalize();
  return 0;
}

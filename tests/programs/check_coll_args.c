/* Argument agreement of the collectives (MPI-4.1 chapter 6), one
 * disagreement per mode on 3 ranks, each of which completes in progsim (the
 * sizes agree or the receive is larger), erroneous:
 *   root     MPI_Bcast with root 0 at ranks 0 and 1 but root 2 at rank 2
 *            (§6.4; rank 2's broadcast of its buffer is eager);
 *   op       MPI_Allreduce with MPI_SUM at ranks 0 and 1, MPI_MAX at rank 2;
 *   inplace  MPI_Allreduce with MPI_IN_PLACE at rank 0 only (§6.9.6);
 *   bcast    MPI_Bcast of 4 MPI_FLOAT at the root, 4 MPI_INT at rank 2;
 *   gather   MPI_Gather: rank 2 sends 2 MPI_INT, the root receives 2 MPI_FLOAT;
 *   alltoall MPI_Alltoall: rank 1 sends 1 MPI_INT per peer, the others
 *            receive 2 (a shorter portion is an error for collectives);
 *   reduce   MPI_Reduce of 1 MPI_INT at rank 2, 2 MPI_INT elsewhere;
 *   scatterv MPI_Scatterv: the root sends 3 MPI_INT to rank 2, which receives 3 MPI_FLOAT.
 * "good" runs every one of them correctly, with what agreement allows:
 * MPI_IN_PLACE at every member or at the root only, a derived type with the
 * root's signature, MPI_INT32_T for MPI_INT, MPI_BYTE on one side. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int is(const char* mode, const char* name)
{
  return strcmp(mode, name) == 0;
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "good";
  int good = is(mode, "good");
  int last = rank == size - 1;
  int ibuf[16] = {0}, iout[16] = {0};
  float fbuf[16] = {0};

  if (good || is(mode, "root")) {
    int root = is(mode, "root") && last ? 2 : 0;
    MPI_Bcast(ibuf, 1, MPI_INT, root, MPI_COMM_WORLD);
  }
  if (good || is(mode, "op")) {
    MPI_Op op = is(mode, "op") && last ? MPI_MAX : MPI_SUM;
    MPI_Allreduce(ibuf, iout, 2, MPI_INT, op, MPI_COMM_WORLD);
  }
  if (good || is(mode, "inplace")) {
    int in_place = good || rank == 0;
    MPI_Allreduce(in_place ? MPI_IN_PLACE : ibuf, iout, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  if (good || is(mode, "bcast")) {
    if (rank == 0 || good)
      MPI_Bcast(fbuf, 4, MPI_FLOAT, 0, MPI_COMM_WORLD);
    else
      MPI_Bcast(ibuf, 4, last ? MPI_INT : MPI_FLOAT, 0, MPI_COMM_WORLD);
  }
  if (good || is(mode, "gather")) {
    if (rank == 0)
      MPI_Gather(MPI_IN_PLACE, 2, MPI_FLOAT, fbuf, 2, MPI_FLOAT, 0, MPI_COMM_WORLD);
    else
      MPI_Gather(fbuf, 2, last && !good ? MPI_INT : MPI_FLOAT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
  }
  if (good || is(mode, "alltoall")) {
    int send = !good && rank == 1 ? 1 : 2;
    MPI_Alltoall(ibuf, send, MPI_INT, iout, 2, MPI_INT, MPI_COMM_WORLD);
  }
  if (good || is(mode, "reduce")) {
    int count = !good && last ? 1 : 2;
    MPI_Reduce(ibuf, iout, count, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  }
  if (good || is(mode, "scatterv")) {
    int counts[3] = {1, 2, 3}, displs[3] = {0, 1, 3};
    MPI_Datatype mine = !good && rank == 2 ? MPI_FLOAT : MPI_INT;
    MPI_Scatterv(ibuf, counts, displs, MPI_INT, iout, rank + 1, mine, 0, MPI_COMM_WORLD);
  }
  if (good) {  /* what agreement allows */
    MPI_Datatype four;
    MPI_Type_contiguous(4, MPI_INT, &four);
    MPI_Type_commit(&four);
    if (rank == 0)
      MPI_Bcast(ibuf, 8, MPI_INT, 0, MPI_COMM_WORLD);
    else
      MPI_Bcast(ibuf, 2, four, 0, MPI_COMM_WORLD);        /* the same signature */
    MPI_Allreduce(ibuf, iout, 2, rank == 1 ? MPI_INT32_T : MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, iout, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgather(ibuf, 1, MPI_INT, iout, rank == 0 ? 4 : 1, rank == 0 ? MPI_BYTE : MPI_INT, MPI_COMM_WORLD);
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, iout, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Type_free(&four);
  }
  printf("rank %d: done\n", rank);
  MPI_Finalize();
  return 0;
}

/* A forced collective algorithm (--cfg coll-<name>=...) and the calls it
 * does not apply to. The first argument picks the call:
 *   noncommutative  MPI_Allreduce with a non-commutative user operation
 *   one_item        MPI_Allreduce of 1 item (MPI_SUM)
 *   persistent      MPI_Allreduce_init with the non-commutative operation,
 *                   then MPI_Start
 *   library         MPI_Comm_split and MPI_Comm_dup (their context id
 *                   agreement is an allreduce of 1 item that the library
 *                   makes for itself), then an MPI_Allreduce of 64 items. */
#include "check.h"

#include <string.h>

static void first_op(void* in, void* inout, int* len, MPI_Datatype* type)
{
  (void)type;
  for (int i = 0; i < *len; ++i)
    ((int*)inout)[i] = ((int*)in)[i]; /* a op b = a: not commutative */
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* what = argc > 1 ? argv[1] : "";
  MPI_Op first;
  MPI_Op_create(first_op, 0, &first);
  int in[64], out[64];
  for (int i = 0; i < 64; ++i)
    in[i] = rank + i;
  if (strcmp(what, "noncommutative") == 0) {
    MPI_Allreduce(in, out, 64, MPI_INT, first, MPI_COMM_WORLD);
  } else if (strcmp(what, "one_item") == 0) {
    MPI_Allreduce(in, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  } else if (strcmp(what, "persistent") == 0) {
    MPI_Request r;
    MPI_Allreduce_init(in, out, 64, MPI_INT, first, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
  } else if (strcmp(what, "library") == 0) {
    MPI_Comm half, dup;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_dup(half, &dup);
    MPI_Allreduce(in, out, 64, MPI_INT, MPI_SUM, dup);
    int half_size;
    MPI_Comm_size(dup, &half_size);
    CHECK(out[0] == (rank % 2 == 0 ? 0 + 2 : 1 + 3) && half_size == 2, "allreduce on the split: %d", out[0]);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
  }
  printf("rank %d: after the collective\n", rank);
  MPI_Op_free(&first);
  finish("coll_forced");
  MPI_Finalize();
  return 0;
}

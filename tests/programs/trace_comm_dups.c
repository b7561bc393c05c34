/* The duplications a trace records with their info and nonblocking forms
 * (issue 19): MPI_Comm_dup_with_info, MPI_Comm_idup, MPI_Comm_idup_with_info.
 * Messages of the same source and tag go on a communicator and its
 * duplicate and are received in the other order with different sizes: a
 * replay whose duplicate had the parent's context would match the wrong
 * one (MPI_ERR_TRUNCATE). Rank 0 makes its nonblocking duplicate late,
 * after receiving from every other rank, which send after theirs (an idup
 * does not synchronize, MPI-4.1 §7.4.2); the requests complete by
 * MPI_Wait, MPI_Test and MPI_Waitall. */
#include "check.h"

#include <string.h>

/* Rank 0 sends 8 ints on `a`, then 4 on `b`, same tag; rank 1 receives
 * from `b` first. */
static void crossed(int rank, MPI_Comm a, MPI_Comm b, const char* what)
{
  int big[8] = {0}, small[4] = {0};
  if (rank == 0) {
    MPI_Send(big, 8, MPI_INT, 1, 5, a);
    MPI_Send(small, 4, MPI_INT, 1, 5, b);
  } else if (rank == 1) {
    MPI_Status st;
    int count = -1;
    MPI_Recv(small, 4, MPI_INT, 0, 5, b, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 4, "%s: %d ints from the duplicate", what, count);
    MPI_Recv(big, 8, MPI_INT, 0, 5, a, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 8, "%s: %d ints from the parent", what, count);
  }
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_tag", "true");

  MPI_Comm with_info;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &with_info);
  crossed(rank, MPI_COMM_WORLD, with_info, "dup_with_info");

  MPI_Comm idup;
  MPI_Request req;
  MPI_Comm_idup(with_info, &idup, &req);
  int flag = 0;
  while (!flag)
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
  crossed(rank, with_info, idup, "idup");

  /* Late: rank 0 duplicates after the others' synchronous sends. */
  MPI_Comm late;
  MPI_Request reqs[2];
  int token = rank;
  if (rank == 0) {
    for (int i = 1; i < size; ++i)
      MPI_Recv(&token, 1, MPI_INT, i, 3, idup, MPI_STATUS_IGNORE);
    MPI_Comm_idup_with_info(idup, info, &late, &reqs[0]);
  } else {
    MPI_Comm_idup_with_info(idup, info, &late, &reqs[0]);
    MPI_Ssend(&token, 1, MPI_INT, 0, 3, idup);
  }
  MPI_Ibarrier(idup, &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  crossed(rank, idup, late, "idup_with_info");
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, late);
  CHECK(sum == size * (size - 1) / 2, "allreduce on the late duplicate %d", sum);

  MPI_Comm idup_plain;
  MPI_Comm_idup(late, &idup_plain, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  crossed(rank, late, idup_plain, "idup of a late one");

  MPI_Comm_free(&idup_plain);
  MPI_Comm_free(&late);
  MPI_Comm_free(&idup);
  MPI_Comm_free(&with_info);
  MPI_Info_free(&info);
  finish("trace_comm_dups");
  MPI_Finalize();
  return 0;
}

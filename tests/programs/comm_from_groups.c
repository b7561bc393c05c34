/* Communicator constructors collective over a group only, on 8 ranks:
 *  - 60 successive MPI_Comm_create_group calls with the same tag over
 *    pseudo-random subgroups of MPI_COMM_WORLD (processes of different
 *    groups are in different calls at the same time), each followed by an
 *    allreduce on the new communicator;
 *  - MPI_Comm_create_from_group on the even and on the odd ranks at the same
 *    time (string tags tell them apart), with the given error handler;
 *  - MPI_Intercomm_create_from_groups between evens and odds: sizes,
 *    point-to-point across, MPI_Intercomm_merge. */
#include "check.h"

static unsigned next_random(unsigned* state)
{
  *state = *state * 1103515245u + 12345u;
  return (*state >> 16) & 0x7fff;
}

static void random_subgroups(int rank, int size, MPI_Group world)
{
  unsigned state = 7;
  for (int loop = 0; loop < 60; ++loop) {
    int ranks[8], count = 0, mine = 0, sum = 0;
    for (int i = 0; i < size; ++i)
      if (next_random(&state) % 2) {
        ranks[count++] = i;
        sum += i;
        mine |= i == rank;
      }
    MPI_Group sub;
    MPI_Group_incl(world, count, ranks, &sub);
    if (mine) {
      MPI_Comm c;
      MPI_Comm_create_group(MPI_COMM_WORLD, sub, 0, &c);
      int csize = -1, total = -1;
      MPI_Comm_size(c, &csize);
      MPI_Allreduce(&rank, &total, 1, MPI_INT, MPI_SUM, c);
      CHECK(csize == count && total == sum, "loop %d: size %d (want %d), sum %d (want %d)", loop, csize, count, total,
            sum);
      MPI_Comm_free(&c);
    }
    MPI_Group_free(&sub);
  }
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 8, "needs 8 ranks, has %d", size);
  MPI_Group world, evens, odds;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  random_subgroups(rank, size, world);

  int even_ranks[4] = {0, 2, 4, 6}, odd_ranks[4] = {1, 3, 5, 7};
  MPI_Group_incl(world, 4, even_ranks, &evens);
  MPI_Group_incl(world, 4, odd_ranks, &odds);
  MPI_Group mine = rank % 2 ? odds : evens, other = rank % 2 ? evens : odds;

  MPI_Comm half;
  MPI_Comm_create_from_group(mine, rank % 2 ? "odds" : "evens", MPI_INFO_NULL, MPI_ERRORS_RETURN, &half);
  int hrank = -1, hsize = -1, sum = -1;
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_size(half, &hsize);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
  CHECK(hrank == rank / 2 && hsize == 4 && sum == (rank % 2 ? 16 : 12), "half: rank %d size %d sum %d", hrank, hsize,
        sum);
  MPI_Errhandler eh;
  MPI_Comm_get_errhandler(half, &eh);
  CHECK(eh == MPI_ERRORS_RETURN, "the error handler given is attached");
  MPI_Comm_free(&half);

  MPI_Comm inter;
  MPI_Intercomm_create_from_groups(mine, 0, other, 0, "across", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &inter);
  int is_inter = 0, rsize = -1, irank = -1;
  MPI_Comm_test_inter(inter, &is_inter);
  MPI_Comm_remote_size(inter, &rsize);
  MPI_Comm_rank(inter, &irank);
  CHECK(is_inter && rsize == 4 && irank == rank / 2, "intercomm: %d %d %d", is_inter, rsize, irank);
  /* Rank i of one side exchanges with rank i of the other. */
  int got = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, irank, 5, &got, 1, MPI_INT, irank, 5, inter, MPI_STATUS_IGNORE);
  CHECK(got == (rank ^ 1), "across: got %d", got);
  MPI_Comm merged;
  MPI_Intercomm_merge(inter, rank % 2, &merged);
  int mrank = -1;
  MPI_Comm_rank(merged, &mrank);
  CHECK(mrank == (rank % 2) * 4 + rank / 2, "merged rank %d", mrank);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Group_free(&evens);
  MPI_Group_free(&odds);
  MPI_Group_free(&world);
  finish("comm_from_groups");
  MPI_Finalize();
  return 0;
}

/* Argument agreement of intercommunicator collectives (MPI-4.1 §6.2.2): in
 * a rooted collective the root passes MPI_ROOT, the rest of its group
 * MPI_PROC_NULL and every member of the other group the root's rank; the
 * portions that pair across the two groups have equal type signatures.
 * World ranks 0-1 form group A, 2-3 group B. argv[1] picks the
 * collective, argv[2] is "bad" or "good" (the twin that differs in one
 * argument of one rank).
 *   gather     A's rank 0 gathers 2 MPI_INT from each member of B; B's
 *              rank 1 sends 2 MPI_FLOAT (bad)
 *   allreduce  every member passes 4 MPI_INT, world rank 3 4 MPI_FLOAT (bad)
 *   bcast      A's rank 0 broadcasts; B names A's rank 1, which passed
 *              MPI_PROC_NULL, as the root (bad; it never gets the data) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, lrank;
  MPI_Comm local, inter;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int low = rank < 2;
  MPI_Comm_split(MPI_COMM_WORLD, low, rank, &local);
  MPI_Comm_rank(local, &lrank);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? 2 : 0, 7, &inter);
  const char* mode = argc > 1 ? argv[1] : "";
  int bad = argc > 2 && strcmp(argv[2], "bad") == 0;
  if (strcmp(mode, "gather") == 0) {
    int mine[2] = {rank, rank + 10}, all[4] = {0, 0, 0, 0};
    if (low)
      MPI_Gather(NULL, 0, MPI_INT, all, 2, MPI_INT, lrank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
    else
      MPI_Gather(mine, 2, bad && lrank == 1 ? MPI_FLOAT : MPI_INT, NULL, 0, MPI_INT, 0, inter);
    if (rank == 0)
      printf("rank 0: %d %d %d\n", all[0], all[1], all[2]);
  } else if (strcmp(mode, "allreduce") == 0) {
    int in[4] = {rank, rank, rank, rank}, out[4] = {0, 0, 0, 0};
    MPI_Allreduce(in, out, 4, bad && rank == 3 ? MPI_FLOAT : MPI_INT, MPI_SUM, inter);
    if (rank == 0)
      printf("rank 0: %d\n", out[0]);
  } else if (strcmp(mode, "bcast") == 0) {
    int buf[4] = {rank, rank, rank, rank};
    if (low)
      MPI_Bcast(buf, 4, MPI_INT, lrank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
    else
      MPI_Bcast(buf, 4, MPI_INT, bad ? 1 : 0, inter);
    printf("rank %d: %d\n", rank, buf[0]);
  } else if (strcmp(mode, "reduce_scatter") == 0) {
    /* Each group's 4 items reduced and scattered, 2 per member, over the
     * other group; world rank 3 passes MPI_FLOAT (bad). */
    int in[4] = {rank, rank, rank, rank}, out[2] = {0, 0}, counts[2] = {2, 2};
    MPI_Reduce_scatter(in, out, counts, bad && rank == 3 ? MPI_FLOAT : MPI_INT, MPI_SUM, inter);
    if (rank == 0)
      printf("rank 0: %d %d\n", out[0], out[1]);
  }
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  MPI_Finalize();
  return 0;
}

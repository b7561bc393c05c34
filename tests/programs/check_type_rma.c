/* Type matching of one-sided operations (MPI-4.1 §12.3.1, §12.3.2): a put
 * is as if the origin sent and the target received, a get the reverse; the
 * origin's and the target's type signatures must be equal.
 * "bad": rank 0 puts 4 MPI_FLOAT into rank 1's window described as 4
 * MPI_INT (the sizes agree, so the data moves): a type mismatch at the
 * target. "good": the same put with MPI_FLOAT on both sides, and a get of 4
 * MPI_INT into a contiguous type of 2 x 2 MPI_INT. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bad = argc > 1 && strcmp(argv[1], "bad") == 0;
  int memory[8] = {0};
  MPI_Win win;
  MPI_Win_create(memory, sizeof memory, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  float f[4] = {1, 2, 3, 4};
  int got[4] = {0};
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Win_fence(0, win);
  if (rank == 0) {
    MPI_Put(f, 4, MPI_FLOAT, 1, 0, 4, bad ? MPI_INT : MPI_FLOAT, win);
    MPI_Get(got, 2, pair, 1, 16, 4, MPI_INT, win);
  }
  MPI_Win_fence(0, win);
  MPI_Type_free(&pair);
  MPI_Win_free(&win);
  printf("rank %d: done\n", rank);
  MPI_Finalize();
  return 0;
}

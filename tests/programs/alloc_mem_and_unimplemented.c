/* MPI_Alloc_mem / MPI_Free_mem (usable memory, MPI_ERR_BASE for foreign
 * pointers under MPI_ERRORS_RETURN), then a procedure progsim does not
 * implement yet: the run must end with a message naming the rank, the
 * procedure and the missing area, not with a link error or a crash. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* block = NULL;
  MPI_Alloc_mem(1 << 20, MPI_INFO_NULL, &block);
  memset(block, rank + 1, 1 << 20);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int local = 0;
  int err = MPI_Free_mem(&local);
  int error_class = -1;
  MPI_Error_class(err, &error_class);
  printf("rank %d: block[12345]=%d, free of a stack address -> %s\n", rank, block[12345],
         error_class == MPI_ERR_BASE ? "MPI_ERR_BASE" : "wrong class");
  MPI_Free_mem(block);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_File file;
    MPI_File_open(MPI_COMM_SELF, "out.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &file);
  }
  MPI_Finalize();
  return 0;
}

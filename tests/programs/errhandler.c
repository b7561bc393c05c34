/* MPI_ERRORS_RETURN returns error codes; MPI_Error_string describes them;
 * then, back to MPI_ERRORS_ARE_FATAL, an invalid communicator aborts. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  int rank, size, len, cls;
  char text[MPI_MAX_ERROR_STRING];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int err = MPI_Comm_size(MPI_COMM_NULL, &size);
  MPI_Error_class(err, &cls);
  MPI_Error_string(err, text, &len);
  if (rank == 0)
    printf("returned %s (class is MPI_ERR_COMM: %d)\n", text, cls == MPI_ERR_COMM);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1)
    MPI_Comm_size(MPI_COMM_NULL, &size);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}

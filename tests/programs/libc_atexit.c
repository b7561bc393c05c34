/* atexit and on_exit handlers run when their rank exits (returns from main
 * or calls exit), in reverse order of registration, with that rank's
 * globals, not when progsim does. With argv[1] = _exit or quick_exit, rank 2
 * leaves by that call instead of exit, and its handlers do not run. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int my_rank = -1;

static void first(void)
{
  printf("rank %d: exit handler 1\n", my_rank);
}

static void second(void)
{
  printf("rank %d: exit handler 2\n", my_rank);
}

static void with_status(int status, void* argument)
{
  printf("rank %d: on_exit handler, status %d, %s\n", my_rank, status, (const char*)argument);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  atexit(first);
  on_exit(with_status, "argument kept");
  atexit(second);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  if (my_rank == 2) {
    const char* how = argc > 1 ? argv[1] : "exit";
    printf("rank %d: calls %s(0)\n", my_rank, how);
    fflush(stdout); /* _exit and quick_exit do not flush */
    if (!strcmp(how, "_exit"))
      _exit(0);
    if (!strcmp(how, "quick_exit"))
      quick_exit(0);
    exit(0);
  }
  printf("rank %d: returns from main\n", my_rank);
  return 0;
}

/* A rank forks a child (robust-threads): rank 1 sleeps 1 ms (simulated),
 * forks, and waits for the child with waitpid, then prints how the child
 * ended and sends to rank 0, which waits for that message in MPI_Recv. The
 * child is not an MPI process: it may run plain code, exec or exit, and
 * must never go on with the run. The child, by argv[1]:
 *   exec     execs /bin/true (the correct use, with _exit and exit)
 *   _exit    _exit(7)
 *   exit     exit(7) (runs the rank's exit handlers: one prints to stderr)
 *   return   returns 5 from main
 *   sleep    sleeps 1 s of host time, reads the clock, then _exit(0)
 *   mpi      calls MPI_Send, as if it were rank 1
 *   finalize goes on like its parent, into MPI_Finalize
 *   segv     stores through a null pointer */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

static void child_exit_handler(void)
{
  fprintf(stderr, "child: exit handler\n");
}

int main(int argc, char **argv)
{
  int rank, value = 42;
  const char *mode = argc > 1 ? argv[1] : "exec";
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
    usleep(1000);
    pid_t pid = fork();
    if (pid == 0) {
      if (!strcmp(mode, "exec")) {
        execl("/bin/true", "true", (char *)NULL);
        _exit(127);
      } else if (!strcmp(mode, "_exit")) {
        _exit(7);
      } else if (!strcmp(mode, "exit")) {
        atexit(child_exit_handler);
        exit(7);
      } else if (!strcmp(mode, "return")) {
        return 5;
      } else if (!strcmp(mode, "sleep")) {
        struct timeval before, after;
        gettimeofday(&before, NULL);
        sleep(1);
        gettimeofday(&after, NULL);
        _exit(after.tv_sec - before.tv_sec >= 1 && before.tv_sec > 1000000 ? 0 : 9);
      } else if (!strcmp(mode, "mpi")) {
        MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        _exit(0);
      } else if (!strcmp(mode, "segv")) {
        *(volatile int *)(long)sink = 1;
      }
      /* finalize: on as the parent (and segv, were it to survive) */
    } else {
      int status = 0;
      waitpid(pid, &status, 0);
      if (WIFEXITED(status))
        printf("rank 1: the child exited with status %d\n", WEXITSTATUS(status));
      else if (WIFSIGNALED(status))
        printf("rank 1: the child died of signal %d\n", WTERMSIG(status));
    }
    MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Recv(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank 0 received %d\n", value);
  }
  MPI_Finalize();
  return 0;
}

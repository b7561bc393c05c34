/* A rank's own thread ends its process (robust-threads): rank 1 sleeps 1 ms
 * (simulated), creates a thread that does argv[1] and joins it, then sends
 * to rank 0, which waits for that message in MPI_Recv.
 *   none        the thread computes and returns (the correct twin)
 *   segv        a store through a null pointer
 *   abort       abort()
 *   usr1        raise(SIGUSR1), whose default action ends a process
 *   overflow    unbounded recursion: the thread's stack overflows
 *   nested      the thread creates a thread that stores through null
 *   exit        exit(3): rank 1 ends without MPI_Finalize
 *   _exit       _exit(3), idem without exit handlers
 *   quick_exit  quick_exit(3), idem
 *   finalized   rank 1 finalizes first, then its thread calls exit(4)
 * An atexit handler of rank 1 says when it runs. */
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *mode;
static volatile int sink;

static int recurse(int depth)
{
  volatile char pad[1024];
  if (sink == -1)  /* never: keeps the compiler from calling the recursion infinite */
    return 0;
  pad[0] = (char)depth;
  return recurse(depth + 1) + pad[0];
}

static void *store_null(void *arg)
{
  (void)arg;
  *(volatile int *)(long)sink = 1;
  return NULL;
}

static void *worker(void *arg)
{
  (void)arg;
  if (!strcmp(mode, "segv")) {
    store_null(NULL);
  } else if (!strcmp(mode, "abort")) {
    abort();
  } else if (!strcmp(mode, "usr1")) {
    raise(SIGUSR1);
  } else if (!strcmp(mode, "overflow")) {
    sink = recurse(0);
  } else if (!strcmp(mode, "nested")) {
    pthread_t inner;
    pthread_create(&inner, NULL, store_null, NULL);
    pthread_join(inner, NULL);
  } else if (!strcmp(mode, "exit") || !strcmp(mode, "finalized")) {
    exit(!strcmp(mode, "exit") ? 3 : 4);
  } else if (!strcmp(mode, "_exit")) {
    _exit(3);
  } else if (!strcmp(mode, "quick_exit")) {
    quick_exit(3);
  } else {
    for (int i = 0; i < 1000; ++i)
      sink += i;
  }
  return NULL;
}

static void say_exit(void)
{
  printf("rank 1: exit handler\n");
}

static void run_thread(void)
{
  pthread_t thread;
  pthread_create(&thread, NULL, worker, NULL);
  pthread_join(thread, NULL);
}

int main(int argc, char **argv)
{
  int rank, value = 42;
  mode = argc > 1 ? argv[1] : "none";
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
    atexit(say_exit);
    usleep(1000);
    if (!strcmp(mode, "finalized")) {
      MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
      MPI_Finalize();
      run_thread();
      return 0;
    }
    run_thread();
    printf("rank 1: thread joined\n");
    MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Recv(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank 0 received %d\n", value);
  }
  MPI_Finalize();
  return 0;
}

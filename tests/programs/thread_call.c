/* Rank 1 creates a thread that calls MPI_Send while the main thread waits in
 * pthread_join; rank 0 waits for the message. progsim provides at most
 * MPI_THREAD_FUNNELED, so the call is erroneous (MPI-4.1 §11.6): a fatal,
 * named error. With the argument "init", MPI_Init (MPI_THREAD_SINGLE) is used
 * instead of MPI_Init_thread(MPI_THREAD_MULTIPLE). MPI_Is_thread_main says 0
 * in the thread (any thread may call it). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void* worker(void* arg)
{
  (void)arg;
  int value = 42, main_thread = -1;
  MPI_Is_thread_main(&main_thread);
  printf("worker: MPI_Is_thread_main says %d\n", main_thread);
  fflush(stdout);
  MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  printf("worker: MPI_Send returned\n");
  return NULL;
}

int main(int argc, char** argv)
{
  int rank, provided = -1;
  if (argc > 1 && strcmp(argv[1], "init") == 0)
    MPI_Init(&argc, &argv);
  else
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
    pthread_t thread;
    pthread_create(&thread, NULL, worker, NULL);
    pthread_join(thread, NULL);
  } else if (rank == 0) {
    int value = 0;
    MPI_Recv(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank 0 received %d\n", value);
  }
  MPI_Finalize();
  return 0;
}

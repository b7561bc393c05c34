/* MPI_Finalize first deletes the attributes of MPI_COMM_SELF, calling their
 * delete callbacks (MPI-4.1 §11.2.4). Here rank 0's callback sends 8 MiB with
 * MPI_Bsend to rank 1, which computes 2 s and then receives: a decoupled
 * activity created inside MPI_Finalize, which must still execute it before
 * it ends (the rendezvous of the buffered data needs rank 0's library). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N (8 * 1024 * 1024)
static char* data;

static int send_on_delete(MPI_Comm comm, int keyval, void* value, void* extra)
{
  (void)comm, (void)keyval, (void)value, (void)extra;
  printf("rank 0: MPI_COMM_SELF's delete callback runs in MPI_Finalize at %.6f s: MPI_Bsend of 8 MiB\n", MPI_Wtime());
  return MPI_Bsend(data, N, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
}

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  data = calloc(N, 1);
  if (rank == 0) {
    int size = N + MPI_BSEND_OVERHEAD, keyval;
    MPI_Buffer_attach(malloc(size), size);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, send_on_delete, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
  } else if (rank == 1) {
    sleep(2);
    MPI_Recv(data, N, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank 1: received the callback's message at %.3f s\n", MPI_Wtime());
  }
  MPI_Finalize();
  free(data);
  return 0;
}

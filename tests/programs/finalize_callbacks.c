/* MPI_Finalize first deletes the attributes of MPI_COMM_SELF (MPI-4.1
 * §11.2.4), then completes every decoupled activity, also those the delete
 * callbacks created. argv[1] selects the case:
 *   bsend   rank 0's delete callback MPI_Bsend's 1 MiB (rendezvous) to rank 1,
 *           which waits for it in MPI_Recv: rank 0's MPI_Finalize must move
 *           the data (under weak progress only it can).
 *   order   three attributes set as b, c, a: their callbacks run as a, c, b
 *           (reverse order of setting), MPI not yet finalized in them. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kBytes = 1 << 20 };
static char* payload;
static char order[16];

static int bsend_on_delete(MPI_Comm comm, int keyval, void* value, void* extra)
{
  (void)comm, (void)keyval, (void)value, (void)extra;
  for (int i = 0; i < kBytes; ++i)
    payload[i] = (char)(i % 89);
  printf("rank 0: delete callback sends %d B with MPI_Bsend\n", kBytes);
  return MPI_Bsend(payload, kBytes, MPI_CHAR, 1, 3, MPI_COMM_WORLD);
}

static int note_on_delete(MPI_Comm comm, int keyval, void* value, void* extra)
{
  (void)comm, (void)keyval, (void)extra;
  int finalized = 1;
  MPI_Finalized(&finalized);
  if (!finalized)
    strncat(order, (const char*)value, 1);
  return MPI_SUCCESS;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* what = argc > 1 ? argv[1] : "bsend";
  if (strcmp(what, "bsend") == 0) {
    payload = malloc(kBytes);
    if (rank == 0) {
      int size = kBytes + MPI_BSEND_OVERHEAD;
      MPI_Buffer_attach(malloc((size_t)size), size);
      int keyval;
      MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, bsend_on_delete, &keyval, NULL);
      MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
    } else if (rank == 1) {
      MPI_Status status;
      int count = -1, good = 1;
      MPI_Recv(payload, kBytes, MPI_CHAR, 0, 3, MPI_COMM_WORLD, &status);
      MPI_Get_count(&status, MPI_CHAR, &count);
      for (int i = 0; i < kBytes; ++i)
        good = good && payload[i] == (char)(i % 89);
      printf("rank 1: received %d B from rank 0's delete callback at %.6f, data %s\n", count, MPI_Wtime(),
             good ? "correct" : "WRONG");
    }
  } else if (rank == 0) {
    static const char* const names[] = {"b", "c", "a"};
    for (int i = 0; i < 3; ++i) {
      int keyval;
      MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, note_on_delete, &keyval, NULL);
      MPI_Comm_set_attr(MPI_COMM_SELF, keyval, (void*)names[i]);
    }
  }
  MPI_Finalize();
  if (rank == 0 && strcmp(what, "order") == 0)
    printf("rank 0: delete callbacks ran in the order %s\n", order[0] ? order : "(none)");
  if (rank == 0 && strcmp(what, "bsend") == 0)
    printf("rank 0: finalized\n");
  return 0;
}

/* MPI_Type_free while the type is still in use (MPI-4.1 §5.1.9): a type
 * built from a freed type stays valid; a nonblocking receive or send and a
 * persistent request whose type was freed complete normally, even after
 * many new types were created and reused the freed handles (requests hold
 * the type itself). Run with 2 ranks. */
#include "check.h"

#include <stdlib.h>

#define NEW_TYPES 1000

static void built_from_freed(int rank)
{
  MPI_Datatype base, vec;
  MPI_Type_contiguous(2, MPI_INT, &base);
  MPI_Type_vector(3, 1, 2, base, &vec); /* pairs 0, 2, 4 of 6 pairs */
  MPI_Type_free(&base);
  CHECK(base == MPI_DATATYPE_NULL, "free did not set MPI_DATATYPE_NULL");
  MPI_Type_commit(&vec);
  int size;
  MPI_Type_size(vec, &size);
  CHECK(size == 24, "size of a type built from a freed type: %d", size);
  /* its contents still name an equivalent of the freed type */
  int ni, na, nd, c;
  MPI_Datatype types[1];
  int ints[3];
  MPI_Type_get_envelope(vec, &ni, &na, &nd, &c);
  MPI_Type_get_contents(vec, 3, 0, 1, ints, NULL, types);
  MPI_Type_size(types[0], &size);
  CHECK(c == MPI_COMBINER_VECTOR && size == 8, "constituent of the freed type: size %d", size);
  MPI_Type_free(&types[0]);

  if (rank == 0) {
    int a[12];
    for (int i = 0; i < 12; ++i)
      a[i] = i;
    MPI_Send(a, 1, vec, 1, 0, MPI_COMM_WORLD);
  } else {
    int r[6];
    MPI_Recv(r, 6, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int expect[6] = {0, 1, 4, 5, 8, 9};
    for (int i = 0; i < 6; ++i)
      CHECK(r[i] == expect[i], "r[%d] = %d, expected %d", i, r[i], expect[i]);
  }
  MPI_Type_free(&vec);
}

/* Creates, commits and frees many types, then keeps some. */
static void churn(MPI_Datatype* kept, int nkept)
{
  for (int i = 0; i < NEW_TYPES; ++i) {
    MPI_Datatype t;
    MPI_Type_contiguous(i % 7 + 1, MPI_CHAR, &t);
    MPI_Type_commit(&t);
    MPI_Type_free(&t);
  }
  for (int i = 0; i < nkept; ++i) {
    MPI_Type_vector(5, 1, 1, MPI_INT, &kept[i]);
    MPI_Type_commit(&kept[i]);
  }
}

static void pending_operations(int rank)
{
  MPI_Datatype stride, kept[16];
  MPI_Type_vector(5, 1, 3, MPI_INT, &stride);
  MPI_Type_commit(&stride);
  if (rank == 1) {
    int buf[15];
    for (int i = 0; i < 15; ++i)
      buf[i] = -1;
    MPI_Request req;
    MPI_Irecv(buf, 1, stride, 0, 1, MPI_COMM_WORLD, &req);
    MPI_Type_free(&stride);
    churn(kept, 16);
    MPI_Sendrecv(NULL, 0, MPI_INT, 0, 2, NULL, 0, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Status st;
    MPI_Wait(&req, &st);
    for (int i = 0; i < 15; ++i)
      CHECK(buf[i] == (i % 3 == 0 ? 10 * i : -1), "irecv buf[%d] = %d", i, buf[i]);
    int n;
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 5, "received %d ints", n);
    /* a persistent receive of 5 ints, twice */
    int c[5];
    MPI_Recv_init(c, 5, MPI_INT, 0, 3, MPI_COMM_WORLD, &req);
    for (int round = 0; round < 2; ++round) {
      MPI_Start(&req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      for (int i = 0; i < 5; ++i)
        CHECK(c[i] == 30 * i + round, "persistent round %d: c[%d] = %d", round, i, c[i]);
    }
    MPI_Request_free(&req);
  } else {
    int data[15];
    for (int i = 0; i < 15; ++i)
      data[i] = 10 * i;
    MPI_Sendrecv(NULL, 0, MPI_INT, 1, 2, NULL, 0, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* a nonblocking send whose type is freed before the wait */
    MPI_Request req;
    MPI_Isend(data, 1, stride, 1, 1, MPI_COMM_WORLD, &req);
    MPI_Type_free(&stride);
    churn(kept, 16);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    /* a persistent send whose type is freed between the starts */
    MPI_Datatype every3;
    MPI_Type_vector(5, 1, 2, MPI_INT, &every3);
    MPI_Type_commit(&every3);
    int p[10];
    MPI_Send_init(p, 1, every3, 1, 3, MPI_COMM_WORLD, &req);
    MPI_Type_free(&every3);
    for (int round = 0; round < 2; ++round) {
      for (int i = 0; i < 10; ++i)
        p[i] = i % 2 ? -1 : 15 * i + round;
      MPI_Start(&req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      churn(kept + 8 * round, 0);
    }
    MPI_Request_free(&req);
  }
  for (int i = 0; i < 16; ++i) {
    int size;
    MPI_Type_size(kept[i], &size);
    CHECK(size == 20, "kept[%d] size %d", i, size);
    MPI_Type_free(&kept[i]);
  }
}

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  built_from_freed(rank);
  pending_operations(rank);
  finish("datatype_free_in_use");
  MPI_Finalize();
  return 0;
}

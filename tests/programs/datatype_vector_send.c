/* Derived datatypes in point-to-point messages (MPI-4.1 §5.1): a vector
 * sent and received as contiguous ints and back, resized types in sends of
 * count 3, MPI_Get_count / MPI_Get_elements on partial messages and
 * MPI_Status_set_elements. Run with 2 ranks. */
#include "check.h"

#include <stddef.h>

typedef struct {
  int i;
  double d;
} IntDouble;

/* struct {int; double} with its C layout (extent 16). */
static MPI_Datatype int_double_type(void)
{
  int lens[2] = {1, 1};
  MPI_Aint disps[2] = {offsetof(IntDouble, i), offsetof(IntDouble, d)};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t;
  MPI_Type_create_struct(2, lens, disps, types, &t);
  MPI_Type_commit(&t);
  return t;
}

static void vector_to_contiguous(int rank)
{
  MPI_Datatype vec;
  MPI_Type_vector(4, 2, 3, MPI_INT, &vec); /* ints 0 1 _ 3 4 _ 6 7 _ 9 10 */
  MPI_Type_commit(&vec);
  if (rank == 0) {
    int a[12];
    for (int i = 0; i < 12; ++i)
      a[i] = i;
    MPI_Send(a, 1, vec, 1, 1, MPI_COMM_WORLD);
    /* and back: 8 contiguous ints scattered into the vector layout */
    int b[12];
    for (int i = 0; i < 12; ++i)
      b[i] = -1;
    MPI_Status st;
    MPI_Recv(b, 1, vec, 1, 2, MPI_COMM_WORLD, &st);
    int expect[12] = {100, 101, -1, 102, 103, -1, 104, 105, -1, 106, 107, -1};
    for (int i = 0; i < 12; ++i)
      CHECK(b[i] == expect[i], "b[%d] = %d, expected %d", i, b[i], expect[i]);
    int n;
    MPI_Get_count(&st, vec, &n);
    CHECK(n == 1, "count %d", n);
    MPI_Get_elements(&st, vec, &n);
    CHECK(n == 8, "elements %d", n);
  } else {
    int c[8];
    MPI_Status st;
    MPI_Recv(c, 8, MPI_INT, 0, 1, MPI_COMM_WORLD, &st);
    int expect[8] = {0, 1, 3, 4, 6, 7, 9, 10};
    for (int i = 0; i < 8; ++i)
      CHECK(c[i] == expect[i], "c[%d] = %d, expected %d", i, c[i], expect[i]);
    int n;
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 8, "count %d", n);
    for (int i = 0; i < 8; ++i)
      c[i] = 100 + i;
    MPI_Send(c, 8, MPI_INT, 0, 2, MPI_COMM_WORLD);
  }
  MPI_Type_free(&vec);
  CHECK(vec == MPI_DATATYPE_NULL, "MPI_Type_free did not set MPI_DATATYPE_NULL");
}

static void resized_count3(int rank)
{
  /* one int every 3 ints */
  MPI_Datatype every3, pair, pair4;
  MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &every3);
  MPI_Type_commit(&every3);
  /* ints 0 and 2 of each 4-int block: vector(2,1,2) has extent 3 ints, resized to 4 */
  MPI_Type_vector(2, 1, 2, MPI_INT, &pair);
  MPI_Type_create_resized(pair, 0, 4 * sizeof(int), &pair4);
  MPI_Type_commit(&pair4);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(pair4, &lb, &extent);
  CHECK(lb == 0 && extent == 4 * (MPI_Aint)sizeof(int), "lb %ld extent %ld", (long)lb, (long)extent);
  MPI_Type_get_true_extent(pair4, &lb, &extent);
  CHECK(lb == 0 && extent == 3 * (MPI_Aint)sizeof(int), "true lb %ld extent %ld", (long)lb, (long)extent);
  if (rank == 0) {
    int a[12];
    for (int i = 0; i < 12; ++i)
      a[i] = 10 * i;
    MPI_Send(a, 3, every3, 1, 3, MPI_COMM_WORLD);
    MPI_Send(a, 3, pair4, 1, 4, MPI_COMM_WORLD);
    MPI_Send(a, 3, every3, 1, 5, MPI_COMM_WORLD);
  } else {
    int c[6];
    MPI_Recv(c, 3, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(c[0] == 0 && c[1] == 30 && c[2] == 60, "every3: %d %d %d", c[0], c[1], c[2]);
    MPI_Recv(c, 6, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int expect[6] = {0, 20, 40, 60, 80, 100};
    for (int i = 0; i < 6; ++i)
      CHECK(c[i] == expect[i], "pair4 c[%d] = %d, expected %d", i, c[i], expect[i]);
    /* receive with the resized type: every third int written, others kept */
    int d[9];
    for (int i = 0; i < 9; ++i)
      d[i] = -1;
    MPI_Recv(d, 3, every3, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int expect_d[9] = {0, -1, -1, 30, -1, -1, 60, -1, -1};
    for (int i = 0; i < 9; ++i)
      CHECK(d[i] == expect_d[i], "d[%d] = %d, expected %d", i, d[i], expect_d[i]);
  }
  MPI_Type_free(&every3);
  MPI_Type_free(&pair);
  MPI_Type_free(&pair4);
}

static void partial_messages(int rank)
{
  MPI_Datatype two_ints, id = int_double_type();
  MPI_Type_contiguous(2, MPI_INT, &two_ints);
  MPI_Type_commit(&two_ints);
  if (rank == 0) {
    int five[5] = {1, 2, 3, 4, 5};
    MPI_Send(five, 5, MPI_INT, 1, 6, MPI_COMM_WORLD);
    /* int, double, int: one and a half IntDouble */
    IntDouble s[2] = {{7, 7.5}, {8, 8.5}};
    int lens[3] = {1, 1, 1};
    MPI_Aint disps[3] = {offsetof(IntDouble, i), offsetof(IntDouble, d), sizeof(IntDouble)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_INT}, three;
    MPI_Type_create_struct(3, lens, disps, types, &three);
    MPI_Type_commit(&three);
    MPI_Send(s, 1, three, 1, 7, MPI_COMM_WORLD);
    MPI_Type_free(&three);
  } else {
    int r[8];
    MPI_Status st;
    MPI_Recv(r, 4, two_ints, 0, 6, MPI_COMM_WORLD, &st);
    int n;
    MPI_Count nx;
    MPI_Get_count(&st, two_ints, &n);
    CHECK(n == MPI_UNDEFINED, "count of 5 ints in pairs: %d", n);
    MPI_Get_elements(&st, two_ints, &n);
    CHECK(n == 5, "elements of 5 ints in pairs: %d", n);
    MPI_Get_elements_x(&st, two_ints, &nx);
    CHECK(nx == 5, "elements_x: %lld", nx);
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 5, "count in ints: %d", n);
    CHECK(r[4] == 5, "r[4] = %d", r[4]);

    IntDouble q[2] = {{0, 0}, {0, 0}};
    MPI_Recv(q, 2, id, 0, 7, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, id, &n);
    CHECK(n == MPI_UNDEFINED, "count of int,double,int in IntDouble: %d", n);
    MPI_Get_elements(&st, id, &n);
    CHECK(n == 3, "elements of int,double,int: %d", n);
    CHECK(q[0].i == 7 && q[0].d == 7.5 && q[1].i == 8, "received %d %g %d", q[0].i, q[0].d, q[1].i);
  }

  /* MPI_Status_set_elements with a type of mixed element sizes */
  MPI_Status st;
  MPI_Datatype cd;
  int lens[2] = {1, 1};
  MPI_Aint disps[2] = {0, 8};
  MPI_Datatype types[2] = {MPI_CHAR, MPI_DOUBLE};
  MPI_Type_create_struct(2, lens, disps, types, &cd); /* 9 bytes of data, 2 elements */
  MPI_Type_commit(&cd);
  int expect_bytes[6] = {0, 1, 9, 10, 18, 19};
  for (int k = 0; k < 6; ++k) {
    MPI_Status_set_elements(&st, cd, k);
    int n, bytes, count;
    MPI_Get_elements(&st, cd, &n);
    MPI_Get_count(&st, MPI_BYTE, &bytes);
    MPI_Get_count(&st, cd, &count);
    CHECK(n == k, "set_elements(%d): get_elements %d", k, n);
    CHECK(bytes == expect_bytes[k], "set_elements(%d): %d bytes, expected %d", k, bytes, expect_bytes[k]);
    CHECK(count == (k % 2 ? MPI_UNDEFINED : k / 2), "set_elements(%d): count %d", k, count);
  }
  MPI_Status_set_elements_x(&st, MPI_DOUBLE, 3);
  int n;
  MPI_Get_count(&st, MPI_DOUBLE, &n);
  CHECK(n == 3, "set_elements_x(MPI_DOUBLE, 3): count %d", n);
  MPI_Type_free(&cd);
  MPI_Type_free(&two_ints);
  MPI_Type_free(&id);
}

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  vector_to_contiguous(rank);
  resized_count3(rank);
  partial_messages(rank);
  finish("datatype_vector_send");
  MPI_Finalize();
  return 0;
}

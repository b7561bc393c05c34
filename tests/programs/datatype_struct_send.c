/* A struct datatype whose displacements come from MPI_Get_address, sent
 * between ranks (count 4, resized to the C struct's size), and a message
 * described by absolute addresses sent from MPI_BOTTOM (MPI-4.1 §5.1.5,
 * §5.1.12). Run with 2 ranks. */
#include "check.h"

#include <string.h>

typedef struct {
  int id;
  double pos[3];
  char tag;
} Particle;

static MPI_Datatype particle_type(void)
{
  Particle p;
  MPI_Aint base, disps[3];
  MPI_Get_address(&p, &base);
  MPI_Get_address(&p.id, &disps[0]);
  MPI_Get_address(&p.pos[0], &disps[1]);
  MPI_Get_address(&p.tag, &disps[2]);
  for (int i = 0; i < 3; ++i)
    disps[i] = MPI_Aint_diff(disps[i], base);
  int lens[3] = {1, 3, 1};
  MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, s, t;
  MPI_Type_create_struct(3, lens, disps, types, &s);
  MPI_Type_create_resized(s, 0, sizeof(Particle), &t);
  MPI_Type_free(&s);
  MPI_Type_commit(&t);
  return t;
}

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  MPI_Datatype pt = particle_type();
  int size;
  MPI_Aint lb, extent;
  MPI_Type_size(pt, &size);
  MPI_Type_get_extent(pt, &lb, &extent);
  CHECK(size == 4 + 24 + 1, "size %d", size);
  CHECK(lb == 0 && extent == sizeof(Particle), "lb %ld extent %ld", (long)lb, (long)extent);

  Particle ps[4];
  if (rank == 0) {
    for (int i = 0; i < 4; ++i) {
      ps[i].id = 100 + i;
      for (int k = 0; k < 3; ++k)
        ps[i].pos[k] = i + 0.25 * k;
      ps[i].tag = (char)('a' + i);
    }
    MPI_Send(ps, 4, pt, 1, 0, MPI_COMM_WORLD);
  } else {
    memset(ps, 0, sizeof ps);
    MPI_Status st;
    MPI_Recv(ps, 4, pt, 0, 0, MPI_COMM_WORLD, &st);
    for (int i = 0; i < 4; ++i) {
      CHECK(ps[i].id == 100 + i, "ps[%d].id = %d", i, ps[i].id);
      for (int k = 0; k < 3; ++k)
        CHECK(ps[i].pos[k] == i + 0.25 * k, "ps[%d].pos[%d] = %g", i, k, ps[i].pos[k]);
      CHECK(ps[i].tag == 'a' + i, "ps[%d].tag = %c", i, ps[i].tag);
    }
    int n;
    MPI_Get_count(&st, pt, &n);
    CHECK(n == 4, "count %d", n);
    MPI_Get_elements(&st, pt, &n);
    CHECK(n == 20, "elements %d", n);
  }

  /* Separate variables described by absolute addresses, sent from MPI_BOTTOM. */
  int x;
  double y[2];
  MPI_Aint addr[2];
  MPI_Get_address(&x, &addr[0]);
  MPI_Get_address(y, &addr[1]);
  CHECK(MPI_Aint_add(addr[0], MPI_Aint_diff(addr[1], addr[0])) == addr[1], "MPI_Aint_add/diff");
  int lens[2] = {1, 2};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, abs_type;
  MPI_Type_create_struct(2, lens, addr, types, &abs_type);
  MPI_Type_commit(&abs_type);
  if (rank == 0) {
    x = 42;
    y[0] = 1.5;
    y[1] = -2.5;
    MPI_Send(MPI_BOTTOM, 1, abs_type, 1, 1, MPI_COMM_WORLD);
  } else {
    x = 0;
    y[0] = y[1] = 0;
    MPI_Recv(MPI_BOTTOM, 1, abs_type, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(x == 42 && y[0] == 1.5 && y[1] == -2.5, "received %d %g %g", x, y[0], y[1]);
  }
  MPI_Type_free(&abs_type);
  MPI_Type_free(&pt);
  finish("datatype_struct_send");
  MPI_Finalize();
  return 0;
}

/* The generators of rand/random, initstate/setstate and the drand48 family
 * are per process: each rank's sequence depends only on its own seeds,
 * however the ranks' calls interleave (an MPI call between draws). */
#include "check.h"

#include <stdlib.h>

#define DRAWS 6

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  /* Unseeded, rand() starts as if seeded with 1 (C11 7.22.2.2). */
  int unseeded = rand();
  MPI_Barrier(MPI_COMM_WORLD);
  srand(1);
  CHECK(rand() == unseeded, "the first rand() is not that of srand(1)");

  int drawn[DRAWS];
  long drawn48[DRAWS];
  srand(100 + rank);
  srand48(200 + rank);
  for (int i = 0; i < DRAWS; i++) {
    drawn[i] = rand();
    drawn48[i] = lrand48();
    MPI_Barrier(MPI_COMM_WORLD);
  }
  srand(100 + rank);
  srand48(200 + rank);
  for (int i = 0; i < DRAWS; i++) {
    int again = rand();
    long again48 = lrand48();
    CHECK(again == drawn[i], "rand() draw %d differs once other ranks draw between", i);
    CHECK(again48 == drawn48[i], "lrand48() draw %d differs once other ranks draw between", i);
  }

  /* A state of the program's own: initstate/setstate. */
  static char state[64], other[64];
  char* previous = initstate(300 + rank, state, sizeof state);
  CHECK(previous != NULL, "initstate failed");
  long a = random();
  MPI_Barrier(MPI_COMM_WORLD);
  long b = random();
  initstate(300 + rank, other, sizeof other);
  CHECK(random() == a && random() == b, "random() after initstate differs across MPI_Barrier");
  CHECK(setstate(previous) == other, "setstate does not return the state initstate installed");

  finish("rand");
  MPI_Finalize();
  return 0;
}

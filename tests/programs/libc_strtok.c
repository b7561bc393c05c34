/* strtok's position is per process: a rank tokenizes its own string across
 * an MPI call while the other ranks tokenize theirs. */
#include "check.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char text[64], expected[3][16];
  snprintf(text, sizeof text, "a%d,b%d,c%d", rank, rank, rank);
  for (int i = 0; i < 3; i++)
    snprintf(expected[i], sizeof expected[i], "%c%d", 'a' + i, rank);
  int i = 0;
  for (char* token = strtok(text, ","); token; token = strtok(NULL, ","), i++) {
    CHECK(i < 3 && strcmp(token, expected[i]) == 0, "token %d is %s", i, token);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  CHECK(i == 3, "%d tokens", i);
  for (; i < 4; i++)  /* the barriers the other ranks expect */
    MPI_Barrier(MPI_COMM_WORLD);
  finish("strtok");
  MPI_Finalize();
  return 0;
}

/* The environment is per process: setenv, putenv and unsetenv in one rank
 * are not visible in another; environ is the rank's own. */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char** environ;

static int in_environ(const char* entry)
{
  for (char** e = environ; *e; e++)
    if (strcmp(*e, entry) == 0)
      return 1;
  return 0;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CHECK(getenv("PATH") != NULL, "PATH is not set");
  char value[32], entry[64];
  snprintf(value, sizeof value, "rank %d", rank);
  snprintf(entry, sizeof entry, "PROGSIM_TEST_RANK=rank %d", rank);
  setenv("PROGSIM_TEST_RANK", value, 1);
  if (rank == 0)
    setenv("PROGSIM_TEST_ONLY_RANK0", "yes", 1);
  static char put[] = "PROGSIM_TEST_PUT=1";
  if (rank == 1) {
    putenv(put);
    unsetenv("PATH");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const char* mine = getenv("PROGSIM_TEST_RANK");
  CHECK(mine && strcmp(mine, value) == 0, "PROGSIM_TEST_RANK is %s", mine ? mine : "unset");
  CHECK(in_environ(entry), "environ lacks %s", entry);
  CHECK((getenv("PROGSIM_TEST_ONLY_RANK0") != NULL) == (rank == 0), "rank 0's variable is %s here",
        getenv("PROGSIM_TEST_ONLY_RANK0") ? "visible" : "not visible");
  CHECK((getenv("PROGSIM_TEST_PUT") != NULL) == (rank == 1), "rank 1's putenv is %s here",
        getenv("PROGSIM_TEST_PUT") ? "visible" : "not visible");
  CHECK((getenv("PATH") == NULL) == (rank == 1), "rank 1's unsetenv(PATH) is %s here",
        getenv("PATH") ? "not visible" : "visible");
  finish("environment");
  MPI_Finalize();
  return 0;
}

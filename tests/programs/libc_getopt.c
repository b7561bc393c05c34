/* getopt's state (optind, optarg, opterr, optopt and its scanning position)
 * is per process: every rank parses the same argv and must see every option,
 * also when it parses across an MPI call while other ranks parse.
 * Run with: -m 1:1024 -v --size 7 file1 file2 */
#include "check.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CHECK(optind == 1 && opterr == 1 && optarg == NULL, "fresh state: optind %d opterr %d", optind, opterr);

  /* Short options, one per call, with an MPI call between them. */
  const char* range = NULL;
  int verbose = 0, c;
  opterr = 0;  /* --size is unknown to getopt(): no message */
  while ((c = getopt(argc, argv, "m:v")) != -1) {
    if (c == 'm')
      range = optarg;
    else if (c == 'v')
      verbose = 1;
    MPI_Barrier(MPI_COMM_WORLD);
    if (c == '?')
      break;
  }
  CHECK(range && strcmp(range, "1:1024") == 0, "-m gave %s", range ? range : "nothing");
  CHECK(verbose == 1, "-v not seen");
  CHECK(c == '?' && optopt == '-', "--size: getopt returned %d, optopt %d", c, optopt);

  /* A full restart with getopt_long, as programs that parse twice do. */
  static const struct option options[] = {{"size", required_argument, NULL, 's'}, {NULL, 0, NULL, 0}};
  optind = 0;
  opterr = 1;
  int size = 0;
  while ((c = getopt_long(argc, argv, "m:v", options, NULL)) != -1) {
    if (c == 's')
      size = atoi(optarg);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  CHECK(size == 7, "--size gave %d", size);
  CHECK(optind == argc - 2 && strcmp(argv[optind], "file1") == 0, "operands start at %d of %d", optind, argc);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(optind == argc - 2, "optind changed to %d across MPI_Barrier", optind);
  finish("getopt");
  MPI_Finalize();
  return 0;
}

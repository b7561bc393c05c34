// A rank's std::thread (created inside libstdc++, so not through the
// program's own pthread_create) ends its process (robust-threads): rank 1
// runs a std::thread that does argv[1] and joins it, then sends to rank 0.
//   none       the thread computes (the correct twin)
//   segv       a store through a null pointer
//   exit       std::exit(6) before rank 1's MPI_Finalize
//   finalized  std::exit(6) after rank 1's MPI_Finalize (not tested: ending
//              the rank unwinds main through the joinable std::thread,
//              whose destructor calls std::terminate)
// With privatization the thread's rank is known from the code it runs; its
// exit must not unwind main through the joinable std::thread before the
// run's outcome is decided.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

static volatile long sink;

static void work(const char* mode)
{
  if (!std::strcmp(mode, "segv"))
    *reinterpret_cast<volatile int*>(sink) = 1;
  else if (!std::strcmp(mode, "exit") || !std::strcmp(mode, "finalized"))
    std::exit(6);
  for (int i = 0; i < 1000; ++i)
    sink = sink + i;
}

int main(int argc, char** argv)
{
  const char* mode = argc > 1 ? argv[1] : "none";
  int rank = 0, value = 42;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
    if (!std::strcmp(mode, "finalized")) {
      MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
      MPI_Finalize();
    }
    std::thread thread(work, mode);
    thread.join();
    if (!std::strcmp(mode, "finalized"))
      return 0;
    MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Recv(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    std::printf("rank 0 received %d\n", value);
  }
  MPI_Finalize();
  return 0;
}

// A C++ rank stopped mid-poll, with an object to destroy in the polling
// frame, is killed cleanly at the deadlock (progsim-cxx compiles with
// -fnon-call-exceptions, so SimGrid's unwinding passes the polling load).
#include <mpi.h>

#include <cstdio>
#include <string>

volatile int flag;

static int poll(const char* what)
{
  std::string name(what);  // destroyed by the unwinding
  while (flag != 1)
    ;
  return static_cast<int>(name.size());
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    progsim_watch_memory(&flag, sizeof flag, "flag of a C++ rank");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("polled %d\n", poll("a string longer than the small-string buffer"));
  } else {
    int x;
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}

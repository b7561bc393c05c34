// C++ program: iostreams, a class with a static member, exceptions inside a rank.
#include <mpi.h>

#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
struct Counter {
  static int instances;
  Counter() { ++instances; }
};
int Counter::instances = 0;
}  // namespace

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<Counter> counters(static_cast<size_t>(rank + 1));
  try {
    throw std::runtime_error("caught inside rank " + std::to_string(rank));
  } catch (const std::exception& e) {
    std::cout << "rank " << rank << "/" << size << ": " << e.what() << ", instances " << Counter::instances
              << std::endl;
  }
  MPI_Finalize();
  return 0;
}

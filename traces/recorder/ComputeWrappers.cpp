// The time the program spends between MPI calls: progsim_compute() and the
// sleeps, which libprogsim defines (progsim-cc's --wrap targets); each is
// recorded, then forwarded to the next definition.
#include "traces/recorder/RecorderInternals.hpp"

#include <dlfcn.h>
#include <time.h>
#include <unistd.h>

namespace progsim::traces::recorder {

namespace {

template <class Fn>
Fn next_symbol(const char* name)
{
  return reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, name));
}

}  // namespace

}  // namespace progsim::traces::recorder

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

double progsim_compute(double seconds)
{
  static auto real = next_symbol<double (*)(double)>("progsim_compute");
  PROGSIM_RECORD(Event({{"call", "compute"}, {"s", seconds}}), real(seconds));
}

// progsim-cc links programs with --wrap=sleep (usleep, nanosleep): their
// calls land on __wrap_sleep, which libprogsim defines; record and forward.
unsigned int __wrap_sleep(unsigned int seconds)
{
  static auto real = next_symbol<unsigned int (*)(unsigned int)>("__wrap_sleep");
  PROGSIM_RECORD(Event({{"call", "sleep"}, {"s", static_cast<double>(seconds)}}), real(seconds));
}

int __wrap_usleep(useconds_t usec)
{
  static auto real = next_symbol<int (*)(useconds_t)>("__wrap_usleep");
  PROGSIM_RECORD(Event({{"call", "sleep"}, {"s", 1e-6 * usec}}), real(usec));
}

int __wrap_nanosleep(const struct timespec* req, struct timespec* rem)
{
  static auto real = next_symbol<int (*)(const struct timespec*, struct timespec*)>("__wrap_nanosleep");
  int rank = recording_rank();
  if (rank >= 0 && req && req->tv_nsec >= 0 && req->tv_nsec < 1000000000)
    g_recorder->write(rank, Event({{"call", "sleep"},
                                   {"s", static_cast<double>(req->tv_sec) + 1e-9 * static_cast<double>(req->tv_nsec)}}));
  return real(req, rem);
}

}  // extern "C"

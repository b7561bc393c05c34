// The program's calls of C-library functions whose state is hidden in the
// C library and per process: progsim-cc links programs with
// `-Wl,--wrap=NAME` for each (as for SystemCallWrappers.cpp), and they run
// on the calling rank's state (LibcState.hpp) with the reentrant forms the
// C library offers, so each rank behaves as a process of its own. Outside a
// rank they are the real functions.

#include "sim/CallScope.hpp"
#include "sim/Rank.hpp"

#include <getopt.h>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

using progsim::sim::LibcState;

namespace {

LibcState* rank_libc()
{
  progsim::sim::Rank* rank = progsim::sim::calling_rank();
  return rank ? &rank->libc() : nullptr;
}

}  // namespace

extern "C" {

// --- getopt: optind, optarg, opterr, optopt are saved per rank; the scan
// position inside the C library is restored when another rank scanned.

int __wrap_getopt(int argc, char* const argv[], const char* optstring)
{
  LibcState* s = rank_libc();
  auto call = [&] { return ::getopt(argc, argv, optstring); };
  return s ? s->getopt(call) : call();
}

int __wrap_getopt_long(int argc, char* const argv[], const char* optstring, const struct option* longopts,
                       int* longindex)
{
  LibcState* s = rank_libc();
  auto call = [&] { return ::getopt_long(argc, argv, optstring, longopts, longindex); };
  return s ? s->getopt(call) : call();
}

int __wrap_getopt_long_only(int argc, char* const argv[], const char* optstring, const struct option* longopts,
                            int* longindex)
{
  LibcState* s = rank_libc();
  auto call = [&] { return ::getopt_long_only(argc, argv, optstring, longopts, longindex); };
  return s ? s->getopt(call) : call();
}

// --- the environment: environ is saved per rank; setenv and putenv add to
// the rank's own array.

int __wrap_setenv(const char* name, const char* value, int overwrite)
{
  LibcState* s = rank_libc();
  return s ? s->setenv(name, value, overwrite) : ::setenv(name, value, overwrite);
}

int __wrap_putenv(char* entry)
{
  LibcState* s = rank_libc();
  return s ? s->putenv(entry) : ::putenv(entry);
}

// --- rand, random and their seeds and states (glibc: rand() is random()).

long __wrap_random()
{
  LibcState* s = rank_libc();
  if (!s)
    return ::random();
  std::int32_t value = 0;
  ::random_r(&s->random_generator(), &value);
  return value;
}

int __wrap_rand()
{
  return static_cast<int>(__wrap_random());
}

void __wrap_srandom(unsigned int seed)
{
  LibcState* s = rank_libc();
  if (!s)
    return ::srandom(seed);
  ::srandom_r(seed, &s->random_generator());
}

void __wrap_srand(unsigned int seed)
{
  __wrap_srandom(seed);
}

char* __wrap_initstate(unsigned int seed, char* state, size_t size)
{
  LibcState* s = rank_libc();
  if (!s)
    return ::initstate(seed, state, size);
  random_data& generator = s->random_generator();
  char* previous = s->random_state_buffer();
  if (::initstate_r(seed, state, size, &generator) != 0)
    return nullptr;  // errno is EINVAL, as initstate sets it
  s->random_state_buffer() = state;
  return previous;
}

char* __wrap_setstate(char* state)
{
  LibcState* s = rank_libc();
  if (!s)
    return ::setstate(state);
  random_data& generator = s->random_generator();
  char* previous = s->random_state_buffer();
  if (::setstate_r(state, &generator) != 0)
    return nullptr;
  s->random_state_buffer() = state;
  return previous;
}

// --- the drand48 family. erand48, nrand48 and jrand48 take the state as
// an argument but use the multiplier lcong48 set, which is per process.

double __wrap_drand48()
{
  LibcState* s = rank_libc();
  if (!s)
    return ::drand48();
  double value = 0;
  ::drand48_r(&s->drand48_generator(), &value);
  return value;
}

double __wrap_erand48(unsigned short xsubi[3])
{
  LibcState* s = rank_libc();
  if (!s)
    return ::erand48(xsubi);
  double value = 0;
  ::erand48_r(xsubi, &s->drand48_generator(), &value);
  return value;
}

long __wrap_lrand48()
{
  LibcState* s = rank_libc();
  if (!s)
    return ::lrand48();
  long value = 0;
  ::lrand48_r(&s->drand48_generator(), &value);
  return value;
}

long __wrap_nrand48(unsigned short xsubi[3])
{
  LibcState* s = rank_libc();
  if (!s)
    return ::nrand48(xsubi);
  long value = 0;
  ::nrand48_r(xsubi, &s->drand48_generator(), &value);
  return value;
}

long __wrap_mrand48()
{
  LibcState* s = rank_libc();
  if (!s)
    return ::mrand48();
  long value = 0;
  ::mrand48_r(&s->drand48_generator(), &value);
  return value;
}

long __wrap_jrand48(unsigned short xsubi[3])
{
  LibcState* s = rank_libc();
  if (!s)
    return ::jrand48(xsubi);
  long value = 0;
  ::jrand48_r(xsubi, &s->drand48_generator(), &value);
  return value;
}

void __wrap_srand48(long seed)
{
  LibcState* s = rank_libc();
  if (!s)
    return ::srand48(seed);
  ::srand48_r(seed, &s->drand48_generator());
}

unsigned short* __wrap_seed48(unsigned short seed16v[3])
{
  LibcState* s = rank_libc();
  if (!s)
    return ::seed48(seed16v);
  drand48_data& generator = s->drand48_generator();
  ::seed48_r(seed16v, &generator);
  return generator.__old_x;  // where seed48 returns the previous seed from
}

void __wrap_lcong48(unsigned short param[7])
{
  LibcState* s = rank_libc();
  if (!s)
    return ::lcong48(param);
  ::lcong48_r(param, &s->drand48_generator());
}

// --- strtok's position.

char* __wrap_strtok(char* text, const char* delimiters)
{
  LibcState* s = rank_libc();
  if (!s)
    return ::strtok(text, delimiters);
  return ::strtok_r(text, delimiters, &s->strtok_position());
}

// --- exit handlers: a rank's run when that rank exits (RankRuntime.cpp),
// not when progsim does.

int __wrap_atexit(void (*handler)())
{
  LibcState* s = rank_libc();
  if (!s)
    return std::atexit(handler);
  s->add_exit_handler(handler);
  return 0;
}

int __wrap_on_exit(void (*handler)(int, void*), void* argument)
{
  LibcState* s = rank_libc();
  if (!s)
    return ::on_exit(handler, argument);
  s->add_exit_handler(handler, argument);
  return 0;
}

}  // extern "C"

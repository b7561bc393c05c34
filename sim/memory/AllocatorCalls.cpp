#include "sim/memory/AllocatorCalls.hpp"
#include "sim/memory/StackArena.hpp"

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)

namespace progsim::sim::memory {
bool AllocatorCalls::inside() { return false; }
void AllocatorCalls::signal_on_exit(int) {}
}  // namespace progsim::sim::memory

#else

extern "C" {
void* __libc_malloc(std::size_t size);
void __libc_free(void* pointer);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void* __libc_valloc(std::size_t size);
void* __libc_pvalloc(std::size_t size);
}

namespace {

// Per thread (only the simulator thread's ranks are diverted; a helper
// thread's allocation must not change a rank's diversion, or runs would not
// be deterministic), in the static TLS block: reading it from a signal
// handler or from inside malloc allocates nothing.
thread_local int g_depth __attribute__((tls_model("initial-exec"))) = 0;
thread_local int g_exit_signal __attribute__((tls_model("initial-exec"))) = 0;

struct Inside {
  Inside() { ++g_depth; }
  ~Inside()
  {
    if (--g_depth == 0 && g_exit_signal != 0) {
      int signal = g_exit_signal;
      g_exit_signal = 0;
      ::raise(signal);
    }
  }
  Inside(const Inside&) = delete;
  Inside& operator=(const Inside&) = delete;
};

bool power_of_two(std::size_t n)
{
  return n != 0 && (n & (n - 1)) == 0;
}

}  // namespace

namespace progsim::sim::memory {
bool AllocatorCalls::inside() { return g_depth > 0; }
void AllocatorCalls::signal_on_exit(int signal) { g_exit_signal = signal; }
}  // namespace progsim::sim::memory

extern "C" {

void* malloc(std::size_t size)
{
  Inside inside;
  return __libc_malloc(size);
}

void free(void* pointer)
{
  Inside inside;
  if (progsim::sim::memory::StackArena::give_back(pointer))  // a rank's stack (StackArena.hpp)
    return;
  __libc_free(pointer);
}

void* calloc(std::size_t count, std::size_t size)
{
  Inside inside;
  // SimGrid callocs a rank's stack while Simulation creates the actors
  // (StackArena.hpp); count * size cannot wrap for a slot's size.
  if (count != 0 && size <= SIZE_MAX / count)
    if (void* stack = progsim::sim::memory::StackArena::take(count * size))
      return stack;
  return __libc_calloc(count, size);
}

void* realloc(void* pointer, std::size_t size)
{
  Inside inside;
  return __libc_realloc(pointer, size);
}

void* memalign(std::size_t alignment, std::size_t size)
{
  Inside inside;
  return __libc_memalign(alignment, size);
}

void* aligned_alloc(std::size_t alignment, std::size_t size)
{
  // C17 7.22.3.1 leaves other alignments to the implementation; glibc refuses
  // them with EINVAL.
  if (!power_of_two(alignment)) {
    errno = EINVAL;
    return nullptr;
  }
  Inside inside;
  return __libc_memalign(alignment, size);
}

int posix_memalign(void** result, std::size_t alignment, std::size_t size)
{
  if (!power_of_two(alignment) || alignment % sizeof(void*) != 0)
    return EINVAL;
  int saved = errno;  // POSIX: returns the error, errno unchanged
  Inside inside;
  void* pointer = __libc_memalign(alignment, size);
  if (!pointer) {
    errno = saved;
    return ENOMEM;
  }
  *result = pointer;
  return 0;
}

void* valloc(std::size_t size)
{
  Inside inside;
  return __libc_valloc(size);
}

void* pvalloc(std::size_t size)
{
  Inside inside;
  return __libc_pvalloc(size);
}

}  // extern "C"

#endif

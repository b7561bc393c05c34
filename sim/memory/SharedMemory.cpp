#include "sim/memory/SharedMemory.hpp"

#include "sim/memory/WatchTable.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <sys/mman.h>
#include <unistd.h>

namespace progsim::sim::memory {

void* SharedMemory::simulator_address(const void* user_address) const
{
  auto offset = static_cast<const char*>(user_address) - static_cast<const char*>(user);
  return static_cast<char*>(simulator) + offset;
}

SharedMemory allocate_shared_memory(std::size_t bytes, const std::string& name)
{
  SharedMemory m;
  m.bytes = bytes;
  std::size_t page = WatchTable::page_size();
  m.mapped = bytes == 0 ? page : (bytes + page - 1) / page * page;
  m.fd = ::memfd_create(("progsim:" + name).c_str(), MFD_CLOEXEC);
  if (m.fd < 0)
    throw std::runtime_error("memfd_create: " + std::string(std::strerror(errno)));
  if (::ftruncate(m.fd, static_cast<off_t>(m.mapped)) != 0) {
    int e = errno;
    ::close(m.fd);
    throw std::runtime_error("ftruncate: " + std::string(std::strerror(e)));
  }
  void* user = ::mmap(nullptr, m.mapped, PROT_READ | PROT_WRITE, MAP_SHARED, m.fd, 0);
  void* simulator = ::mmap(nullptr, m.mapped, PROT_READ | PROT_WRITE, MAP_SHARED, m.fd, 0);
  if (user == MAP_FAILED || simulator == MAP_FAILED) {
    int e = errno;
    if (user != MAP_FAILED)
      ::munmap(user, m.mapped);
    if (simulator != MAP_FAILED)
      ::munmap(simulator, m.mapped);
    ::close(m.fd);
    throw std::runtime_error("mmap: " + std::string(std::strerror(e)));
  }
  m.user = user;
  m.simulator = simulator;
  return m;
}

void free_shared_memory(SharedMemory& m)
{
  if (m.user)
    ::munmap(m.user, m.mapped);
  if (m.simulator)
    ::munmap(m.simulator, m.mapped);
  if (m.fd >= 0)
    ::close(m.fd);
  m = SharedMemory{};
}

}  // namespace progsim::sim::memory

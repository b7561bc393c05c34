// The buffer a rank attached with MPI_Buffer_attach (MPI-4.1 §3.6). Each
// buffered send reserves its packed size plus MPI_BSEND_OVERHEAD until its
// data has left the buffer; that moving out is a decoupled activity.
#pragma once

#include <cstddef>

namespace progsim::mpi {

class BufferedSendBuffer {
public:
  bool attached() const { return base_ != nullptr; }
  void attach(void* base, std::size_t size)
  {
    base_ = base;
    size_ = size;
  }
  void detach()
  {
    base_ = nullptr;
    size_ = 0;
  }
  void* base() const { return base_; }
  std::size_t size() const { return size_; }
  std::size_t used() const { return used_; }
  std::size_t pending_messages() const { return pending_; }

  // Reserves room for one message; false when it does not fit.
  bool reserve(std::size_t bytes)
  {
    if (!attached() || used_ + bytes > size_)
      return false;
    used_ += bytes;
    ++pending_;
    return true;
  }
  void release(std::size_t bytes)
  {
    used_ -= bytes;
    --pending_;
  }

private:
  void* base_ = nullptr;
  std::size_t size_ = 0;
  std::size_t used_ = 0;
  std::size_t pending_ = 0;
};

}  // namespace progsim::mpi

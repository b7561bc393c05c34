// MPI_Info objects (MPI-4.1 §10): ordered (key, value) string pairs. Keys
// keep their insertion order (MPI_Info_get_nthkey), as in MPICH. The handles
// are per process: 0x5c000000 | index, MPI_INFO_ENV is index 1, created
// objects get the lowest free index from 2.
#pragma once

#include "core/HandleTable.hpp"

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace progsim::mpi {

struct Info {
  std::vector<std::pair<std::string, std::string>> entries;

  const std::string* get(const std::string& key) const;
  void set(const std::string& key, const std::string& value);  // replaces in place, or appends
  bool erase(const std::string& key);
  // Sets every entry of `other` (MPI_Comm_set_info on top of the current hints).
  void merge(const Info& other);
};

class InfoTable {
public:
  InfoTable();
  // nullptr for MPI_INFO_NULL and unknown or freed handles. MPI_INFO_ENV is
  // filled by the caller (fill_env) on first use.
  Info* find(MPI_Info handle);
  MPI_Info insert(Info info);
  bool erase(MPI_Info handle);  // false for MPI_INFO_ENV and invalid handles
  bool env_filled = false;
  std::size_t live() const { return table_.live(); }
  std::vector<MPI_Info> live_handles() const;  // ascending, MPI_INFO_ENV not included

private:
  HandleTable<std::optional<Info>> table_;
};

}  // namespace progsim::mpi

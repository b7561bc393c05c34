// The MPI library's state inside one rank (one MPI process): its handle
// tables for process-local objects (groups, info objects, keyvals, user
// error handlers and reduction operations). Communicators are in the
// CommunicatorTable (one object per member process).
#pragma once

#include "core/Attributes.hpp"
#include "core/CreationSites.hpp"
#include "core/Group.hpp"
#include "core/HandleTable.hpp"
#include "core/Info.hpp"
#include "ops/ReductionOp.hpp"
#include "sessions/SessionTable.hpp"
#include "sim/Rank.hpp"

#include <mpi.h>

#include <array>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace progsim::mpi {

// MPI_Comm_create_errhandler (MPI-4.1 §9.3.1). Handles 0x54000000 | (4 + i).
struct UserErrhandler {
  MPI_Comm_errhandler_function* fn = nullptr;
  bool freed = false;
};

// MPI_Op_create (MPI-4.1 §6.9.5). Handles 0x58000000 | (kFirstUserOp + i).
struct UserOpEntry {
  ops::UserOp op;
  bool freed = false;
};

// MPI_Add_error_class / MPI_Add_error_code (MPI-4.1 §9.5).
struct AddedErrorCode {
  int error_class;
  std::string text;
};

struct Process {
  static constexpr int kFirstUserErrhandler = 4;
  static constexpr int kFirstUserOp = 16;

  int world_rank = 0;
  int thread_level = MPI_THREAD_SINGLE;
  const char* init_call = nullptr;  // "MPI_Init" or "MPI_Init_thread" once initialized
  GroupTable groups;
  InfoTable infos;
  KeyvalTable keyvals;
  std::vector<UserErrhandler> errhandlers;  // index - kFirstUserErrhandler
  HandleTable<std::optional<UserOpEntry>> ops{0};  // index - kFirstUserOp
  std::vector<AddedErrorCode> added_error_codes;  // code MPI_ERR_LASTCODE + 1 + i
  sessions::SessionTable sessions;  // MPI_Session_init (MPI-4.1 §11.3)
  // Storage for the predefined attributes' values (MPI_Comm_get_attr returns
  // pointers to them), by keyval MPI_TAG_UB .. MPI_APPNUM.
  std::array<int, 8> predefined_attributes{};
  // MPI_Alloc_mem blocks not yet freed, with their sizes (looked up only,
  // never iterated into output).
  std::unordered_map<const void*, std::size_t> allocated_memory;
  // The call that created each handle (groups, communicators, types, ops,
  // windows, infos, error handlers, keyvals), for the leak report.
  CreationSites creations;

  // MPI_{Comm,Win,File,Session}_create_errhandler: a new handler's handle.
  MPI_Errhandler add_errhandler(MPI_Comm_errhandler_function* fn)
  {
    errhandlers.push_back(UserErrhandler{fn, false});
    MPI_Errhandler handle = MPI_ERRHANDLER_NULL + kFirstUserErrhandler + static_cast<int>(errhandlers.size()) - 1;
    note_created(static_cast<std::uint32_t>(handle));
    return handle;
  }
  UserErrhandler* errhandler(MPI_Errhandler handle)
  {
    int index = handle - MPI_ERRHANDLER_NULL - kFirstUserErrhandler;
    if (index < 0 || index >= static_cast<int>(errhandlers.size()))
      return nullptr;
    return &errhandlers[static_cast<size_t>(index)];
  }
  const UserOpEntry* user_op(MPI_Op handle) const
  {
    int index = handle - MPI_OP_NULL - kFirstUserOp;
    if (index < 0 || !ops.holds(static_cast<std::uint32_t>(index)))
      return nullptr;
    return &**ops.slot(static_cast<std::uint32_t>(index));
  }
};

// Runs a program callback (copy/delete attribute functions, user reduction
// operations, error handlers) from inside an MPI call: the rank is in user
// code meanwhile, so that a crash there is reported as one in user code.
template <class F>
decltype(auto) call_user_code(sim::Rank* rank, F&& f)
{
  struct Restore {
    sim::Rank* rank;
    sim::RankState state;
    ~Restore()
    {
      if (rank) {
        rank->libc().leave_callback();
        rank->leave_program_callback();
        rank->set_state(state);
      }
    }
  } restore{rank, rank ? rank->state() : sim::RankState::InMpi};
  if (rank) {
    rank->set_state(sim::RankState::UserCode);
    rank->enter_program_callback();  // its MPI calls are the program's (sim::CallScope)
    rank->libc().enter_callback();  // errno, optind, environ: the rank's own
  }
  return f();
}

}  // namespace progsim::mpi

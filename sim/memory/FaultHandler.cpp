#include "sim/memory/FaultHandler.hpp"

#include "sim/memory/Trampoline.hpp"
#include "sim/memory/WatchTable.hpp"

#include <csignal>
#include <cstdint>
#include <sys/mman.h>
#include <ucontext.h>

namespace progsim::sim::memory {

namespace {

#if defined(__x86_64__) && defined(__linux__)
constexpr greg_t kTrapFlag = 0x100;
constexpr greg_t kPageFaultWrite = 0x2;  // x86 page-fault error code: the access was a write
#endif
// An instruction writes at most 64 bytes at once (AVX-512), apart from
// string instructions, which the trap flag stops after each element.
constexpr std::size_t kMaxStore = 64;
constexpr int kMaxOpen = 16;
constexpr std::size_t kAltStackSize = 1 << 20;

struct sigaction g_previous_segv {};
struct sigaction g_previous_trap {};
bool g_installed = false;
int (*g_current_user_rank)() = nullptr;
bool (*g_owes_time)(int) = nullptr;
double (*g_current_rank_clock)() = nullptr;

// State of the one instruction being stepped (the simulator is one thread).
volatile int g_depth = 0;
volatile bool g_stepping = false;
std::uintptr_t g_step_address = 0;
std::uintptr_t g_step_pc = 0;
bool g_step_write = false;
int g_step_hit_watch = -1;      // the watched range the step wrote into, -1 when none
int g_step_guard = -1;          // the guard the step's access violated (MemoryWatch::guard)
bool g_step_guard_write = false;
std::uintptr_t g_open[kMaxOpen];
int g_open_count = 0;
volatile bool g_pending_write = false;
void* g_alt_stack = nullptr;

void chain(const struct sigaction& previous, int sig, siginfo_t* info, void* context)
{
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
    previous.sa_sigaction(sig, info, context);
  } else if (previous.sa_handler == SIG_IGN) {
    return;
  } else if (previous.sa_handler == SIG_DFL) {
    // Returning re-executes the faulting instruction, which now kills.
    ::signal(sig, SIG_DFL);
    if (sig == SIGTRAP)
      ::raise(sig);
  } else {
    previous.sa_handler(sig);
  }
}

void open_page(std::uintptr_t page)
{
  for (int i = 0; i < g_open_count; ++i)
    if (g_open[i] == page)
      return;
  WatchTable::open(page);
  g_open[g_open_count++] = page;
}

void close_pages()
{
  for (int i = 0; i < g_open_count; ++i)
    if (WatchTable::page_watched(g_open[i]))
      WatchTable::protect(g_open[i]);
  g_open_count = 0;
}

#if defined(__x86_64__) && defined(__linux__)
void on_segv(int sig, siginfo_t* info, void* context)
{
  auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  std::uintptr_t page = WatchTable::page_of(address);
  if (info->si_code != SEGV_ACCERR || !WatchTable::page_watched(page) || g_open_count >= kMaxOpen) {
    chain(g_previous_segv, sig, info, context);
    return;
  }
  greg_t* regs = static_cast<ucontext_t*>(context)->uc_mcontext.gregs;
  bool write = (regs[REG_ERR] & kPageFaultWrite) != 0;
  // Only an access to watched bytes settles first. The other bytes of a
  // watched page are often the allocator's own (a buffer from malloc shares
  // its page with chunk headers): diverting malloc midway would let other
  // ranks run malloc while its state is half updated.
  int watched = WatchTable::find(address);
  int guard = WatchTable::find_guard(address, write);
  if ((watched >= 0 || guard >= 0) && g_depth == 0 && !g_stepping && Trampoline::can_divert(context)) {
    int rank = g_current_user_rank();
    if (rank >= 0 && g_owes_time(rank)) {
      // Not stepped yet: the rank first executes its CPU debt (in the
      // trampoline), then this instruction faults again and runs at the
      // rank's own clock (docs/design/time.md).
      TrapRequest request;
      request.kind = TrapKind::Settle;
      request.address = address;
      request.pc = static_cast<std::uintptr_t>(regs[REG_RIP]);
      request.rank = rank;
      Trampoline::divert(context, request);
      return;
    }
  }
  open_page(page);
  if (g_depth > 0)
    return;  // the handlers' own access: the page closes at the end of the step
  if (!g_stepping) {
    g_stepping = true;
    g_step_address = address;
    g_step_pc = static_cast<std::uintptr_t>(regs[REG_RIP]);
    g_step_write = write;
    g_step_hit_watch = -1;
    g_step_guard = -1;
    regs[REG_EFL] |= kTrapFlag;
  } else {
    g_step_write = g_step_write || write;  // the same instruction touches a second page
  }
  if (g_step_guard < 0) {
    g_step_guard = guard;
    g_step_guard_write = write;
    if (g_step_guard >= 0)
      g_step_address = address;  // the guarded byte, not the first page the instruction touched
  }
  if (write) {
    if (watched >= 0)
      g_step_hit_watch = watched;
    WatchTable::bump_range(address, kMaxStore);
  }
}

void on_trap(int sig, siginfo_t* info, void* context)
{
  if (!g_stepping || g_depth > 0) {
    chain(g_previous_trap, sig, info, context);
    return;
  }
  g_depth = g_depth + 1;
  greg_t* regs = static_cast<ucontext_t*>(context)->uc_mcontext.gregs;
  regs[REG_EFL] &= ~kTrapFlag;
  g_stepping = false;
  int guard = g_step_guard;
  g_step_guard = -1;
  bool hit = guard >= 0 || WatchTable::find(g_step_address) >= 0 || g_step_hit_watch >= 0;
  if (hit) {
    // Only the program's own code is diverted: a guard is not told of the
    // simulator's accesses (packing and unpacking when the data moves).
    int rank = Trampoline::can_divert(context) ? g_current_user_rank() : -1;
    if (rank >= 0) {
      TrapRequest request;
      request.kind = guard >= 0 ? TrapKind::Guard : g_step_write ? TrapKind::Write : TrapKind::Read;
      request.address = g_step_address;
      request.pc = g_step_pc;
      request.rank = rank;
      request.watch = guard;
      request.write = g_step_guard_write;  // Guard only
      Trampoline::divert(context, request);
    } else if (g_step_hit_watch >= 0) {
      // The simulator wrote for a rank (not diverted, so not settled first):
      // the value exists from that rank's clock on.
      g_pending_write = true;
      double clock = g_current_rank_clock ? g_current_rank_clock() : -1;
      WatchEntry& e = WatchTable::entry(g_step_hit_watch);
      if (clock > e.visible_at)
        e.visible_at = clock;
    }
  }
  close_pages();
  g_depth = g_depth - 1;
}
#endif

}  // namespace

void FaultHandler::install(int (*current_user_rank)(), bool (*owes_time)(int rank), double (*current_rank_clock)())
{
#if defined(__x86_64__) && defined(__linux__)
  if (g_installed)
    return;
  g_current_user_rank = current_user_rank;
  g_owes_time = owes_time;
  g_current_rank_clock = current_rank_clock;
  // A large alternate stack of its own pages (never on a watched heap page).
  if (!g_alt_stack) {
    void* p = ::mmap(nullptr, kAltStackSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED)
      g_alt_stack = p;
  }
  if (g_alt_stack) {
    stack_t ss{};
    ss.ss_sp = g_alt_stack;
    ss.ss_size = kAltStackSize;
    ::sigaltstack(&ss, nullptr);
  }
  struct sigaction action {};
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;  // handlers' own faults nest
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGPROF);
  action.sa_sigaction = on_segv;
  ::sigaction(SIGSEGV, &action, &g_previous_segv);
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  action.sa_sigaction = on_trap;
  ::sigaction(SIGTRAP, &action, &g_previous_trap);
  g_installed = true;
#else
  (void)current_user_rank;
  (void)owes_time;
  (void)current_rank_clock;
#endif
}

void FaultHandler::uninstall()
{
  if (!g_installed)
    return;
  ::sigaction(SIGSEGV, &g_previous_segv, nullptr);
  ::sigaction(SIGTRAP, &g_previous_trap, nullptr);
  g_installed = false;
}

bool FaultHandler::stepping()
{
  return g_stepping;
}

FaultHandler::Nested::Nested()
{
  g_depth = g_depth + 1;
}

FaultHandler::Nested::~Nested()
{
  g_depth = g_depth - 1;
  if (!g_stepping)
    close_pages();
}

bool FaultHandler::take_pending_write()
{
  bool pending = g_pending_write;
  g_pending_write = false;
  return pending;
}

}  // namespace progsim::sim::memory

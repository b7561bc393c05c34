#include "sim/memory/Trampoline.hpp"

#include "sim/memory/AllocatorCalls.hpp"

#include "sim/memory/WatchTable.hpp"

#if defined(__x86_64__) && defined(__linux__)

#include <cpuid.h>
#include <cstring>
#include <link.h>
#include <ucontext.h>

extern "C" {
// Hidden: the asm below reaches them PC-relative.
__attribute__((visibility("hidden"))) std::uint64_t progsim_trampoline_xsave_size = 4096;
// Where the trampoline jumps back to. One slot suffices: it is written after
// the handler returned, with no coroutine switch before the jump.
__attribute__((visibility("hidden"))) std::uint64_t progsim_trampoline_return = 0;
__attribute__((visibility("hidden"))) void progsim_trampoline_entry();
__attribute__((visibility("hidden"))) void progsim_trampoline_body();
}

// On entry: rsp -> [interrupted rip][interrupted rsp], 16-byte aligned.
// The CFI after `movq %rsp, %rbp` describes the interrupted frame (CFA =
// interrupted rsp, every register in its save slot, a signal frame so the
// unwinder looks up the interrupted rip itself): SimGrid kills a rank
// blocked in the handler by unwinding its stack with an exception.
asm(R"(
  .pushsection .text
  .p2align 4
  .globl progsim_trampoline_entry
  .hidden progsim_trampoline_entry
  .type progsim_trampoline_entry, @function
progsim_trampoline_entry:
  .cfi_startproc
  .cfi_signal_frame
  pushfq
  cld
  pushq %rax
  pushq %rbx
  pushq %rcx
  pushq %rdx
  pushq %rsi
  pushq %rdi
  pushq %rbp
  pushq %r8
  pushq %r9
  pushq %r10
  pushq %r11
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, %rbp
  .cfi_escape 0x0f,0x04,0x76,0x88,0x01,0x06
  .cfi_escape 0x10,0x10,0x03,0x76,0x80,0x01
  .cfi_escape 0x10,0x00,0x03,0x76,0xf0,0x00
  .cfi_escape 0x10,0x03,0x03,0x76,0xe8,0x00
  .cfi_escape 0x10,0x02,0x03,0x76,0xe0,0x00
  .cfi_escape 0x10,0x01,0x03,0x76,0xd8,0x00
  .cfi_escape 0x10,0x04,0x03,0x76,0xd0,0x00
  .cfi_escape 0x10,0x05,0x03,0x76,0xc8,0x00
  .cfi_escape 0x10,0x06,0x03,0x76,0xc0,0x00
  .cfi_escape 0x10,0x08,0x02,0x76,0x38
  .cfi_escape 0x10,0x09,0x02,0x76,0x30
  .cfi_escape 0x10,0x0a,0x02,0x76,0x28
  .cfi_escape 0x10,0x0b,0x02,0x76,0x20
  .cfi_escape 0x10,0x0c,0x02,0x76,0x18
  .cfi_escape 0x10,0x0d,0x02,0x76,0x10
  .cfi_escape 0x10,0x0e,0x02,0x76,0x08
  .cfi_escape 0x10,0x0f,0x02,0x76,0x00
  movq progsim_trampoline_xsave_size(%rip), %rax
  subq %rax, %rsp
  andq $-64, %rsp
  xorl %eax, %eax
  movq %rax, 512(%rsp)
  movq %rax, 520(%rsp)
  movq %rax, 528(%rsp)
  movq %rax, 536(%rsp)
  movq %rax, 544(%rsp)
  movq %rax, 552(%rsp)
  movq %rax, 560(%rsp)
  movq %rax, 568(%rsp)
  movl $-1, %eax
  movl $-1, %edx
  xsave64 (%rsp)
  call progsim_trampoline_body
  movl $-1, %eax
  movl $-1, %edx
  xrstor64 (%rsp)
  movq %rbp, %rsp
  movq 128(%rsp), %rax
  movq %rax, progsim_trampoline_return(%rip)
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %r11
  popq %r10
  popq %r9
  popq %r8
  popq %rbp
  popq %rdi
  popq %rsi
  popq %rdx
  popq %rcx
  popq %rbx
  popq %rax
  popfq
  movq 8(%rsp), %rsp
  jmp *progsim_trampoline_return(%rip)
  .cfi_endproc
  .size progsim_trampoline_entry, .-progsim_trampoline_entry
  .popsection
)");

namespace progsim::sim::memory {

namespace {

void (*g_handler)(const TrapRequest&) = nullptr;
TrapRequest g_request;
volatile bool g_pending = false;

// Executable ranges of the simulator's own libraries: a rank running there
// is inside the simulator (even in user-code state, e.g. while SimGrid
// switches contexts) and must not be diverted. Also the sanitizer runtimes:
// under ASan they are the allocator (AllocatorCalls cannot count its depth
// there), and a rank diverted while one of their non-recursive locks is
// held (a size class refilled in malloc) would wait forever for it in the
// simulator's next allocation.
struct Range {
  std::uintptr_t lo, hi;
  bool sanitizer;  // a sanitizer runtime's (in_sanitizer_runtime)
};
Range g_excluded[32];
int g_excluded_count = 0;

// Bytes kept free of watched pages below the trampoline frame: the xsave
// area and the simulator code the handler runs on the rank's stack.
constexpr std::uintptr_t kFrameReserve = 64 * 1024;

int note_library(dl_phdr_info* info, size_t, void*)
{
  const char* name = info->dlpi_name ? info->dlpi_name : "";
  bool simulator = std::strstr(name, "libprogsim") || std::strstr(name, "libsimgrid") || std::strstr(name, "libboost");
  bool sanitizer = std::strstr(name, "libasan") || std::strstr(name, "libubsan");
  if (!simulator && !sanitizer)
    return 0;
  for (int i = 0; i < info->dlpi_phnum && g_excluded_count < 32; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
      continue;
    g_excluded[g_excluded_count++] = {info->dlpi_addr + ph.p_vaddr, info->dlpi_addr + ph.p_vaddr + ph.p_memsz,
                                      sanitizer};
  }
  return 0;
}

}  // namespace

bool Trampoline::supported()
{
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_XSAVE) && (c & bit_OSXSAVE);
}

void Trampoline::initialize(void (*handler)(const TrapRequest&))
{
  g_handler = handler;
  unsigned a = 0, b = 0, c = 0, d = 0;
  __cpuid_count(0xd, 0, a, b, c, d);
  progsim_trampoline_xsave_size = b + 64;  // size for the features enabled in XCR0
  g_excluded_count = 0;
  dl_iterate_phdr(note_library, nullptr);
}

bool Trampoline::can_divert(const void* ucontext)
{
  if (g_pending || !g_handler || AllocatorCalls::inside())
    return false;
  auto pc = static_cast<std::uintptr_t>(static_cast<const ucontext_t*>(ucontext)->uc_mcontext.gregs[REG_RIP]);
  for (int i = 0; i < g_excluded_count; ++i)
    if (pc >= g_excluded[i].lo && pc < g_excluded[i].hi)
      return false;
  return true;
}

bool Trampoline::in_sanitizer_runtime(const void* ucontext)
{
  auto pc = static_cast<std::uintptr_t>(static_cast<const ucontext_t*>(ucontext)->uc_mcontext.gregs[REG_RIP]);
  for (int i = 0; i < g_excluded_count; ++i)
    if (g_excluded[i].sanitizer && pc >= g_excluded[i].lo && pc < g_excluded[i].hi)
      return true;
  return false;
}

void Trampoline::divert(void* ucontext, const TrapRequest& request)
{
  greg_t* regs = static_cast<ucontext_t*>(ucontext)->uc_mcontext.gregs;
  auto sp = static_cast<std::uintptr_t>(regs[REG_RSP]);
  std::uintptr_t top = sp - 128;  // the interrupted code's red zone stays intact
  while (std::uintptr_t page = WatchTable::lowest_watched_page(top - kFrameReserve, top))
    top = page;
  top = (top & ~std::uintptr_t{15}) - 16;
  auto* frame = reinterpret_cast<std::uintptr_t*>(top);
  frame[0] = static_cast<std::uintptr_t>(regs[REG_RIP]);
  frame[1] = sp;
  g_request = request;
  g_pending = true;
  regs[REG_RSP] = static_cast<greg_t>(top);
  regs[REG_RIP] = reinterpret_cast<greg_t>(&progsim_trampoline_entry);
}

}  // namespace progsim::sim::memory

extern "C" void progsim_trampoline_body()
{
  using namespace progsim::sim::memory;
  TrapRequest request = g_request;
  g_pending = false;
  g_handler(request);
}

#else  // not x86-64 Linux

namespace progsim::sim::memory {
bool Trampoline::supported() { return false; }
void Trampoline::initialize(void (*)(const TrapRequest&)) {}
bool Trampoline::can_divert(const void*) { return false; }
bool Trampoline::in_sanitizer_runtime(const void*) { return false; }
void Trampoline::divert(void*, const TrapRequest&) {}
}  // namespace progsim::sim::memory

#endif

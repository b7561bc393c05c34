#include "sim/ProgramImage.hpp"

#include "sim/Diagnostics.hpp"

#include <cerrno>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

namespace progsim::sim {

namespace {

constexpr int kProgramAbi = 1;

// The code of one loaded instance, and the rank it is private to.
struct CodeRange {
  uintptr_t begin = 0;
  uintptr_t end = 0;
  int owner = -1;  // -1: shared by every rank (no privatization)
};

// Sorted, disjoint ranges (one per loaded instance).
std::vector<CodeRange>& code_ranges()
{
  static std::vector<CodeRange> ranges;
  return ranges;
}

const CodeRange* code_range_of(uintptr_t address)
{
  const auto& ranges = code_ranges();
  auto after = std::upper_bound(ranges.begin(), ranges.end(), address,
                                [](uintptr_t a, const CodeRange& r) { return a < r.begin; });
  if (after == ranges.begin() || address >= std::prev(after)->end)
    return nullptr;
  return &*std::prev(after);
}

void set_owner(const ProgramInstance& instance, int rank)
{
  for (auto& range : code_ranges())
    if (range.begin == instance.text_begin)
      range.owner = rank;
}

// Reads the ELF header to give a precise reason before dlopen() tries.
void check_elf(const std::string& path)
{
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError{path + ": " + std::strerror(errno)};
  if (S_ISDIR(st.st_mode))
    throw InputError{path + ": is a directory, not a program"};
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw InputError{path + ": " + std::strerror(errno)};
  Elf64_Ehdr header{};
  ssize_t got = ::read(fd, &header, sizeof header);
  ::close(fd);
  if (got != static_cast<ssize_t>(sizeof header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    throw InputError{path + ": not a program (no ELF header); build MPI programs with progsim-cc"};
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_machine != EM_X86_64)
    throw InputError{path + ": built for another architecture"};
  if (header.e_type == ET_EXEC)
    throw InputError{path + ": a regular executable, not a program built with progsim-cc (rebuild it with progsim-cc)"};
  if (header.e_type != ET_DYN)
    throw InputError{path + ": not a program (an object file or core dump?)"};
}

int text_range_callback(struct dl_phdr_info* info, size_t, void* data)
{
  auto* instance = static_cast<ProgramInstance*>(data);
  auto* map = static_cast<struct link_map*>(instance->handle);
  if (info->dlpi_addr != map->l_addr)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
      instance->text_begin = info->dlpi_addr + ph.p_vaddr;
      instance->text_end = instance->text_begin + ph.p_memsz;
      return 1;
    }
  }
  return 0;
}

void copy_file(const std::string& from, const std::string& to)
{
  int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
  struct stat st {};
  bool ok = in >= 0 && out >= 0 && ::fstat(in, &st) == 0;
  off_t offset = 0;
  while (ok && offset < st.st_size) {
    ssize_t n = ::sendfile(out, in, &offset, static_cast<size_t>(st.st_size - offset));
    ok = n > 0;
  }
  int saved = errno;
  if (in >= 0)
    ::close(in);
  if (out >= 0)
    ::close(out);
  if (!ok)
    throw InputError{"cannot copy " + from + " for privatization: " + std::strerror(saved)};
}

}  // namespace

bool is_program_code(uintptr_t address)
{
  return code_range_of(address) != nullptr;
}

int program_copy_owner(uintptr_t address)
{
  const CodeRange* range = code_range_of(address);
  return range ? range->owner : -1;
}

ProgramImage::ProgramImage(std::string path, bool privatize) : path_(std::move(path)), privatize_(privatize)
{
  check_elf(path_);
  // dlopen() searches the library path for names without a slash.
  if (path_.find('/') == std::string::npos)
    path_ = "./" + path_;
  shared_ = load(path_, path_);
}

ProgramImage::~ProgramImage() = default;

ProgramInstance ProgramImage::load(const std::string& file, const std::string& what)
{
  ProgramInstance instance;
  instance.handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!instance.handle) {
    std::string reason = ::dlerror();
    if (reason.find("position-independent executable") != std::string::npos)
      throw InputError{what + ": a regular executable, not a program built with progsim-cc (rebuild it with progsim-cc)"};
    throw InputError{what + ": cannot be loaded: " + reason};
  }
  auto* abi = static_cast<const int*>(::dlsym(instance.handle, "progsim_program_abi"));
  if (!abi)
    throw InputError{what + ": not built with progsim-cc (no progsim_program_abi marker); rebuild it with progsim-cc"};
  if (*abi != kProgramAbi)
    throw InputError{what + ": built with an incompatible progsim-cc (ABI " + std::to_string(*abi) + ", expected " +
                     std::to_string(kProgramAbi) + "); rebuild it"};
  instance.main = reinterpret_cast<ProgramMain>(::dlsym(instance.handle, "main"));
  if (!instance.main)
    throw InputError{what + ": has no main() function"};
  ::dl_iterate_phdr(text_range_callback, &instance);
  auto& ranges = code_ranges();
  CodeRange range{instance.text_begin, instance.text_end, -1};
  ranges.insert(std::upper_bound(ranges.begin(), ranges.end(), range.begin,
                                 [](uintptr_t a, const CodeRange& r) { return a < r.begin; }),
                range);
  return instance;
}

ProgramInstance ProgramImage::instantiate(int rank)
{
  if (!privatize_ || !first_used_) {
    first_used_ = true;
    if (privatize_)
      set_owner(shared_, rank);
    return shared_;
  }
  if (!scratch_dir_)
    scratch_dir_ = std::make_unique<TemporaryDirectory>("progsim");
  // A distinct file (name and inode) per rank: dlopen() would otherwise
  // return the already-loaded instance and the ranks would share globals.
  std::string copy = scratch_dir_->path() + "/rank-" + std::to_string(rank) + ".so";
  copy_file(path_, copy);
  ProgramInstance instance = load(copy, path_ + " (copy for rank " + std::to_string(rank) + ")");
  set_owner(instance, rank);
  ::unlink(copy.c_str());
  return instance;
}

}  // namespace progsim::sim

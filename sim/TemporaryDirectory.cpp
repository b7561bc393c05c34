#include "sim/TemporaryDirectory.hpp"

#include "sim/Diagnostics.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace progsim::sim {

namespace {

// Few directories live at once (a run has one; compare and examples one each).
constexpr int kSlots = 16;
char g_paths[kSlots][PATH_MAX];
volatile bool g_used[kSlots];

// Removes the files and subdirectories in `dir` (an open directory), then
// nothing else: getdents64 on a stack buffer instead of opendir(), which
// allocates.
void remove_contents(int dir, int depth)
{
  alignas(8) char buffer[4096];
  for (;;) {
    long got = ::syscall(SYS_getdents64, dir, buffer, sizeof buffer);
    if (got <= 0)
      return;
    for (long offset = 0; offset < got;) {
      auto* entry = reinterpret_cast<struct dirent64*>(buffer + offset);
      offset += entry->d_reclen;
      const char* name = entry->d_name;
      if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0)
        continue;
      if (entry->d_type == DT_DIR && depth < 4) {
        int sub = ::openat(dir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (sub >= 0) {
          remove_contents(sub, depth + 1);
          ::close(sub);
        }
        ::unlinkat(dir, name, AT_REMOVEDIR);
      } else {
        ::unlinkat(dir, name, 0);
      }
    }
  }
}

void remove_tree(const char* path)
{
  int dir = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  if (dir >= 0) {
    remove_contents(dir, 0);
    ::close(dir);
  }
  ::rmdir(path);
}

}  // namespace

TemporaryDirectory::TemporaryDirectory(const std::string& prefix)
{
  const char* tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (templ.size() >= PATH_MAX || !::mkdtemp(buf.data()))
    throw InputError{"cannot create a temporary directory " + templ + ": " + std::strerror(errno)};
  path_ = buf.data();
  for (int s = 0; s < kSlots; ++s)
    if (!g_used[s]) {
      std::memcpy(g_paths[s], path_.c_str(), path_.size() + 1);
      g_used[s] = true;
      slot_ = s;
      break;
    }
}

TemporaryDirectory::~TemporaryDirectory()
{
  if (slot_ >= 0)
    g_used[slot_] = false;
  remove_tree(path_.c_str());
}

void TemporaryDirectory::remove_all()
{
  for (int s = 0; s < kSlots; ++s)
    if (g_used[s]) {
      g_used[s] = false;
      remove_tree(g_paths[s]);
    }
}

}  // namespace progsim::sim

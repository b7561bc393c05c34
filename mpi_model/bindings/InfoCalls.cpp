// MPI-4.1 §10: info objects, and MPI_INFO_ENV (§11.2.4). Info objects are
// per process (core/Info.hpp); errors are raised on MPI_COMM_WORLD.

#include "bindings/Binding.hpp"

#include <algorithm>
#include <cstring>
#include <unistd.h>

using namespace progsim;
using namespace progsim::mpi;

namespace {

// MPI_INFO_ENV: how the job was started, as mpiexec would say.
void fill_env(const Binding& b, InfoTable& table)
{
  if (table.env_filled)
    return;
  table.env_filled = true;
  Info* env = table.find(MPI_INFO_ENV);
  const sim::RunOptions& options = b.model().simulation().options();
  env->set("command", options.program);
  std::string argv;
  for (const std::string& a : options.args)
    argv += (argv.empty() ? "" : " ") + a;
  if (!argv.empty())
    env->set("argv", argv);
  env->set("maxprocs", std::to_string(b.model().simulation().size()));
  env->set("host", b.rank()->host()->get_name());
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd))
    env->set("wdir", cwd);
  env->set("thread_level", thread_level_name(b.model().process(b.world()).thread_level));
}

int resolve_info(const Binding& b, MPI_Info handle, Info*& info)
{
  if (!b.rank())  // callable before MPI_Init and MPI_Session_init (MPI-4.1 §11.4.1)
    return MPI_ERR_OTHER;
  InfoTable& table = b.model().process(b.world()).infos;
  if (handle == MPI_INFO_ENV)
    fill_env(b, table);
  info = table.find(handle);
  if (!info)
    return b.error(MPI_COMM_WORLD, MPI_ERR_INFO, handle == MPI_INFO_NULL ? "MPI_INFO_NULL" : "unknown info handle");
  return MPI_SUCCESS;
}

int check_key(const Binding& b, const char* key)
{
  if (!key)
    return b.error(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, "null key");
  std::size_t n = std::strlen(key);
  if (n == 0)
    return b.error(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, "empty key");
  if (n > MPI_MAX_INFO_KEY)
    return b.error(MPI_COMM_WORLD, MPI_ERR_INFO_KEY,
                   "key of " + std::to_string(n) + " characters (MPI_MAX_INFO_KEY is " +
                       std::to_string(MPI_MAX_INFO_KEY) + ")");
  return MPI_SUCCESS;
}

}  // namespace

namespace progsim::mpi {

// The info object behind a handle for other bindings (communicator hints);
// MPI_INFO_NULL gives an empty one. Raises MPI_ERR_INFO for bad handles.
int info_contents(const Binding& b, MPI_Info handle, Info& out)
{
  if (handle == MPI_INFO_NULL) {
    out = Info{};
    return MPI_SUCCESS;
  }
  Info* info = nullptr;
  if (int err = resolve_info(b, handle, info))
    return err;
  out = *info;
  return MPI_SUCCESS;
}

MPI_Info new_info(const Binding& b, Info contents)
{
  return b.model().process(b.world()).infos.insert(std::move(contents));
}

}  // namespace progsim::mpi

extern "C" {

int PMPI_Info_create(MPI_Info* info)
{
  Binding b("MPI_Info_create");
  if (!b.rank())  // callable before MPI_Init and MPI_Session_init (MPI-4.1 §11.4.1)
    return MPI_ERR_OTHER;
  if (!info)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null info pointer");
  *info = new_info(b, Info{});
  return MPI_SUCCESS;
}

int PMPI_Info_set(MPI_Info info, const char* key, const char* value)
{
  Binding b("MPI_Info_set");
  Info* i = nullptr;
  if (int err = resolve_info(b, info, i))
    return err;
  if (info == MPI_INFO_ENV)
    return b.error(MPI_COMM_WORLD, MPI_ERR_INFO, "MPI_INFO_ENV cannot be modified");
  if (int err = check_key(b, key))
    return err;
  if (!value)
    return b.error(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE, "null value");
  std::size_t n = std::strlen(value);
  if (n > MPI_MAX_INFO_VAL)
    return b.error(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE,
                   "value of " + std::to_string(n) + " characters (MPI_MAX_INFO_VAL is " +
                       std::to_string(MPI_MAX_INFO_VAL) + ")");
  i->set(key, value);
  return MPI_SUCCESS;
}

int PMPI_Info_delete(MPI_Info info, const char* key)
{
  Binding b("MPI_Info_delete");
  Info* i = nullptr;
  if (int err = resolve_info(b, info, i))
    return err;
  if (info == MPI_INFO_ENV)
    return b.error(MPI_COMM_WORLD, MPI_ERR_INFO, "MPI_INFO_ENV cannot be modified");
  if (int err = check_key(b, key))
    return err;
  if (!i->erase(key))
    return b.error(MPI_COMM_WORLD, MPI_ERR_INFO_NOKEY, std::string("no key \"") + key + "\"");
  return MPI_SUCCESS;
}

int PMPI_Info_get_string(MPI_Info info, const char* key, int* buflen, char* value, int* flag)
{
  Binding b("MPI_Info_get_string");
  Info* i = nullptr;
  if (int err = resolve_info(b, info, i))
    return err;
  if (int err = check_key(b, key))
    return err;
  if (!buflen || !flag || *buflen < 0)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null or negative buflen, or null flag");
  const std::string* v = i->get(key);
  *flag = v != nullptr;
  if (!v)
    return MPI_SUCCESS;
  int capacity = *buflen;
  if (capacity > 0 && value) {
    std::size_t n = std::min<std::size_t>(v->size(), static_cast<std::size_t>(capacity - 1));
    std::memcpy(value, v->data(), n);
    value[n] = '\0';
  }
  *buflen = static_cast<int>(v->size()) + 1;
  return MPI_SUCCESS;
}

int PMPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag)
{
  Binding b("MPI_Info_get");
  Info* i = nullptr;
  if (int err = resolve_info(b, info, i))
    return err;
  if (int err = check_key(b, key))
    return err;
  if (valuelen < 0 || !flag)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "negative valuelen or null flag");
  const std::string* v = i->get(key);
  *flag = v != nullptr;
  if (v && value) {
    // valuelen excludes the terminating null (MPI-4.1 §10).
    std::size_t n = std::min<std::size_t>(v->size(), static_cast<std::size_t>(valuelen));
    std::memcpy(value, v->data(), n);
    value[n] = '\0';
  }
  return MPI_SUCCESS;
}

int PMPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag)
{
  Binding b("MPI_Info_get_valuelen");
  Info* i = nullptr;
  if (int err = resolve_info(b, info, i))
    return err;
  if (int err = check_key(b, key))
    return err;
  const std::string* v = i->get(key);
  *flag = v != nullptr;
  if (v)
    *valuelen = static_cast<int>(v->size());
  return MPI_SUCCESS;
}

int PMPI_Info_get_nkeys(MPI_Info info, int* nkeys)
{
  Binding b("MPI_Info_get_nkeys");
  Info* i = nullptr;
  if (int err = resolve_info(b, info, i))
    return err;
  *nkeys = static_cast<int>(i->entries.size());
  return MPI_SUCCESS;
}

int PMPI_Info_get_nthkey(MPI_Info info, int n, char* key)
{
  Binding b("MPI_Info_get_nthkey");
  Info* i = nullptr;
  if (int err = resolve_info(b, info, i))
    return err;
  if (n < 0 || n >= static_cast<int>(i->entries.size()))
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   "key number " + std::to_string(n) + " (the info has " + std::to_string(i->entries.size()) +
                       " keys)");
  const std::string& k = i->entries[static_cast<size_t>(n)].first;
  std::memcpy(key, k.c_str(), k.size() + 1);
  return MPI_SUCCESS;
}

int PMPI_Info_dup(MPI_Info info, MPI_Info* newinfo)
{
  Binding b("MPI_Info_dup");
  Info* i = nullptr;
  if (int err = resolve_info(b, info, i))
    return err;
  *newinfo = new_info(b, *i);
  return MPI_SUCCESS;
}

int PMPI_Info_free(MPI_Info* info)
{
  Binding b("MPI_Info_free");
  if (!b.rank())  // callable before MPI_Init and MPI_Session_init (MPI-4.1 §11.4.1)
    return MPI_ERR_OTHER;
  if (!info || !b.model().process(b.world()).infos.erase(*info))
    return b.error(MPI_COMM_WORLD, MPI_ERR_INFO,
                   !info || *info == MPI_INFO_NULL ? "MPI_INFO_NULL"
                   : *info == MPI_INFO_ENV         ? "MPI_INFO_ENV cannot be freed"
                                                   : "unknown info handle");
  *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}

int PMPI_Info_create_env(int, char*[], MPI_Info* info)
{
  Binding b("MPI_Info_create_env");
  InfoTable& table = b.model().process(b.world()).infos;
  fill_env(b, table);
  *info = table.insert(*table.find(MPI_INFO_ENV));
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Info_create)
PROGSIM_MPI_ALIAS(MPI_Info_set)
PROGSIM_MPI_ALIAS(MPI_Info_delete)
PROGSIM_MPI_ALIAS(MPI_Info_get_string)
PROGSIM_MPI_ALIAS(MPI_Info_get)
PROGSIM_MPI_ALIAS(MPI_Info_get_valuelen)
PROGSIM_MPI_ALIAS(MPI_Info_get_nkeys)
PROGSIM_MPI_ALIAS(MPI_Info_get_nthkey)
PROGSIM_MPI_ALIAS(MPI_Info_dup)
PROGSIM_MPI_ALIAS(MPI_Info_free)
PROGSIM_MPI_ALIAS(MPI_Info_create_env)

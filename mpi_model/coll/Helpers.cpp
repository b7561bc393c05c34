// Small pieces shared by the algorithms (see Algorithms.hpp).

#include "coll/Algorithms.hpp"

#include "MpiModel.hpp"
#include "datatype/Pack.hpp"

namespace progsim::mpi::coll {

int copy_checked(const void* src, std::int64_t scount, MPI_Datatype stype, void* dst, std::int64_t rcount,
                 MPI_Datatype rtype)
{
  DatatypeTable& types = MpiModel::instance().datatypes();
  dt::DatatypePtr st = types.find(stype);
  dt::DatatypePtr rt = types.find(rtype);
  if (!st || !rt)
    return MPI_ERR_TYPE;
  std::int64_t bytes = scount * st->size();
  if (bytes > rcount * rt->size())
    return MPI_ERR_TRUNCATE;
  if (bytes > 0)
    dt::copy_typed(src, scount, *st, dst, rcount, *rt);
  return MPI_SUCCESS;
}

void copy_step(Schedule& s, const void* src, std::int64_t scount, MPI_Datatype stype, void* dst, std::int64_t rcount,
               MPI_Datatype rtype)
{
  s.local([=] { return copy_checked(src, scount, stype, dst, rcount, rtype); });
}

std::int64_t type_size(MPI_Datatype type)
{
  dt::DatatypePtr t = MpiModel::instance().datatypes().find(type);
  return t ? t->size() : 0;
}

std::byte* load_step(Schedule& s, const ReduceWork& w, const void* input, std::int64_t items)
{
  std::byte* work = work_buffer(s, w, items);
  s.local([&w, input, items, work] {
    w.load(input, items, work);
    return MPI_SUCCESS;
  });
  return work;
}

void store_step(Schedule& s, const ReduceWork& w, const std::byte* work, std::int64_t items, void* user)
{
  s.local([&w, work, items, user] {
    w.store(work, items, user);
    return MPI_SUCCESS;
  });
}

const ReduceWork& reduction(Schedule& s, MPI_Datatype type, MPI_Op op)
{
  ReduceWork& w = s.keep(ReduceWork());
  std::string detail;
  w.init(s.owner(), type, op, detail);  // checked by the binding
  return w;
}

std::byte* work_buffer(Schedule& s, const ReduceWork& w, std::int64_t items)
{
  WorkBuffer& buffer = s.keep(w.allocate(items));
  if (!buffer.base)
    buffer.base = s.scratch(1);
  return buffer.base;
}

Counts prefix(const Counts& counts)
{
  Counts first(counts.size() + 1, 0);
  for (std::size_t i = 0; i < counts.size(); ++i)
    first[i + 1] = first[i] + counts[i];
  return first;
}

Counts split(std::int64_t total, int n)
{
  Counts counts(static_cast<size_t>(n), total / n);
  for (std::int64_t i = 0; i < total % n; ++i)
    ++counts[static_cast<size_t>(i)];
  return counts;
}

int largest_power_of_two(int n)
{
  int p = 1;
  while (p * 2 <= n)
    p *= 2;
  return p;
}

}  // namespace progsim::mpi::coll

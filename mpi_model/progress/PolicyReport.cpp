#include "progress/PolicyReport.hpp"

#include "progress/ProgressEngine.hpp"

#include <algorithm>
#include <cstdint>

namespace progsim::mpi {

namespace {

struct FieldValue {
  const ReportField* field;
  double value;
};

nlohmann::ordered_json json_of(const FieldValue& v)
{
  if (v.field->unit == ReportField::Unit::Count)
    return static_cast<std::uint64_t>(v.value);
  return v.value;
}

void write_in_name_order(std::vector<FieldValue> values, nlohmann::ordered_json& object)
{
  std::stable_sort(values.begin(), values.end(),
                   [](const FieldValue& a, const FieldValue& b) { return a.field->name < b.field->name; });
  for (const FieldValue& v : values)
    object[v.field->name] = json_of(v);
}

}  // namespace

const ExecutorDescription& rank_executor()
{
  static const ExecutorDescription rank{"rank", "#000000", "by the rank inside MPI"};
  return rank;
}

void add_policy_fields_to_rank(const PolicyList& policies, const ProgressEngine& engine, int rank,
                               nlohmann::ordered_json& entry)
{
  const ProgressCounters& c = engine.rank(rank).counters;
  const PolicyDescription& running = engine.policy_description();
  nlohmann::ordered_json chunks;
  chunks[rank_executor().label] = c.chunks_by_rank;
  std::vector<FieldValue> chunk_fields, fields;
  for (const PolicyDescription* p : policies) {
    bool runs = p == &running;
    if (p->executor)
      chunks[p->executor->label] = runs ? c.chunks_by_agent : 0;
    for (std::size_t i = 0; i < p->rank_fields.size(); ++i) {
      const ReportField& f = p->rank_fields[i];
      (f.in_chunks ? chunk_fields : fields).push_back({&f, runs ? engine.policy().rank_field(rank, i) : 0.0});
    }
  }
  write_in_name_order(chunk_fields, chunks);
  entry["chunks"] = chunks;
  write_in_name_order(fields, entry);
}

std::vector<const ExecutorDescription*> executors(const PolicyList& policies)
{
  std::vector<const ExecutorDescription*> list = {&rank_executor()};
  for (const PolicyDescription* p : policies)
    if (p->executor)
      list.push_back(&*p->executor);
  return list;
}

std::vector<const ReportField*> compare_columns(const PolicyList& policies)
{
  std::vector<const ReportField*> columns;
  for (const PolicyDescription* p : policies)
    for (const ReportField& f : p->rank_fields)
      if (!f.column.empty())
        columns.push_back(&f);
  return columns;
}

}  // namespace progsim::mpi

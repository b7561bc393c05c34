#include "progsim/ReportColors.hpp"

#include "progress/PolicyReport.hpp"

#include <array>

namespace progsim::cli {

const char* state_color(const std::string& state)
{
  if (state == "user") return "#c7c7c7";
  if (state == "mpi") return "#4a7bd0";
  if (state == "blocked") return "#d62728";
  if (state == "sleeping") return "#f2c14e";
  if (state == "polling") return "#ff7f0e";
  if (state == "chunks") return "#2ca02c";
  return "#999999";
}

const char* series_color(std::size_t k)
{
  static constexpr std::array<const char*, 6> kPalette = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"};
  return kPalette[k % kPalette.size()];
}

std::string executor_color(const std::string& executor)
{
  for (const mpi::ExecutorDescription* e : mpi::executors(mpi::policy_catalog()))
    if (e->label == executor)
      return e->colour;
  return "#7f7f7f";
}

}  // namespace progsim::cli

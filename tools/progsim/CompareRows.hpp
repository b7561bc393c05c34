// One run's line of a comparison: the headline numbers of its report
// (outcome, simulated time, blocked time, polling waste, latency, overlap,
// the policies' own columns), as compare prints them and as sweep gathers
// them into its results table.
#pragma once

#include "progsim/CompareTable.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace progsim::cli {

struct Row {
  std::string policy;
  nlohmann::ordered_json values;
  std::string output;  // the program's stdout under this policy
};

// The row of one run's --report JSON and exit status.
Row summarize(const std::string& policy, const nlohmann::json& report, int exit_status);

// The table's cells: the text table prints them, the HTML table sorts by their numbers.
CompareTable compare_table(const std::vector<Row>& rows);

// "chunks r/t/n/i": the initials of the executors.
std::string chunk_column_title();

// The CSV columns after "policy" (header names), and one row's cells for them.
std::vector<std::string> csv_columns();
std::vector<std::string> csv_cells(const nlohmann::ordered_json& values);

// A time in s, ms or us with 3 decimals ("-" for null).
std::string seconds(const nlohmann::ordered_json& value);

}  // namespace progsim::cli

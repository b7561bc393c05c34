// The comparison table as cells, for the text table and the HTML one: the
// same columns, titles and formatting (CompareCommand builds it).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace progsim::cli {

struct TableCell {
  std::string text;
  std::optional<double> number;  // what the HTML table sorts by ('-' cells have none)
};

struct CompareTable {
  std::vector<std::string> titles;   // as printed
  std::vector<std::string> columns;  // the JSON/CSV name of each column
  std::vector<std::vector<TableCell>> rows;
};

}  // namespace progsim::cli

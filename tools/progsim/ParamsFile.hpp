// `progsim run --params FILE.json`: model parameters kept in a file (as
// `progsim calibrate` writes them), read as --cfg settings. The file's
// "cfg" object maps each --cfg key to its value; every other member (the
// calibration's raw data, fit and residuals) is ignored by run.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace progsim::cli {

// The settings of FILE's "cfg" object, in the file's order. Throws
// sim::InputError when the file cannot be read or has no such object.
std::vector<std::pair<std::string, std::string>> read_params_file(const std::string& path);

}  // namespace progsim::cli

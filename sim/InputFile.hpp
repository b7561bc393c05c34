// Checks an input file (platform, hostfile, params, sweep spec) before it is
// read, so that what cannot be read is an input error naming the file.
#pragma once

#include <string>

namespace progsim::sim {

// "" when PATH can be opened and read as a file, else why not, as a suffix
// for a message (": is a directory", ": No such file or directory"). A
// directory opens as a stream and fails only at the first read (an
// exception from std::filebuf), hence the check.
std::string input_file_problem(const std::string& path);

}  // namespace progsim::sim

// Output files named on the command line are checked before a run starts, so
// that a typo in --report costs an error at once rather than a finished
// simulation whose results cannot be written.
#pragma once

#include <string>

namespace progsim::cli {

// Throws InputError ("--report /nonexistent/r.json: cannot write: No such
// file or directory") unless `path` can be created or overwritten. An
// existing file is left untouched; a file created for the check is removed.
void check_writable_file(const std::string& option, const std::string& path);

// The same for a directory that will hold output files (created if missing,
// as the writers do): its parent must allow that, or it must allow creating files.
void check_writable_directory(const std::string& option, const std::string& path);

}  // namespace progsim::cli

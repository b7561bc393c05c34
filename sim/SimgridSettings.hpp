// The SimGrid settings a user may pass as `--cfg KEY=VALUE` (a KEY with a
// '/'), checked before SimGrid sees them: SimGrid 3.32 aborts the process on
// an unknown model name (xbt_die), exits with status 0 after printing the
// choices for the value "help", and lists every key it has after an unknown
// one. progsim must instead refuse bad input with one clear line.
#pragma once

#include <string>

namespace progsim::sim {

// Throws InputError naming `key=value` and the reason when it cannot be
// passed to SimGrid (as far as progsim knows: SimGrid checks the rest when
// the setting is made).
void check_simgrid_setting(const std::string& key, const std::string& value);

// The first line of a SimGrid configuration error (it appends its list of
// every key to an unknown one).
std::string simgrid_error_summary(const std::string& what);

}  // namespace progsim::sim

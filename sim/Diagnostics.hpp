// Messages from progsim itself (never from a rank): they go to the real
// stderr, which OutputCapture keeps apart from the ranks' captured output.
#pragma once

#include <string>

namespace progsim::sim {

// Writes "progsim: <message>\n" to the launcher's stderr, unbuffered.
void diag(const std::string& message);
// Formats a simulated time for messages: "t=1.234567 s".
std::string format_time(double seconds);

// An error in the user's input (options, files): reported, exit status 2.
struct InputError {
  std::string message;
};

}  // namespace progsim::sim

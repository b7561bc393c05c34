#include "sim/Diagnostics.hpp"

#include "sim/OutputCapture.hpp"

#include <cstdio>

namespace progsim::sim {

void diag(const std::string& message)
{
  OutputCapture::write_diagnostic("progsim: " + message + "\n");
}

std::string format_time(double seconds)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "t=%.9f s", seconds);
  return buf;
}

}  // namespace progsim::sim

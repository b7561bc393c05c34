#include "sim/MinimalEnding.hpp"

#include "sim/OutputCapture.hpp"
#include "sim/Simulation.hpp"
#include "sim/TemporaryDirectory.hpp"

#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace progsim::sim {

void write_text(int fd, const char* text)
{
  size_t size = std::strlen(text);
  while (size > 0) {
    ssize_t n = ::write(fd, text, size);
    if (n <= 0)
      return;
    text += n;
    size -= static_cast<size_t>(n);
  }
}

namespace {

// `text` as the inside of a JSON string: quotes, backslashes and control
// characters escaped (a message has several lines for a deadlock).
const char* json_escaped(const char* text, char* buffer, size_t size)
{
  size_t k = 0;
  for (const char* c = text; *c && k + 7 < size; ++c) {
    auto byte = static_cast<unsigned char>(*c);
    if (*c == '"' || *c == '\\') {
      buffer[k++] = '\\';
      buffer[k++] = *c;
    } else if (byte < 0x20) {
      k += static_cast<size_t>(std::snprintf(buffer + k, size - k, "\\u%04x", byte));
    } else {
      buffer[k++] = *c;
    }
  }
  buffer[k] = '\0';
  return buffer;
}

// Creates (or truncates) `path` and writes `text` into it.
void write_file(const char* path, const char* text)
{
  int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  write_text(fd, text);
  ::close(fd);
}

}  // namespace

void MinimalEnding::end(const Simulation* simulation, const char* outcome, int exit_status, double end,
                        const char* message, bool show_message, const char* why, const char* partial)
{
  static char line[4096];
  static char escaped_message[4096];
  static char escaped_partial[1024];
  static char text[8192];
  // While the ranks' output is captured, fd 2 is the capture file.
  int err = OutputCapture::real_stderr();
  if (show_message) {
    std::snprintf(line, sizeof line, "progsim: %s\n", message);
    write_text(err, line);
  }
  std::snprintf(line, sizeof line, "progsim: %s\n", why);
  write_text(err, line);
  json_escaped(message, escaped_message, sizeof escaped_message);
  json_escaped(partial, escaped_partial, sizeof escaped_partial);
  // The options' strings were set before the run and are only read since.
  const char* report = simulation ? simulation->options().report_file.c_str() : "";
  if (*report) {
    std::snprintf(text, sizeof text,
                  "{\n  \"outcome\": \"%s\",\n  \"exit_status\": %d,\n  \"message\": \"%s\",\n"
                  "  \"partial\": \"%s\"\n}\n",
                  outcome, exit_status, escaped_message, escaped_partial);
    write_file(report, text);
  }
  const char* timeline = simulation ? simulation->options().timeline_file.c_str() : "";
  if (*timeline) {
    if (simulation->options().timeline_format == "paje")  // operator== of std::string and a C string: no allocation
      std::snprintf(text, sizeof text,
                    "# partial timeline: the run ended as %s at %.9f s\n# no event: %s\n", outcome, end, partial);
    else
      std::snprintf(text, sizeof text,
                    "{\"traceEvents\":[\n],\n\"otherData\":{\"partial\": true, \"outcome\": \"%s\", "
                    "\"end\": %.9f, \"note\": \"no event: %s\"}}\n",
                    outcome, end, escaped_partial);
    write_file(timeline, text);
  }
  TemporaryDirectory::remove_all();
  ::_exit(exit_status);
}

}  // namespace progsim::sim

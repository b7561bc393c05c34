// A sign of life for long runs: on a terminal, one line on stderr with the
// simulated time, the ranks finished, blocked and polling, and the simulated
// events per second, rewritten in place at most four times a second from the
// second second of the run on. It is erased before any other output and at
// the end, and it is never written when stderr is not a terminal (files,
// pipes, the tests), so every output stays byte-identical. The wall clock it
// reads decides only when to redraw.
#pragma once

namespace progsim::sim {

class Simulation;

namespace detail {
inline bool progress_line_shown = false;
}

class ProgressLine {
public:
  // Shows the line on `terminal_fd` (the real stderr) while `simulation`
  // runs, if it is a terminal and PROGSIM_PROGRESS_LINE is not "0".
  static void start(const Simulation& simulation, int terminal_fd);
  static void stop();
  // Erases the line if it is shown (before other output reaches the terminal).
  static void erase()
  {
    if (detail::progress_line_shown)
      erase_shown();
  }

private:
  static void erase_shown();
};

}  // namespace progsim::sim

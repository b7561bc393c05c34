// The file formats of a recorded timeline:
//   chrome   Chrome trace-event JSON (chrome://tracing, ui.perfetto.dev): one
//            process per run, one thread per rank; intervals as complete
//            events ("X"), chunks as instant events ("i") with their executor,
//            messages as flow arrows ("s" -> "f"); one event per line;
//   paje     Paje trace (ViTE, pajeng): one container per rank, its state
//            over time, chunks as events, messages as links;
//   summary  the bounded multi-resolution summary the HTML report draws
//            (TimelineSummary.hpp), JSON.
// Times are simulated seconds (microseconds in the Chrome format). Each
// writer streams to the file: no format is built whole in memory first.
#pragma once

#include <iosfwd>
#include <string>

namespace progsim::sim {

class Timeline;

void write_chrome_trace(const Timeline& timeline, std::ostream& out);
void write_paje_trace(const Timeline& timeline, std::ostream& out);

// "chrome", "paje" or "summary" from --timeline-format, else from the file
// name (.paje/.trace: paje, anything else: chrome). Throws InputError for an
// unknown format.
std::string timeline_format(const std::string& file, const std::string& requested);
// Writes the timeline in that format; false when the file cannot be written.
bool write_timeline(const Timeline& timeline, const std::string& file, const std::string& format);

}  // namespace progsim::sim

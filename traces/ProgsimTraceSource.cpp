// Reading progsim traces (docs/traces.md).
#include "traces/LineReader.hpp"
#include "traces/Otf2TraceSource.hpp"
#include "traces/TiTraceSource.hpp"
#include "traces/TraceSchema.hpp"
#include "traces/TraceSource.hpp"

#include <cstdlib>
#include <sys/stat.h>

namespace progsim::traces {

namespace {

bool is_directory(const std::string& path)
{
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Events of one rank from a progsim trace file: the rank's own file, or the
// shared file (then the other ranks' events are skipped; a cheap look at the
// line's leading "rank" key avoids parsing them).
class ProgsimRankSource final : public RankEventSource {
public:
  ProgsimRankSource(const std::string& file, int rank, bool shared) : reader_(file), rank_(rank), shared_(shared)
  {
    std::string line;
    if (!reader_.next(line))
      throw TraceError(file, 1, "empty file (a header line is required)");
    nlohmann::json header = parse_header(file, line);
    auto owner = header.find("rank");
    if (!shared_ && (owner == header.end() || !owner->is_number_integer() || owner->get<long long>() != rank))
      throw TraceError(file, 1, "header: this file is not rank " + std::to_string(rank) + "'s");
  }

  // The line is read into the event's own buffer (TraceEvent::line_buffer),
  // whose capacity the replay keeps from event to event.
  bool next(TraceEvent& event) override
  {
    std::string& line = event.line_buffer();
    while (reader_.next(line)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos)
        continue;
      if (shared_ && skip_quickly(line))
        continue;
      int rank = -1;
      parse_event(reader_.path(), reader_.line_number(), event, rank);
      if (shared_ && rank < 0)
        wrong_rank(rank);
      if (rank >= 0 && rank != rank_) {
        if (!shared_)
          wrong_rank(rank);
        continue;
      }
      return true;
    }
    return false;
  }

  const std::string& file() const override { return reader_.path(); }

private:
  // The errors of next(), out of its frame: it runs on the replayed rank's
  // stack below every event's replay, whose depth decides how many pages a
  // rank keeps resident (RankReplay.hpp).
  [[noreturn, gnu::noinline, gnu::cold]] void wrong_rank(int rank) const
  {
    if (rank < 0)
      throw TraceError(reader_.path(), reader_.line_number(), "missing \"rank\" (required in a single-file trace)");
    throw TraceError(reader_.path(), reader_.line_number(),
                     "event of rank " + std::to_string(rank) + " in rank " + std::to_string(rank_) + "'s file");
  }

  // Lines written by progsim start with {"rank":R, — another rank's line
  // can be skipped without parsing it.
  bool skip_quickly(const std::string& line) const
  {
    static const std::string prefix = "{\"rank\":";
    if (line.compare(0, prefix.size(), prefix) != 0)
      return false;
    char* end = nullptr;
    long rank = std::strtol(line.c_str() + prefix.size(), &end, 10);
    return end != line.c_str() + prefix.size() && *end == ',' && rank != rank_;
  }

  LineReader reader_;
  int rank_;
  bool shared_;
};

}  // namespace

std::string rank_file(const std::string& dir, int rank)
{
  return dir + "/rank-" + std::to_string(rank) + ".jsonl";
}

nlohmann::json parse_header(const std::string& file, const std::string& line)
{
  nlohmann::json header = nlohmann::json::parse(line, nullptr, false);
  if (header.is_discarded() || !header.is_object())
    throw TraceError(file, 1, "the header line is not a JSON object");
  auto format = header.find("format");
  if (format == header.end() || !format->is_string() || format->get<std::string>() != kFormatName)
    throw TraceError(file, 1, std::string("header: \"format\" must be \"") + kFormatName + "\"");
  auto version = header.find("version");
  if (version == header.end() || !version->is_number_integer())
    throw TraceError(file, 1, "header: \"version\" must be an integer");
  if (version->get<long long>() < kOldestFormatVersion || version->get<long long>() > kFormatVersion)
    throw TraceError(file, 1, "header: version " + std::to_string(version->get<long long>()) +
                                  " is not supported (this progsim reads versions " +
                                  std::to_string(kOldestFormatVersion) + " to " + std::to_string(kFormatVersion) + ")");
  auto nranks = header.find("nranks");
  if (nranks == header.end() || !nranks->is_number_integer() || nranks->get<long long>() < 1 ||
      nranks->get<long long>() > 100000000)
    throw TraceError(file, 1, "header: \"nranks\" must be a positive integer");
  return header;
}

namespace {

// Parses and checks the event line in event.line_buffer() as JSON. Out of
// parse_event's frame, which every replayed rank runs through (its stack's
// depth is its resident memory, RankReplay.hpp).
[[gnu::noinline]] void parse_json_event(const std::string& file, long line_number, TraceEvent& event, int& rank)
{
  nlohmann::json fields = nlohmann::json::parse(event.line_buffer(), nullptr, false);
  if (fields.is_discarded())
    throw TraceError(file, line_number, "not valid JSON");
  std::string reason = validate_event(fields);
  if (!reason.empty())
    throw TraceError(file, line_number, reason);
  rank = -1;
  if (auto r = fields.find("rank"); r != fields.end()) {
    if (!r->is_number_integer() || r->get<long long>() < 0 || r->get<long long>() > 100000000)
      throw TraceError(file, line_number, "\"rank\" must be a non-negative integer");
    rank = r->get<int>();
  }
  event.assign(std::move(fields));
}

}  // namespace

void parse_event(const std::string& file, long line_number, TraceEvent& event, int& rank)
{
  event.line = line_number;
  rank = -1;
  if (event.assign_line() && valid_flat_event(event)) {
    const FlatField* r = event.find_flat("rank");
    if (!r)
      return;
    if (r->kind == FlatField::Kind::Integer && r->integer >= 0 && r->integer <= 100000000) {
      rank = static_cast<int>(r->integer);
      return;
    }
  }
  // Not a flat line, or not a valid event: the JSON form, and its reason.
  parse_json_event(file, line_number, event, rank);
}

TraceInfo probe_trace(const std::string& path)
{
  if (is_otf2_archive(path))
    return probe_otf2_trace(path);
  TraceInfo info;
  std::string file = is_directory(path) ? rank_file(path, 0) : path;
  LineReader reader(file);
  std::string line;
  if (!reader.next(line))
    throw TraceError(file, 1, "empty trace");
  if (line.find('{') == std::string::npos)
    return probe_ti_trace(path);
  info.header = parse_header(file, line);
  info.nranks = info.header["nranks"].get<int>();
  return info;
}

std::unique_ptr<RankEventSource> open_rank_events(const std::string& path, const TraceInfo& info, int rank)
{
  if (info.kind == TraceKind::SimgridTi)
    return open_ti_rank_events(path, info, rank);
  if (info.kind == TraceKind::Otf2)
    return open_otf2_rank_events(path, info, rank);
  if (is_directory(path))
    return std::make_unique<ProgsimRankSource>(rank_file(path, rank), rank, false);
  return std::make_unique<ProgsimRankSource>(path, rank, true);
}

}  // namespace progsim::traces

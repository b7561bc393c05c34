#include "traces/TiTraceSource.hpp"

#include "traces/LineReader.hpp"

#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <sstream>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace progsim::traces {

namespace {

std::vector<std::string> split_words(const std::string& line)
{
  std::vector<std::string> words;
  std::istringstream in(line);
  std::string word;
  while (in >> word)
    words.push_back(word);
  return words;
}

bool parse_long(const std::string& text, long long& value)
{
  char* end = nullptr;
  value = std::strtoll(text.c_str(), &end, 10);
  return !text.empty() && *end == '\0';
}

// A rank's file listed in an index: as written (relative to the current
// directory, like smpirun), else relative to the index file.
std::string resolve_listed(const std::string& index, const std::string& listed)
{
  if (listed.empty() || listed[0] == '/' || ::access(listed.c_str(), R_OK) == 0)
    return listed;
  auto slash = index.rfind('/');
  return slash == std::string::npos ? listed : index.substr(0, slash + 1) + listed;
}

// SimGrid's datatype ids (simgrid::smpi::Datatype::encode) and their sizes.
struct TiDatatype {
  const char* name;
  int size;
};
const TiDatatype kTiDatatypes[] = {
    {"MPI_DOUBLE", 8}, {"MPI_INT", 4},           {"MPI_CHAR", 1},           {"MPI_SHORT", 2},
    {"MPI_LONG", 8},   {"MPI_FLOAT", 4},         {"MPI_BYTE", 1},           {"MPI_LONG_LONG", 8},
    {"MPI_SIGNED_CHAR", 1}, {"MPI_UNSIGNED_CHAR", 1}, {"MPI_UNSIGNED_SHORT", 2}, {"MPI_UNSIGNED", 4},
    {"MPI_UNSIGNED_LONG", 8}, {"MPI_UNSIGNED_LONG_LONG", 8}, {"MPI_LONG_DOUBLE", 16},
};

class TiRankSource final : public RankEventSource {
public:
  TiRankSource(const std::string& file, int rank, int nranks, bool shared)
      : reader_(file), rank_(rank), nranks_(nranks), shared_(shared)
  {
  }

  bool next(TraceEvent& event) override
  {
    std::string line;
    while (pending_.empty() && reader_.next(line))
      convert(line);
    if (pending_.empty())
      return false;
    event = std::move(pending_.front());
    pending_.pop_front();
    return true;
  }

  const std::string& file() const override { return reader_.path(); }

private:
  [[noreturn]] void fail(const std::string& reason) const
  {
    throw TraceError(reader_.path(), reader_.line_number(), reason);
  }

  void emit(nlohmann::json fields)
  {
    TraceEvent event;
    event.assign(std::move(fields));
    event.line = reader_.line_number();
    pending_.push_back(std::move(event));
  }

  // Words of the current action: words_[0] rank, words_[1] action.
  long long integer(std::size_t i) const
  {
    if (i >= words_.size())
      fail("action '" + words_[1] + "': argument " + std::to_string(i - 1) + " is missing");
    // Sizes are often written as 1e6: SMPI reads them as doubles, then truncates.
    char* end = nullptr;
    double value = std::strtod(words_[i].c_str(), &end);
    if (*end != '\0' || !std::isfinite(value) || std::fabs(value) > 9e15)
      fail("action '" + words_[1] + "': argument " + std::to_string(i - 1) + " ('" + words_[i] +
           "') is not a number");
    return static_cast<long long>(std::trunc(value));
  }
  double number(std::size_t i) const
  {
    if (i >= words_.size())
      fail("action '" + words_[1] + "': argument " + std::to_string(i - 1) + " is missing");
    char* end = nullptr;
    double value = std::strtod(words_[i].c_str(), &end);
    if (*end != '\0' || !std::isfinite(value) || value < 0)
      fail("action '" + words_[1] + "': argument " + std::to_string(i - 1) + " ('" + words_[i] +
           "') is not a non-negative number");
    return value;
  }
  int peer(std::size_t i) const
  {
    long long value = integer(i);
    if (value < 0 || value >= nranks_)
      fail("action '" + words_[1] + "': rank " + std::to_string(value) + " out of range (" +
           std::to_string(nranks_) + " ranks)");
    return static_cast<int>(value);
  }
  const TiDatatype& datatype(std::size_t i) const
  {
    if (i >= words_.size())
      return kTiDatatypes[default_type_];
    long long id = integer(i);
    if (id < 0 || id >= static_cast<long long>(std::size(kTiDatatypes)))
      fail("action '" + words_[1] + "': datatype id " + words_[i] + " is not supported");
    return kTiDatatypes[id];
  }
  long long bytes(long long count, const TiDatatype& type) const
  {
    if (count < 0)
      fail("action '" + words_[1] + "': negative size");
    return count * type.size;
  }
  std::vector<long long> counts(std::size_t first, const TiDatatype& type) const
  {
    std::vector<long long> list;
    for (int i = 0; i < nranks_; ++i)
      list.push_back(bytes(integer(first + static_cast<std::size_t>(i)), type));
    return list;
  }
  void reduction_compute(double flops)
  {
    if (flops > 0)
      emit({{"call", "compute"}, {"flops", flops}});
  }
  static const char* op_for(const TiDatatype& type)
  {
    // SMPI replays reductions with MPI_OP_NULL; any valid operation will do.
    return std::string(type.name) == "MPI_BYTE" ? "MPI_BOR" : "MPI_SUM";
  }

  void convert(const std::string& line)
  {
    words_ = split_words(line);
    if (words_.empty() || words_[0][0] == '#')
      return;
    long long rank = 0;
    if (!parse_long(words_[0], rank) || rank < 0)
      fail("a line must start with a rank number, not '" + words_[0] + "'");
    if (words_.size() < 2)
      fail("missing action after the rank");
    if (shared_ && rank != rank_)
      return;
    const std::string& action = words_[1];
    if (action == "init") {
      default_type_ = words_.size() > 2 ? 0 : 6;  // MPI_DOUBLE (MPE traces) or MPI_BYTE (TAU traces), as SMPI
      emit({{"call", "init"}});
    } else if (action == "finalize") {
      emit({{"call", "finalize"}});
    } else if (action == "comm_size" || action == "comm_split" || action == "comm_dup" || action == "location") {
      // Nothing to simulate (SMPI's replay ignores them as well).
    } else if (action == "compute") {
      emit({{"call", "compute"}, {"flops", number(2)}});
    } else if (action == "sleep") {
      emit({{"call", "sleep"}, {"s", number(2)}});
    } else if (action == "send" || action == "isend" || action == "recv" || action == "irecv") {
      int partner = peer(2);
      long long tag = integer(3);
      nlohmann::json fields = {{"call", action}, {"peer", partner}, {"tag", tag}, {"comm", 0},
                               {"bytes", bytes(integer(4), datatype(5))}};
      if (action[0] == 'i') {
        bool send = action == "isend";
        int id = next_request_++;
        requests_[{send ? rank_ : partner, send ? partner : rank_, tag}].push_back(id);
        fields["req"] = id;
      }
      emit(std::move(fields));
    } else if (action == "sendrecv") {
      const TiDatatype& send_type = datatype(6);
      emit({{"call", "sendrecv"}, {"peer", peer(3)}, {"tag", 0}, {"bytes", bytes(integer(2), send_type)},
            {"source", peer(5)}, {"rtag", 0}, {"rbytes", bytes(integer(4), datatype(7))}, {"comm", 0}});
    } else if (action == "wait" || action == "test") {
      auto key = std::make_tuple(static_cast<int>(integer(2)), static_cast<int>(integer(3)), integer(4));
      auto found = requests_.find(key);
      if (found == requests_.end())
        return;  // completed by an earlier test (SMPI ignores it too)
      int id = found->second.front();
      if (action == "wait") {
        found->second.pop_front();
        if (found->second.empty())
          requests_.erase(found);
      }
      emit({{"call", action}, {"req", id}});
    } else if (action == "waitall") {
      std::vector<int> ids;
      for (auto& [key, list] : requests_)
        ids.insert(ids.end(), list.begin(), list.end());
      requests_.clear();
      if (!ids.empty())
        emit({{"call", "waitall"}, {"reqs", ids}});
    } else if (action == "barrier") {
      emit({{"call", "barrier"}, {"comm", 0}});
    } else if (action == "bcast") {
      emit({{"call", "bcast"}, {"comm", 0}, {"root", words_.size() > 3 ? peer(3) : 0},
            {"bytes", bytes(integer(2), datatype(4))}});
    } else if (action == "reduce") {
      const TiDatatype& type = datatype(5);
      emit({{"call", "reduce"}, {"comm", 0}, {"root", words_.size() > 4 ? peer(4) : 0}, {"count", integer(2)},
            {"dt", type.name}, {"op", op_for(type)}});
      reduction_compute(number(3));
    } else if (action == "allreduce") {
      const TiDatatype& type = datatype(4);
      emit({{"call", "allreduce"}, {"comm", 0}, {"count", integer(2)}, {"dt", type.name}, {"op", op_for(type)}});
      reduction_compute(number(3));
    } else if (action == "alltoall") {
      emit({{"call", "alltoall"}, {"comm", 0}, {"bytes", bytes(integer(2), datatype(4))},
            {"rbytes", bytes(integer(3), datatype(5))}});
    } else if (action == "alltoallv") {
      std::size_t n = static_cast<std::size_t>(nranks_);
      emit({{"call", "alltoallv"}, {"comm", 0}, {"sbytes", counts(3, datatype(4 + 2 * n))},
            {"rbytes", counts(4 + n, datatype(5 + 2 * n))}});
    } else if (action == "gather" || action == "allgather") {
      bool rooted = action == "gather";
      std::size_t dt = rooted ? 5 : 4;
      nlohmann::json fields = {{"call", action}, {"comm", 0}, {"bytes", bytes(integer(2), datatype(dt))},
                               {"rbytes", bytes(integer(3), datatype(dt + 1))}};
      if (rooted)
        fields["root"] = words_.size() > 4 ? peer(4) : 0;
      emit(std::move(fields));
    } else if (action == "gatherv" || action == "allgatherv") {
      std::size_t n = static_cast<std::size_t>(nranks_);
      bool rooted = action == "gatherv";
      std::size_t dt = rooted ? 4 + n : 3 + n;
      nlohmann::json fields = {{"call", action}, {"comm", 0}, {"bytes", bytes(integer(2), datatype(dt))},
                               {"rbytes", counts(3, datatype(dt + 1))}};
      if (rooted)
        fields["root"] = words_.size() > 3 + n ? peer(3 + n) : 0;
      emit(std::move(fields));
    } else if (action == "scatter") {
      emit({{"call", "scatter"}, {"comm", 0}, {"root", words_.size() > 4 ? peer(4) : 0},
            {"bytes", bytes(integer(2), datatype(5))}, {"rbytes", bytes(integer(3), datatype(6))}});
    } else if (action == "reducescatter") {
      std::size_t n = static_cast<std::size_t>(nranks_);
      const TiDatatype& type = datatype(3 + n);
      std::vector<long long> list;
      for (std::size_t i = 0; i < n; ++i)
        list.push_back(integer(2 + i));
      emit({{"call", "reduce_scatter"}, {"comm", 0}, {"counts", list}, {"dt", type.name}, {"op", op_for(type)}});
      reduction_compute(number(2 + n));
    } else {
      fail("action '" + action + "' is not supported");
    }
  }

  LineReader reader_;
  int rank_;
  int nranks_;
  bool shared_;
  std::vector<std::string> words_;
  std::deque<TraceEvent> pending_;
  std::size_t default_type_ = 6;  // MPI_BYTE
  int next_request_ = 0;
  // Pending isend/irecv by (sender, receiver, tag), oldest first, as SMPI's RequestStorage.
  std::map<std::tuple<int, int, long long>, std::deque<int>> requests_;
};

bool is_actions_line(const std::vector<std::string>& words)
{
  long long rank = 0;
  return words.size() >= 2 && parse_long(words[0], rank) && !words[1].empty() && std::isalpha(static_cast<unsigned char>(words[1][0]));
}

// Ranks in a file with every rank: one more than the largest rank named.
int count_ranks(const std::string& file)
{
  LineReader reader(file);
  std::string line;
  long long largest = -1;
  while (reader.next(line)) {
    std::vector<std::string> words = split_words(line);
    if (words.empty() || words[0][0] == '#')
      continue;
    long long rank = 0;
    if (!parse_long(words[0], rank) || rank < 0 || rank >= 100000000)
      throw TraceError(file, reader.line_number(), "a line must start with a rank number, not '" + words[0] + "'");
    largest = std::max(largest, rank);
  }
  if (largest < 0)
    throw TraceError(file, 0, "no action in the trace");
  return static_cast<int>(largest + 1);
}

}  // namespace

TraceInfo probe_ti_trace(const std::string& path)
{
  TraceInfo info;
  info.kind = TraceKind::SimgridTi;
  LineReader reader(path);
  std::string line;
  std::vector<std::string> files;
  while (reader.next(line)) {
    std::vector<std::string> words = split_words(line);
    if (words.empty() || words[0][0] == '#')
      continue;
    if (is_actions_line(words)) {
      info.header = {{"files", nlohmann::json::array({path})}};
      info.nranks = count_ranks(path);
      return info;
    }
    if (words.size() != 1)
      throw TraceError(path, reader.line_number(),
                       "neither a progsim trace, nor SimGrid actions ('RANK ACTION ...'), nor an index of trace files");
    files.push_back(resolve_listed(path, words[0]));
  }
  if (files.empty())
    throw TraceError(path, 0, "empty trace index");
  for (std::size_t i = 0; i < files.size(); ++i)
    if (::access(files[i].c_str(), R_OK) != 0)
      throw TraceError(path, 0, "listed trace file '" + files[i] + "' cannot be read");
  info.header = {{"files", files}};
  info.nranks = files.size() == 1 ? count_ranks(files[0]) : static_cast<int>(files.size());
  return info;
}

std::unique_ptr<RankEventSource> open_ti_rank_events(const std::string&, const TraceInfo& info, int rank)
{
  const nlohmann::json& files = info.header.at("files");
  bool shared = files.size() == 1;
  std::string file = files.at(shared ? 0 : static_cast<std::size_t>(rank)).get<std::string>();
  return std::make_unique<TiRankSource>(file, rank, info.nranks, shared);
}

}  // namespace progsim::traces

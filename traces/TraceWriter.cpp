#include "traces/TraceWriter.hpp"

#include "traces/TraceEvent.hpp"
#include "traces/TraceSource.hpp"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace progsim::traces {

namespace {

nlohmann::ordered_json make_header(int nranks, const nlohmann::ordered_json& about)
{
  nlohmann::ordered_json header;
  header["format"] = kFormatName;
  header["version"] = kFormatVersion;
  header["nranks"] = nranks;
  for (auto& [key, value] : about.items())
    header[key] = value;
  return header;
}

}  // namespace

TraceWriter::TraceWriter(const std::string& path, int nranks, const nlohmann::ordered_json& about)
    : path_(path), nranks_(nranks), about_(about)
{
  struct stat st {};
  per_rank_ = (!path.empty() && path.back() == '/') || (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode));
  if (per_rank_) {
    while (path_.size() > 1 && path_.back() == '/')
      path_.pop_back();
    if (::mkdir(path_.c_str(), 0755) != 0 && errno != EEXIST)
      throw TraceError(path_, 0, std::string("cannot create the trace directory: ") + std::strerror(errno));
    files_.assign(static_cast<std::size_t>(nranks), nullptr);
    return;
  }
  shared_ = std::fopen(path_.c_str(), "w");
  if (!shared_)
    throw TraceError(path_, 0, std::string("cannot write the trace: ") + std::strerror(errno));
  write_line(shared_, make_header(nranks, about_).dump());
}

TraceWriter::~TraceWriter()
{
  if (shared_)
    std::fclose(shared_);
  for (std::FILE* file : files_)
    if (file)
      std::fclose(file);
}

std::FILE* TraceWriter::file_for(int rank)
{
  if (!per_rank_)
    return shared_;
  std::FILE*& file = files_.at(static_cast<std::size_t>(rank));
  if (!file) {
    std::string name = rank_file(path_, rank);
    file = std::fopen(name.c_str(), "w");
    if (!file)
      throw TraceError(name, 0, std::string("cannot write the trace: ") + std::strerror(errno));
    nlohmann::ordered_json header = make_header(nranks_, about_);
    header["rank"] = rank;
    write_line(file, header.dump());
  }
  return file;
}

void TraceWriter::write_line(std::FILE* file, const std::string& line)
{
  std::fwrite(line.data(), 1, line.size(), file);
  std::fputc('\n', file);
  std::fflush(file);
}

void TraceWriter::write(int rank, const nlohmann::ordered_json& event)
{
  std::FILE* file = file_for(rank);
  std::string body = event.dump();
  if (per_rank_)
    write_line(file, body);
  else  // {"rank":R, then the event's own keys: readers skip other ranks' lines by this prefix
    write_line(file, "{\"rank\":" + std::to_string(rank) + (body.size() > 2 ? "," : "") + body.substr(1));
}

}  // namespace progsim::traces

// The progsim trace format: writer -> reader round trip, incremental line
// reading, errors naming file, line and reason, and the SimGrid TI import.
#include "traces/LineReader.hpp"
#include "traces/TraceSchema.hpp"
#include "traces/TraceSource.hpp"
#include "traces/TraceWriter.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace progsim::traces {
namespace {

class TraceTest : public ::testing::Test {
protected:
  void SetUp() override
  {
    char templ[] = "/tmp/progsim-trace-test-XXXXXX";
    ASSERT_NE(::mkdtemp(templ), nullptr);
    dir_ = templ;
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }

  std::string write_file(const std::string& name, const std::string& text)
  {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  static std::vector<TraceEvent> all_events(const std::string& path, int rank)
  {
    TraceInfo info = probe_trace(path);
    auto source = open_rank_events(path, info, rank);
    std::vector<TraceEvent> events;
    TraceEvent e;
    while (source->next(e))
      events.push_back(e);
    return events;
  }
  // The message of the TraceError reading `path` throws.
  static std::string error_of(const std::string& path, int rank = 0)
  {
    try {
      all_events(path, rank);
    } catch (const TraceError& e) {
      return e.what();
    }
    return "no error";
  }

  std::string dir_;
};

const char* kHeader = R"({"format":"progsim-trace","version":1,"nranks":2})"
                      "\n";

TEST_F(TraceTest, SingleFileRoundTripKeepsEachRanksEventsInOrder)
{
  std::string path = dir_ + "/t.jsonl";
  {
    TraceWriter writer(path, 2, {{"program", "x"}});
    EXPECT_FALSE(writer.per_rank());
    writer.write(0, {{"call", "init"}});
    writer.write(1, {{"call", "init"}});
    writer.write(0, {{"call", "isend"}, {"peer", 1}, {"tag", 7}, {"comm", 0}, {"bytes", 1024}, {"req", 0}});
    writer.write(1, {{"call", "compute"}, {"s", 0.25}});
    writer.write(0, {{"call", "wait"}, {"req", 0}});
  }
  TraceInfo info = probe_trace(path);
  EXPECT_EQ(info.kind, TraceKind::Progsim);
  EXPECT_EQ(info.nranks, 2);
  EXPECT_EQ(info.header["program"], "x");
  auto r0 = all_events(path, 0);
  ASSERT_EQ(r0.size(), 3u);
  EXPECT_EQ(r0[1].call, "isend");
  EXPECT_EQ(r0[1].integer("bytes"), 1024);
  EXPECT_EQ(r0[1].line, 4);
  EXPECT_EQ(r0[2].call, "wait");
  auto r1 = all_events(path, 1);
  ASSERT_EQ(r1.size(), 2u);
  EXPECT_DOUBLE_EQ(r1[1].number("s"), 0.25);
}

TEST_F(TraceTest, DirectoryHoldsOneFilePerRank)
{
  std::string path = dir_ + "/trace/";
  {
    TraceWriter writer(path, 3, {});
    EXPECT_TRUE(writer.per_rank());
    for (int r = 0; r < 3; ++r)
      writer.write(r, {{"call", "barrier"}, {"comm", 0}});
  }
  EXPECT_EQ(::access((dir_ + "/trace/rank-2.jsonl").c_str(), R_OK), 0);
  TraceInfo info = probe_trace(dir_ + "/trace");
  EXPECT_EQ(info.nranks, 3);
  auto r2 = all_events(dir_ + "/trace", 2);
  ASSERT_EQ(r2.size(), 1u);
  EXPECT_EQ(r2[0].call, "barrier");
}

TEST_F(TraceTest, LineReaderReadsLongLinesWithSmallBlocks)
{
  std::string long_line(100, 'x');
  std::string path = write_file("lines", "a\n" + long_line + "\n\nlast-without-newline");
  LineReader reader(path, 7);
  std::vector<std::string> lines;
  std::string line;
  while (reader.next(line))
    lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[1], long_line);
  EXPECT_EQ(lines[2], "");
  EXPECT_EQ(lines[3], "last-without-newline");
  EXPECT_EQ(reader.line_number(), 4);
}

TEST_F(TraceTest, MalformedLinesNameFileLineAndReason)
{
  std::string bad_json = write_file("a.jsonl", std::string(kHeader) + R"({"rank":0,"call":"init"})" "\n{oops\n");
  EXPECT_EQ(error_of(bad_json), bad_json + ":3: not valid JSON");

  std::string missing = write_file("b.jsonl", std::string(kHeader) + R"({"rank":0,"call":"send","peer":1})" "\n");
  EXPECT_EQ(error_of(missing), missing + ":2: send: missing field \"tag\"");

  std::string unknown = write_file("c.jsonl", std::string(kHeader) + R"({"rank":0,"call":"teleport"})" "\n");
  EXPECT_EQ(error_of(unknown), unknown + ":2: unknown call \"teleport\"");

  std::string type = write_file("d.jsonl", std::string(kHeader) +
                                               R"({"rank":0,"call":"bcast","comm":0,"root":0,"bytes":"many"})" "\n");
  EXPECT_EQ(error_of(type), type + ":2: bcast: field \"bytes\" must be an integer");

  std::string negative = write_file("e.jsonl", std::string(kHeader) + R"({"rank":0,"call":"compute","s":-1})" "\n");
  EXPECT_EQ(error_of(negative), negative + ":2: compute: field \"s\" must not be negative");

  std::string norank = write_file("f.jsonl", std::string(kHeader) + R"({"call":"init"})" "\n");
  EXPECT_EQ(error_of(norank), norank + ":2: missing \"rank\" (required in a single-file trace)");
}

TEST_F(TraceTest, HeaderIsChecked)
{
  std::string version = write_file("v.jsonl", R"({"format":"progsim-trace","version":99,"nranks":1})" "\n");
  EXPECT_EQ(error_of(version), version + ":1: header: version 99 is not supported (this progsim reads versions 1 to 3)");
  std::string nranks = write_file("n.jsonl", R"({"format":"progsim-trace","version":1,"nranks":0})" "\n");
  EXPECT_EQ(error_of(nranks), nranks + ":1: header: \"nranks\" must be a positive integer");
  std::string format = write_file("f.jsonl", R"({"format":"other","version":1,"nranks":1})" "\n");
  EXPECT_EQ(error_of(format), format + ":1: header: \"format\" must be \"progsim-trace\"");
  // Found by libFuzzer: a non-string "format" (here by a duplicate key) once escaped as a JSON type error.
  std::string number = write_file("g.jsonl", R"({"format":"progsim-trace","version":1,"format":2,"nranks":1})" "\n");
  EXPECT_EQ(error_of(number), number + ":1: header: \"format\" must be \"progsim-trace\"");
}

TEST_F(TraceTest, SchemaAcceptsWhatTheWriterWrites)
{
  EXPECT_EQ(validate_event({{"call", "compute"}, {"flops", 1e9}}), "");
  EXPECT_EQ(validate_event({{"call", "compute"}}), "compute: exactly one of \"s\" (seconds) and \"flops\" is required");
  EXPECT_EQ(validate_event({{"call", "waitall"}, {"reqs", {1, 2}}}), "");
  EXPECT_EQ(validate_event({{"call", "waitall"}, {"reqs", {1, "x"}}}), "waitall: field \"reqs\" must be a list of integers");
}

// Memory waits and main's status (issue 19, branch issue19-memwait): the
// events the recorder writes validate; a wait must name its writer's event.
TEST_F(TraceTest, MemoryWaitsAndExitStatusAreEvents)
{
  EXPECT_EQ(validate_event({{"call", "store"}, {"watch", "flags"}}), "");
  EXPECT_EQ(validate_event({{"call", "store"}}), "");
  EXPECT_EQ(validate_event({{"call", "memory_wait"}, {"writer", 1}, {"event", 4}, {"watch", "flags"}, {"offset", 16}}),
            "");
  EXPECT_EQ(validate_event({{"call", "memory_wait"}, {"writer", -1}, {"event", -1}}), "");
  EXPECT_EQ(validate_event({{"call", "memory_wait"}, {"writer", 1}}), "memory_wait: missing field \"event\"");
  EXPECT_EQ(validate_event({{"call", "memory_wait"}, {"writer", "1"}, {"event", 4}}),
            "memory_wait: field \"writer\" must be an integer");
  EXPECT_EQ(validate_event({{"call", "exit"}, {"code", 260}}), "");
  EXPECT_EQ(validate_event({{"call", "exit"}}), "exit: missing field \"code\"");
}

TEST_F(TraceTest, SimgridSingleFileMapsRequestsBySenderReceiverAndTag)
{
  std::string path = write_file("actions.txt",
                                "0 init\n1 init\n"
                                "0 isend 1 5 1e6\n"
                                "1 irecv 0 5 1e6\n"
                                "1 compute 1e9\n"
                                "1 test 0 1 5\n"
                                "1 wait 0 1 5\n"
                                "0 wait 0 1 5\n"
                                "0 allreduce 100 5e8\n"
                                "0 finalize\n1 finalize\n");
  TraceInfo info = probe_trace(path);
  EXPECT_EQ(info.kind, TraceKind::SimgridTi);
  EXPECT_EQ(info.nranks, 2);
  auto r1 = all_events(path, 1);
  ASSERT_EQ(r1.size(), 6u);
  EXPECT_EQ(r1[1].call, "irecv");
  EXPECT_EQ(r1[1].integer("bytes"), 1000000);
  EXPECT_EQ(r1[2].call, "compute");
  EXPECT_DOUBLE_EQ(r1[2].number("flops"), 1e9);
  EXPECT_EQ(r1[3].call, "test");
  EXPECT_EQ(r1[4].call, "wait");
  EXPECT_EQ(r1[4].integer("req"), r1[1].integer("req"));
  auto r0 = all_events(path, 0);
  ASSERT_EQ(r0.size(), 6u);
  EXPECT_EQ(r0[3].call, "allreduce");
  EXPECT_EQ(r0[3].fields()["dt"], "MPI_BYTE");
  EXPECT_EQ(r0[4].call, "compute");  // the reduction's own computation, as SMPI replays it
  EXPECT_DOUBLE_EQ(r0[4].number("flops"), 5e8);
}

TEST_F(TraceTest, SimgridIndexListsOneFilePerRankAndInitArgumentSelectsDoubles)
{
  write_file("r0.txt", "0 init 1\n0 bcast 10 1\n0 finalize\n");
  write_file("r1.txt", "1 init 1\n1 bcast 10 1\n1 finalize\n");
  std::string index = write_file("index", dir_ + "/r0.txt\nr1.txt\n");
  TraceInfo info = probe_trace(index);
  EXPECT_EQ(info.nranks, 2);
  auto r1 = all_events(index, 1);
  ASSERT_EQ(r1.size(), 3u);
  EXPECT_EQ(r1[1].call, "bcast");
  EXPECT_EQ(r1[1].integer("bytes"), 80);  // 10 MPI_DOUBLE
  EXPECT_EQ(r1[1].integer("root"), 1);
}

TEST_F(TraceTest, SimgridErrorsNameFileAndLine)
{
  std::string unknown = write_file("u.txt", "0 init\n0 teleport 3\n");
  EXPECT_EQ(error_of(unknown), unknown + ":2: action 'teleport' is not supported");
  std::string missing = write_file("m.txt", "0 init\n0 send 0\n");
  EXPECT_EQ(error_of(missing), missing + ":2: action 'send': argument 2 is missing");
  std::string peer = write_file("p.txt", "0 init\n0 send 4 0 10\n");
  EXPECT_EQ(error_of(peer), peer + ":2: action 'send': rank 4 out of range (1 ranks)");
}

}  // namespace
}  // namespace progsim::traces

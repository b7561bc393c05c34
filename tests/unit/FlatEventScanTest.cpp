// A flat event line (FlatEventScan, TraceEvent) must mean what nlohmann's
// JSON parse of the same line means: the scan takes only lines whose every
// field it can answer for, every accessor answers as the JSON would, and
// the lines it leaves (escapes, nested values, big numbers, repeated keys,
// invalid JSON) are the parser's.
#include "traces/FlatEventScan.hpp"
#include "traces/TraceEvent.hpp"
#include "traces/TraceSchema.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace progsim::traces {
namespace {

TraceEvent flat(const std::string& line, bool& taken)
{
  TraceEvent e;
  e.line_buffer() = line;
  taken = e.assign_line();
  return e;
}

// Every field of the line's JSON, read through the flat event's accessors.
void expect_same_meaning(const std::string& line)
{
  SCOPED_TRACE(line);
  bool taken = false;
  TraceEvent e = flat(line, taken);
  nlohmann::json json = nlohmann::json::parse(line, nullptr, false);
  if (!taken)
    return;  // the parser's line
  ASSERT_FALSE(json.is_discarded()) << "the scan took a line that is not JSON";
  ASSERT_TRUE(json.is_object());
  ASSERT_TRUE(e.is_flat());
  EXPECT_EQ(e.call, json.at("call").get<std::string>());
  EXPECT_EQ(e.fields(), json);
  for (auto& [key, value] : json.items()) {
    EXPECT_TRUE(e.has(key.c_str())) << key;
    if (value.is_number_integer()) {
      EXPECT_EQ(e.integer(key.c_str()), value.get<long long>()) << key;
      EXPECT_EQ(e.small(key.c_str()), value.get<int>()) << key;
    }
    if (value.is_number()) {
      double expected = value.get<double>();
      double got = e.number(key.c_str());
      EXPECT_EQ(std::memcmp(&expected, &got, sizeof expected), 0) << key << ": " << got << " != " << expected;
    }
    if (value.is_string()) {
      EXPECT_EQ(e.string(key.c_str()), value.get<std::string>()) << key;
    }
    if (value.is_array()) {
      std::vector<int> list;
      e.integers(key.c_str(), list);
      EXPECT_EQ(list, value.get<std::vector<int>>()) << key;
    }
  }
  EXPECT_FALSE(e.has("absent"));
  EXPECT_EQ(valid_flat_event(e), validate_event(json).empty());
}

TEST(FlatEventScan, TakesWhatProgsimWritesWithTheParsersMeaning)
{
  for (const char* line : {
           R"({"rank":0,"call":"isend","peer":1,"tag":0,"comm":0,"bytes":1024,"req":3})",
           R"({"call":"compute","s":0.0001})",
           R"({"call":"compute","s":1e-4})",
           R"({"call":"compute","s":2.5E+3})",
           R"({"call":"compute","flops":1000000000})",
           R"({"call":"waitall","reqs":[0,1,2,3]})",
           R"({"call":"waitall","reqs":[]})",
           R"({"call":"waitall","reqs":[ -1 , 2 ]})",
           R"({"call":"allreduce","comm":0,"count":1,"dt":"MPI_DOUBLE","op":"MPI_SUM"})",
           R"( { "call" : "send" , "peer" : 1 , "tag" : -0 , "comm" : 0 , "bytes" : 8 } )",
           "{\"call\":\"send\",\"peer\":1,\"tag\":7,\"comm\":0,\"bytes\":8}\r",
           "{\t\"call\":\"local\",\"name\":\"MPI_Wtime\"}",
           R"({"call":"exit","code":-9223372036854775808})",
           R"({"call":"exit","code":9223372036854775807})",
           R"({"call":"exit","code":4294967297})",
           R"({"call":"local","name":"MPI_Comm_rank","repeat":3,"kind":"interacting"})",
           R"({"call":"sleep","s":0})",
           R"({"call":"sleep","s":-0.0})",
           R"({"call":"sleep","s":-1})",
           R"({"call":"send","peer":1,"tag":7,"comm":0,"bytes":-8})",
           R"({"call":"send","peer":1.5,"tag":7,"comm":0,"bytes":8})",
           R"({"call":"no_such_event"})",
           R"({"call":"compute","s":1,"flops":2})",
           "{\"call\":\"compute\",\"s\":0.1,\"extra\":\"~ \x7f\"}",
           R"({"call":"isend","peer":"1","tag":0,"comm":0,"bytes":1024,"req":3})",
       }) {
    bool taken = false;
    flat(line, taken);
    EXPECT_TRUE(taken) << line;
    expect_same_meaning(line);
  }
}

TEST(FlatEventScan, LeavesEveryOtherLineToTheParser)
{
  for (const char* line : {
           R"({"call":"local","name":"MPI\u0041"})",         // an escape
           R"({"call":"local","name":"a\"b"})",
           "{\"call\":\"local\",\"name\":\"\xc3\xa9\"}",      // UTF-8
           R"({"call":"exit","code":9223372036854775808})",   // beyond a long long
           R"({"call":"exit","code":18446744073709551616})",
           R"({"call":"exit","code":-9223372036854775809})",
           R"({"call":"sleep","s":1e400})",
           R"({"call":"exit","code":01})",                    // not JSON
           R"({"call":"exit","code":1.})",
           R"({"call":"exit","code":.5})",
           R"({"call":"exit","code":+1})",
           R"({"call":"exit","code":1,})",
           R"({"call":"exit","code":1}x)",
           R"({"call":"exit","code":1)",
           R"({"call":"exit" "code":1})",
           R"({"call":"exit","code":true})",                  // other values
           R"({"call":"exit","code":null})",
           R"({"call":"exit","code":{"a":1}})",
           R"({"call":"waitall","reqs":[1,[2]]})",
           R"({"call":"waitall","reqs":[1,2.5]})",
           R"({"call":"waitall","reqs":[1,2,]})",
           R"({"call":"exit","code":1,"code":2})",            // a repeated key
           R"({"code":1})",                                   // no "call"
           R"({"call":5})",
           R"({})",
           R"([1,2])",
           "\xef\xbb\xbf{\"call\":\"init\"}",                 // a byte order mark
           "",
       }) {
    SCOPED_TRACE(line);
    bool taken = true;
    flat(line, taken);
    EXPECT_FALSE(taken);
  }
  // Beyond 64 KiB (FlatField's offsets): the parser's, with the same meaning.
  std::string list = "0";
  while (list.size() < 70000)
    list += ",1";
  std::string line = R"({"call":"waitall","reqs":[)" + list + "]}";
  bool taken = true;
  TraceEvent e = flat(line, taken);
  EXPECT_FALSE(taken);
  e.assign(nlohmann::json::parse(line));
  std::vector<int> reqs;
  e.integers("reqs", reqs);
  EXPECT_EQ(reqs.size(), 35001u);  // "0" and 35,000 times ",1"
}

// Random lines near the flat grammar: whatever the scan takes means the same.
TEST(FlatEventScan, RandomLinesMeanWhatTheirJsonMeans)
{
  std::mt19937 random(19);
  const std::vector<std::string> pieces = {
      "{", "}", "[", "]", ",", ":", " ", "\"call\"", "\"send\"", "\"compute\"", "\"waitall\"", "\"s\"", "\"reqs\"",
      "\"peer\"", "\"tag\"", "\"bytes\"", "\"comm\"", "0", "-0", "1", "-1", "12", "0.5", "1e3", "-2E-2", "00", "1.",
      "99999999999999999999", "\"x\"", "\\", "\"", "true", "null", "\t", "\r", "e", "-", ".", "+"};
  int taken_lines = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string line;
    if (random() % 2) {
      // A near-valid event: fields of random values.
      line = "{\"call\":" + pieces[8 + random() % 3];
      for (int f = random() % 5; f > 0; --f)
        line += "," + pieces[11 + random() % 6] + ":" + pieces[17 + random() % 12] +
                (random() % 8 == 0 ? pieces[random() % pieces.size()] : "");
      line += "}";
    } else {
      for (int n = 1 + random() % 12; n > 0; --n)
        line += pieces[random() % pieces.size()];
    }
    bool taken = false;
    flat(line, taken);
    taken_lines += taken;
    expect_same_meaning(line);
  }
  EXPECT_GT(taken_lines, 1000);  // the comparison ran on flat lines, not only on refusals
}

}  // namespace
}  // namespace progsim::traces

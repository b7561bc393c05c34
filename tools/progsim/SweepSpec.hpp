// progsim sweep's spec: programs x rank counts x policies x platforms x
// --cfg values, read from a JSON file (or a TOML one, as the JSON it
// denotes) and checked field by field, and the points of its cartesian
// product, each with an id that depends on its parameters only (not on its
// place in the spec), so that a grown spec keeps the results of the points
// it had.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace progsim::cli {

struct SweepProgram {
  std::string name;                // its value in the results, its file name under OUTPUT/programs/
  std::string source;              // absolute path of a C/C++ source compiled with progsim-cc/cxx ("": none)
  std::string executable;          // absolute path of what runs (OUTPUT/programs/NAME for a source)
  std::vector<std::string> flags;  // compiler flags (a source only)
  std::vector<std::string> args;   // the program's arguments
};

// One --cfg key and the values the sweep gives it.
struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
};

struct SweepPoint {
  std::size_t index = 0;  // place in the expansion: the Slurm array index, `--point K`
  std::string id;         // "NAME-nR-POLICY-HASH": its directory under OUTPUT/points/
  std::size_t program = 0;
  int ranks = 0;
  std::string policy;
  std::size_t platform = 0;                               // index in SweepSpec::platforms
  std::vector<std::pair<std::string, std::string>> cfg;  // one value per axis, in the axes' order
  nlohmann::ordered_json parameters;                      // what the id is made of
};

struct SweepSpec {
  std::string file;    // the spec's path as given
  std::string output;  // absolute results directory
  std::vector<SweepProgram> programs;
  std::vector<int> ranks;
  std::vector<std::string> policies;
  std::vector<std::string> platforms;       // as the spec writes them ("default": progsim's own)
  std::vector<std::string> platform_files;  // absolute paths ("" for the default)
  std::vector<SweepAxis> cfg;
  std::vector<std::string> options;  // further `progsim run` options of every point
  std::vector<SweepPoint> points;    // programs outermost, then ranks, platforms, cfg axes, policies
};

// Reads and checks FILE (TOML when its name ends in .toml, else JSON);
// sim::InputError names the field at fault ("sweep.json: programs[1].source:
// ...", the same for TOML) or TOML's line ("sweep.toml:3:1: not valid TOML").
// `output`, when not empty, replaces the spec's output directory.
SweepSpec read_sweep_spec(const std::string& file, const std::string& output = "");

// `progsim run` options of a point (before the program): -n, --progress,
// --platform, --cfg, the spec's options.
std::vector<std::string> point_run_options(const SweepSpec& spec, const SweepPoint& point);

}  // namespace progsim::cli

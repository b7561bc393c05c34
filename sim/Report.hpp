// The JSON report of a run (--report FILE.json). Keys are written in a fixed
// order and times as shortest round-trip decimals, so two runs of the same
// input give byte-identical files.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>

namespace progsim::sim {

class Config;
class Simulation;

// Writes the report as nlohmann's dump(2) of the whole object would, but
// builds one rank's entry at a time: a million-rank replay's report as one
// JSON tree (copied once more into the "ranks" key, then into one string)
// took several times the memory of the simulation itself.
void write_report(std::ostream& out, const Simulation& simulation, const Config& config, bool deterministic);

}  // namespace progsim::sim

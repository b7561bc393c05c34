// The JSON report of a run (--report FILE.json). Keys are written in a fixed
// order and times as shortest round-trip decimals, so two runs of the same
// input give byte-identical files.
#pragma once

#include <nlohmann/json.hpp>

namespace progsim::sim {

class Config;
class Simulation;

nlohmann::ordered_json build_report(const Simulation& simulation, const Config& config, bool deterministic);

}  // namespace progsim::sim

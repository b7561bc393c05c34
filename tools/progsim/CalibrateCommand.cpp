// progsim calibrate: measures the machine's real MPI with a bundled probe set
// (ping-pong over sizes, blocking send against a computing receiver, overlap,
// the shared-flag program of MPI-4.1 Example 12.x), fits a SimGrid platform
// (latency and bandwidth of shared memory and of the network) and model
// parameters (eager threshold and rendezvous variant per transport), writes
// PREFIX.xml and PREFIX.json (`progsim run --platform PREFIX.xml --params
// PREFIX.json`), then runs the same probes in progsim with them and prints
// how far the two agree. docs/calibrate.md explains each step.

#include "progsim/CalibrationAsync.hpp"
#include "progsim/CalibrationFit.hpp"
#include "progsim/CalibrationRuns.hpp"
#include "progsim/Commands.hpp"
#include "progsim/ReportedRun.hpp"
#include "progsim/Subprocess.hpp"
#include "progsim/TimeUnits.hpp"

#include "sim/Diagnostics.hpp"
#include "sim/Outcome.hpp"
#include "sim/TemporaryDirectory.hpp"

#include <nlohmann/json.hpp>

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

namespace progsim::cli {

namespace {

constexpr double kTolerance = 0.20;  // the acceptance: times within 20%
constexpr int kProbeRanks = 2;       // the probes run `-n 2`

void print_calibrate_help()
{
  std::printf(
      "Usage: progsim calibrate --mpicc CMD --mpirun CMD [--hosts H1,H2] [--async-progress ENV=VALUE]\n"
      "                         [--out PREFIX] [--no-check] [--require-quiet]\n"
      "       progsim calibrate --recorded FILE [--out PREFIX] [--no-check]\n"
      "\n"
      "Measures the machine's real MPI with progsim's probe set (2 ranks: ping-pong over\n"
      "sizes, MPI_Send against a receiver that computes first, Isend/Irecv overlap, and the\n"
      "shared-flag program of MPI-4.1 Example 12.x), fits a platform and model parameters,\n"
      "writes PREFIX.xml (SimGrid platform) and PREFIX.json (--cfg settings, raw probe data,\n"
      "fit, residuals), then runs the same probes in progsim with them and prints the\n"
      "agreement table. Use the result as: progsim run --platform PREFIX.xml --params PREFIX.json\n"
      "\n"
      "Options:\n"
      "  --mpicc CMD       the real MPI's compiler wrapper, e.g. mpicc.mpich (words split on spaces)\n"
      "  --mpirun CMD      its launcher, e.g. mpirun.mpich, or\n"
      "                    'mpirun.openmpi --allow-run-as-root --oversubscribe'; run as CMD -n 2 PROBE\n"
      "  --hosts H1,H2     also probe the network: CMD -host H1,H2 -n 2 PROBE (one rank on each)\n"
      "  --async-progress ENV=VALUE\n"
      "                    also run the ping-pong and overlap probes with ENV=VALUE in the MPI's\n"
      "                    environment (its asynchronous progress mode, e.g. MPICH's\n"
      "                    MPIR_CVAR_ASYNC_PROGRESS=1) after MPI_Init_thread(MPI_THREAD_MULTIPLE),\n"
      "                    and fit the thread policy's thread-interval, thread-poll-cost and\n"
      "                    thread-lock-cost to them (two ranks on one host)\n"
      "  --recorded FILE   fit probe lines recorded before (a PREFIX.json of calibrate, or a text\n"
      "                    file of 'transport=... probe=...' lines) instead of running an MPI\n"
      "  --out PREFIX      output files PREFIX.xml and PREFIX.json (default: calibrated)\n"
      "  --no-check        do not run the probes in progsim (no agreement table)\n"
      "  --require-quiet   exit 2 instead of warning when the machine is loaded (below)\n"
      "  -h, --help        this text\n"
      "\n"
      "The fit: latency = intercept of the least-squares line of half round trip against size\n"
      "over the eagerly sent sizes, bandwidth = inverse slope over the larger ones; eager\n"
      "threshold = the largest size whose MPI_Send returned before the receiver's compute\n"
      "ended; rendezvous pull when the receiver got a rendezvous message while the sender\n"
      "computed; asynchronous progress when the sender finished while the receiver computed.\n"
      "Then progsim's own per-call costs are measured once with the fitted platform and taken\n"
      "off its latency and bandwidth. Wall-clock probes: each time is the median of repeated\n"
      "round trips (the smaller of two tries for blocking); a loaded machine adds noise.\n"
      "Before the probes, calibrate reads the 1-minute load (/proc/loadavg) and the online\n"
      "CPUs: when the load plus the probe's 2 ranks exceed the CPUs by more than half a CPU,\n"
      "it warns (or exits 2\n"
      "with --require-quiet) and records \"machine_load\" in PREFIX.json. For tests,\n"
      "PROGSIM_CALIBRATE_LOAD=LOAD,CPUS replaces both readings.\n"
      "\n"
      "Exit status: 0 when progsim agrees with the real MPI on every probe (same blocking and\n"
      "deadlock sizes, times within 20%%), 1 when it does not, 2 for a usage error or a probe\n"
      "that failed.\n");
}

struct CalibrateOptions {
  std::string mpicc, mpirun, hosts, recorded, async_env, out = "calibrated";
  bool check = true, require_quiet = false;
};

CalibrateOptions parse_options(int argc, char** argv, bool& help)
{
  CalibrateOptions o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char* name) -> std::string {
      if (i + 1 >= argc)
        throw sim::InputError{std::string(name) + " needs a value"};
      return argv[++i];
    };
    if (arg == "-h" || arg == "--help")
      help = true;
    else if (arg == "--mpicc")
      o.mpicc = value("--mpicc");
    else if (arg == "--mpirun")
      o.mpirun = value("--mpirun");
    else if (arg == "--hosts")
      o.hosts = value("--hosts");
    else if (arg == "--async-progress")
      o.async_env = value("--async-progress");
    else if (arg == "--recorded")
      o.recorded = value("--recorded");
    else if (arg == "--out")
      o.out = value("--out");
    else if (arg == "--no-check")
      o.check = false;
    else if (arg == "--require-quiet")
      o.require_quiet = true;
    else
      throw sim::InputError{"calibrate: unknown option '" + arg + "' (see progsim calibrate --help)"};
  }
  if (help)
    return o;
  if (o.recorded.empty() && (o.mpicc.empty() || o.mpirun.empty()))
    throw sim::InputError{"calibrate: give --mpicc and --mpirun (or --recorded FILE)"};
  if (!o.recorded.empty() &&
      (!o.mpicc.empty() || !o.mpirun.empty() || !o.hosts.empty() || o.require_quiet || !o.async_env.empty()))
    throw sim::InputError{"calibrate: --recorded fits recorded lines; it takes no --mpicc, --mpirun, --hosts, "
                          "--async-progress or --require-quiet (recorded progress=async lines are fitted)"};
  auto eq = o.async_env.find('=');
  if (!o.async_env.empty() && (eq == 0 || eq == std::string::npos))
    throw sim::InputError{"calibrate: --async-progress '" + o.async_env +
                          "': expected ENV=VALUE (MPIR_CVAR_ASYNC_PROGRESS=1)"};
  return o;
}

// The probe lines of a recorded calibration (its JSON's "raw") or of a text file.
std::vector<std::string> recorded_lines(const std::string& path)
{
  std::string text = file_text(path);
  if (text.empty())
    throw sim::InputError{"--recorded " + path + ": cannot read the file, or it is empty"};
  std::vector<std::string> lines;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_discarded() && j.is_object()) {
    for (const auto& line : j.value("raw", nlohmann::json::array()))
      if (line.is_string())
        lines.push_back(line.get<std::string>());
  } else {
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (line.rfind("transport=", 0) == 0)
        lines.push_back(line);
      start = end == std::string::npos ? text.size() : end + 1;
    }
  }
  if (lines.empty())
    throw sim::InputError{"--recorded " + path + ": no probe lines ('transport=... probe=...')"};
  return lines;
}

std::string joined(const std::vector<std::string>& lines)
{
  std::string text;
  for (const std::string& l : lines)
    text += l + "\n";
  return text;
}

std::string size_list(const std::vector<long long>& sizes)
{
  std::string s;
  for (long long v : sizes)
    s += (s.empty() ? "" : " ") + std::to_string(v);
  return s.empty() ? "none" : s;
}

// Sizes as the table shows them: "16384 and up" when they are every probed
// size from the first of them on.
std::string size_range(const std::vector<long long>& sizes, const std::vector<long long>& probed)
{
  if (sizes.size() > 2) {
    auto first = std::find(probed.begin(), probed.end(), sizes.front());
    if (first != probed.end() && std::vector<long long>(first, probed.end()) == sizes)
      return std::to_string(sizes.front()) + " and up";
  }
  return size_list(sizes);
}

std::string rate(double bytes_per_second)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g GB/s", bytes_per_second / 1e9);
  return buf;
}

void print_fit(const TransportFit& f)
{
  std::printf("transport %s (%s):\n", f.transport.c_str(),
              f.transport == "shm" ? "2 ranks on one host" : "one rank on each of 2 hosts");
  if (f.measured())
    std::printf("  ping-pong fit: latency %s, bandwidth %s (half round trip = latency + size/bandwidth)\n",
                format_duration(f.latency).c_str(), rate(f.bandwidth).c_str());
  std::printf("  %10s  %12s  %12s  %9s\n", "size", "measured", "fitted", "residual");
  for (const auto& r : f.residuals)
    std::printf("  %10lld  %12s  %12s  %+8.1f%%\n", r.size, format_duration(r.measured).c_str(),
                format_duration(r.fitted).c_str(), r.measured > 0 ? 100 * (r.fitted - r.measured) / r.measured : 0.0);
  if (f.eager_threshold >= 0)
    std::printf("  eager threshold: %lld bytes (MPI_Send waited for the receiver's compute at: %s)\n",
                f.eager_threshold, size_list(f.blocking_sizes).c_str());
  std::printf("  rendezvous: %s (buffered sends: %s); asynchronous progress: %s (progresses like '%s')\n",
              f.rendezvous.c_str(), f.rendezvous_buffered.empty() ? "not probed" : f.rendezvous_buffered.c_str(),
              f.async_progress ? "yes" : "no", f.async_progress ? "thread" : "weak");
  if (!f.flag_sizes.empty())
    std::printf("  shared-flag program deadlocked at: %s (of %s)\n", size_list(f.deadlock_sizes).c_str(),
                size_list(f.flag_sizes).c_str());
}

std::string now_text()
{
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return buf;
}

std::string host_name()
{
  struct utsname u {};
  ::uname(&u);
  return std::string(u.nodename) + " (" + u.sysname + " " + u.release + ", " +
         std::to_string(::sysconf(_SC_NPROCESSORS_ONLN)) + " cores)";
}

int platform_cores()
{
  return std::max(2L, ::sysconf(_SC_NPROCESSORS_ONLN));
}

// The machine's 1-minute load and online CPUs before the real probes: the
// probes' decisions are wall-clock thresholds (an MPI_Send that returns
// before a 30 ms compute ends), and a rank descheduled by other work crosses
// them (seen with Open MPI on a loaded 2-core VM).
struct MachineLoad {
  double load = 0;
  long cpus = 1;
  int ranks = kProbeRanks;
  // Half a CPU of other work is tolerated: an idle machine's load is rarely 0.
  bool overloaded() const { return load + ranks > static_cast<double>(cpus) + 0.5; }
};

MachineLoad machine_load()
{
  MachineLoad m;
  // For tests: "LOAD,CPUS" instead of the machine's (deterministic).
  if (const char* injected = std::getenv("PROGSIM_CALIBRATE_LOAD")) {
    if (std::sscanf(injected, "%lf,%ld", &m.load, &m.cpus) != 2 || m.load < 0 || m.cpus < 1)
      throw sim::InputError{"PROGSIM_CALIBRATE_LOAD='" + std::string(injected) + "': expected LOAD,CPUS (0.5,2)"};
    return m;
  }
  m.cpus = std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
  std::ifstream in("/proc/loadavg");
  if (!(in >> m.load))
    m.load = 0;  // no /proc: nothing known against the probes
  return m;
}

std::string load_text(const MachineLoad& m)
{
  char buf[160];
  std::snprintf(buf, sizeof buf, "1-minute load %.2f + the probes' %d ranks > %ld online CPUs + 0.5", m.load, m.ranks,
                m.cpus);
  return buf;
}

struct AgreementRow {
  std::string transport, what, real, simulated;
  double relative = 0;  // times only
  bool agrees = false;
};

std::vector<AgreementRow> agreement(const std::vector<ProbeLine>& real, const std::vector<ProbeLine>& sim,
                                    const ProbePlan& plan)
{
  std::vector<AgreementRow> rows;
  std::vector<TransportFit> real_fits = fit_transports(real), sim_fits = fit_transports(sim);
  for (const TransportFit& r : real_fits) {
    auto s = std::find_if(sim_fits.begin(), sim_fits.end(), [&](const TransportFit& f) { return f.transport == r.transport; });
    if (s == sim_fits.end())
      continue;
    auto sizes = [&](const char* what, const std::vector<long long>& a, const std::vector<long long>& b,
                     const std::vector<long long>& probed) {
      rows.push_back({r.transport, what, size_range(a, probed), size_range(b, probed), 0, a == b});
    };
    if (r.eager_threshold >= 0)
      sizes("MPI_Send waits (block probe), bytes", r.blocking_sizes, s->blocking_sizes, plan.block_sizes);
    if (!r.flag_sizes.empty())
      sizes("shared-flag deadlock, bytes", r.deadlock_sizes, s->deadlock_sizes, plan.flag_sizes);
    if (!r.blocking_sizes.empty())
      rows.push_back({r.transport, "rendezvous / async progress", r.rendezvous + (r.async_progress ? " / yes" : " / no"),
                      s->rendezvous + (s->async_progress ? " / yes" : " / no"), 0,
                      r.rendezvous == s->rendezvous && r.async_progress == s->async_progress});
    for (long long size : {plan.pingpong_sizes.front(), plan.pingpong_sizes.back()}) {
      double a = half_round_trip(real, r.transport, size), b = half_round_trip(sim, r.transport, size);
      if (std::isnan(a) || std::isnan(b))
        continue;
      double rel = a > 0 ? (b - a) / a : 0;
      rows.push_back({r.transport, "half round trip, " + std::to_string(size) + " bytes", format_duration(a),
                      format_duration(b), rel, std::fabs(rel) <= kTolerance});
    }
  }
  return rows;
}

void print_agreement(const std::vector<AgreementRow>& rows)
{
  std::printf("\nagreement (real MPI vs progsim with these files; times within %.0f%%):\n", kTolerance * 100);
  std::printf("  %-9s %-36s %-22s %-22s %s\n", "transport", "probe", "real MPI", "progsim", "agrees");
  for (const AgreementRow& r : rows) {
    std::string agrees = r.agrees ? "yes" : "NO";
    if (r.relative != 0) {
      char buf[32];
      std::snprintf(buf, sizeof buf, " (%+.1f%%)", 100 * r.relative);
      agrees += buf;
    }
    std::printf("  %-9s %-36s %-22s %-22s %s\n", r.transport.c_str(), r.what.c_str(), r.real.c_str(),
                r.simulated.c_str(), agrees.c_str());
  }
}

nlohmann::ordered_json agreement_json(const std::vector<AgreementRow>& rows)
{
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (const AgreementRow& r : rows)
    j.push_back({{"transport", r.transport},
                 {"probe", r.what},
                 {"real", r.real},
                 {"progsim", r.simulated},
                 {"relative", r.relative},
                 {"agrees", r.agrees}});
  return j;
}

// progsim's own CPU costs (call-cost, chunk-cost, poll-cost) add to the
// platform's latency, and the rendezvous handshake to a long message's time:
// one simulated ping-pong with the fitted platform shows how much, and the
// platform's latency and bandwidth are corrected by that much. When the real
// MPI's half round trip is shorter than progsim's costs alone, the latency
// becomes 0 and those costs are scaled down to fit (into `cfg`).
nlohmann::ordered_json correct_for_simulator(std::vector<TransportFit>& platform, nlohmann::ordered_json& cfg,
                                             const std::vector<ProbeLine>& real, const ProbeResults& first,
                                             const ProbePlan& plan)
{
  nlohmann::ordered_json notes = nlohmann::ordered_json::array();
  std::vector<ProbeLine> sim = parse_probe_lines(joined(first.lines));
  long long small = plan.pingpong_sizes.front(), large = plan.pingpong_sizes.back();
  double scale = 1;
  for (TransportFit& f : platform) {
    if (!f.measured())
      continue;
    double real_small = half_round_trip(real, f.transport, small), sim_small = half_round_trip(sim, f.transport, small);
    double real_large = half_round_trip(real, f.transport, large), sim_large = half_round_trip(sim, f.transport, large);
    if (std::isnan(real_small) || std::isnan(sim_small) || std::isnan(real_large) || std::isnan(sim_large))
      continue;
    double overhead = sim_small - f.latency;  // what progsim adds to the platform's latency
    double latency = std::max(0.0, real_small - overhead);
    if (overhead > 0 && real_small < overhead)
      scale = std::min(scale, real_small / overhead);
    double transfer = static_cast<double>(large) / f.bandwidth + (real_large - sim_large) - (latency - f.latency);
    double bandwidth = transfer > 0 ? static_cast<double>(large) / transfer : f.bandwidth;
    notes.push_back({{"transport", f.transport},
                     {"simulated_half_rtt_small_s", sim_small},
                     {"simulated_half_rtt_large_s", sim_large},
                     {"progsim_overhead_s", overhead},
                     {"latency_s", latency},
                     {"bandwidth_Bps", bandwidth}});
    f.latency = latency;
    f.bandwidth = bandwidth;
  }
  if (scale < 1)
    for (const char* key : {"call-cost", "chunk-cost", "poll-cost"})
      if (first.parameters.contains(key) && first.parameters[key].is_number())
        cfg[key] = first.parameters[key].get<double>() * scale;
  return notes;
}

// The async-mode campaign: the overlap probe, and the ping-pong of the
// smallest size and of the overlap's message (the transfer its delay is
// measured against).
const std::vector<std::string> kAsyncProbes = {"pingpong", "overlap"};

ProbePlan async_plan(const ProbePlan& plan)
{
  ProbePlan p = plan;
  p.pingpong_sizes = {plan.pingpong_sizes.front(), plan.overlap_sizes.back()};
  return p;
}

void print_async(const AsyncMeasure& m, const std::string& environment)
{
  std::printf("asynchronous progress mode (%s), 2 ranks on one host:\n", environment.c_str());
  if (m.provided >= 0)
    std::printf("  MPI_Init_thread(MPI_THREAD_MULTIPLE) provided level %d\n", m.provided);
  std::printf("  overlap probe, %lld bytes: the sender done after %s while the receiver computed %s "
              "(asynchronous progress: %s)\n",
              m.size, format_duration(m.completion).c_str(), format_duration(m.compute).c_str(),
              m.async_progress ? "yes" : "no");
  std::printf("  completion delay %s (beyond the %s the ping-pong takes for that size); half round trip, %lld "
              "bytes: %s\n",
              format_duration(m.delay).c_str(), format_duration(m.transfer).c_str(), m.small_size,
              format_duration(m.half_rtt_small).c_str());
  if (!std::isnan(m.cpu_fraction))
    std::printf("  the receiver's process used %.0f%% of a core while the rank slept (its progress thread)\n",
                100 * m.cpu_fraction);
}

void add_async_agreement(std::vector<AgreementRow>& rows, const AsyncMeasure& real, const AsyncMeasure& sim)
{
  auto yes_no = [](bool b) { return std::string(b ? "yes" : "no"); };
  rows.push_back({"shm", "async mode: progress while computing", yes_no(real.async_progress),
                  yes_no(sim.async_progress) + " (thread)", 0, real.async_progress == sim.async_progress});
  auto time_row = [&](const std::string& what, double a, double b) {
    double rel = a > 0 ? (b - a) / a : (b == a ? 0 : 1);
    rows.push_back({"shm", what, format_duration(a), format_duration(b), rel, std::fabs(rel) <= kTolerance});
  };
  if (real.async_progress)
    time_row("async mode: completion delay", real.delay, sim.delay);
  time_row("async mode: half round trip, " + std::to_string(real.small_size) + " bytes", real.half_rtt_small,
           sim.half_rtt_small);
}

std::string cfg_value(const nlohmann::ordered_json& v)
{
  if (!v.is_number_float())
    return v.dump();
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v.get<double>());
  return buf;
}

void write_file(const std::string& path, const std::string& text)
{
  std::ofstream out(path);
  out << text;
  if (!out)
    throw sim::InputError{path + ": cannot write the file"};
}

}  // namespace

int calibrate_command(int argc, char** argv)
{
  try {
    bool help = false;
    CalibrateOptions o = parse_options(argc, argv, help);
    if (help) {
      print_calibrate_help();
      return 0;
    }
    sim::TemporaryDirectory work("progsim-calibrate");
    ProbePlan plan;
    std::vector<std::string> raw;
    std::string source;
    nlohmann::ordered_json load_record;
    if (o.recorded.empty()) {
      MachineLoad load = machine_load();
      if (load.overloaded()) {
        std::string what = "the machine is loaded (" + load_text(load) + ")";
        if (o.require_quiet)
          throw sim::InputError{what + ": not calibrating (--require-quiet)"};
        std::fprintf(stderr,
                     "progsim calibrate: warning: %s: descheduled ranks cross the wall-clock thresholds, so the\n"
                     "  eager threshold (blocking sizes), the rendezvous variant, asynchronous progress and the\n"
                     "  shared-flag deadlock sizes may be wrong, and the latency and bandwidth noisy; calibrate\n"
                     "  on a quiet machine (--require-quiet refuses to run on a loaded one)\n",
                     what.c_str());
      }
      load_record = {{"load_1min", load.load}, {"cpus", load.cpus}, {"ranks", load.ranks},
                     {"overloaded", load.overloaded()}};
    }
    auto start = std::chrono::steady_clock::now();
    if (!o.recorded.empty()) {
      raw = recorded_lines(o.recorded);
      source = "recorded probe lines of " + o.recorded;
    } else {
      std::string program = build_probe(command_words(o.mpicc), work.path(), "probe-real");
      auto mpirun_command = [&](std::vector<std::string> head) {
        std::vector<std::string> words = command_words(o.mpirun);
        head.insert(head.end(), words.begin(), words.end());
        return head;
      };
      ProbeLauncher real;
      real.work_dir = work.path();
      real.shm_command = command_words(o.mpirun);
      real.shm_command.insert(real.shm_command.end(), {"-n", "2", program});
      if (!o.hosts.empty()) {
        real.network_command = command_words(o.mpirun);
        real.network_command.insert(real.network_command.end(), {"-host", o.hosts, "-n", "2", program});
      }
      std::fprintf(stderr, "progsim calibrate: running the probes with %s...\n", o.mpirun.c_str());
      raw = run_probes(plan, real).lines;
      if (!o.async_env.empty()) {
        // Its own environment and thread level; one host (the flag and block
        // probes say nothing of a progress thread's timing).
        ProbeLauncher async = real;
        async.progress = "async";
        async.network_command.clear();
        async.shm_command = mpirun_command({"env", o.async_env});
        async.shm_command.insert(async.shm_command.end(), {"-n", "2", program, "thread-multiple"});
        std::fprintf(stderr, "progsim calibrate: running the probes with %s %s...\n", o.async_env.c_str(),
                     o.mpirun.c_str());
        std::vector<std::string> more = run_probes(async_plan(plan), async, kAsyncProbes).lines;
        raw.insert(raw.end(), more.begin(), more.end());
      }
      source = "'" + o.mpirun + "' (" + o.mpicc + ") on " + host_name() + ", " + now_text();
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::vector<ProbeLine> real_lines = parse_probe_lines(joined(raw));
    std::vector<TransportFit> fits = fit_transports(real_lines);
    std::printf("progsim calibrate: %s (probes: %.1f s of wall-clock)\n", source.c_str(), seconds);
    for (const TransportFit& f : fits)
      print_fit(f);
    AsyncMeasure real_async = async_measure(real_lines);
    std::string async_env = o.async_env.empty() ? "recorded" : o.async_env;
    if (real_async.measured)
      print_async(real_async, async_env);

    std::string xml_path = o.out + ".xml", json_path = o.out + ".json";
    nlohmann::ordered_json file;
    file["progsim_calibration_version"] = 1;
    file["source"] = source;
    file["platform"] = xml_path;
    if (!load_record.is_null())
      file["machine_load"] = load_record;
    file["cfg"] = fit_cfg(fits);
    file["fit"] = nlohmann::ordered_json::array();
    for (const TransportFit& f : fits)
      file["fit"].push_back(fit_to_json(f));
    if (real_async.measured)
      file["async_progress"] = {{"environment", async_env}, {"real", async_measure_json(real_async)}};
    file["raw"] = raw;
    std::vector<TransportFit> platform = fits;
    auto write_platform = [&] {
      write_file(xml_path, platform_xml(platform, "Calibrated by progsim calibrate from " + source +
                                                      " (docs/calibrate.md). Use with --params " + json_path,
                                        platform_cores()));
    };
    write_platform();
    write_file(json_path, file.dump(2) + "\n");

    int status = 0;
    if (o.check) {
      std::string program = build_probe({self_dir() + "/progsim-cc"}, work.path(), "probe-progsim");
      bool async = std::any_of(fits.begin(), fits.end(), [](const TransportFit& f) { return f.async_progress; });
      ProbeLauncher sim;
      sim.simulated = true;
      sim.work_dir = work.path();
      auto command = [&](const char* ranks_per_node) {
        return std::vector<std::string>{self_path(), "run", "-n", "2", "--ranks-per-node", ranks_per_node,
                                        "--platform", xml_path, "--params", json_path, "--progress",
                                        async ? "thread" : "weak", program};
      };
      sim.shm_command = command("2");
      bool network = std::any_of(fits.begin(), fits.end(), [](const TransportFit& f) { return f.transport == "network"; });
      if (network)
        sim.network_command = command("1");
      std::fprintf(stderr, "progsim calibrate: running the probes in progsim...\n");
      ProbeResults first = run_probes(plan, sim, {"pingpong"});
      file["simulator_correction"] = correct_for_simulator(platform, file["cfg"], real_lines, first, plan);
      write_platform();
      write_file(json_path, file.dump(2) + "\n");
      std::vector<AgreementRow> async_rows;
      if (real_async.measured && real_async.async_progress) {
        // The thread policy's parameters, searched with progsim runs of the
        // async probes on the platform just fitted (docs/calibrate.md).
        std::fprintf(stderr, "progsim calibrate: fitting the thread policy to %s...\n", async_env.c_str());
        ThreadTrial trial = [&](const nlohmann::ordered_json& cfg) {
          ProbeLauncher launcher = sim;
          launcher.progress = "async";
          launcher.network_command.clear();
          launcher.shm_command = {self_path(), "run", "-n", "2", "--ranks-per-node", "2", "--platform", xml_path,
                                  "--params", json_path, "--progress", "thread"};
          for (const auto& [key, value] : cfg.items())
            launcher.shm_command.insert(launcher.shm_command.end(), {"--cfg", key + "=" + cfg_value(value)});
          launcher.shm_command.push_back(program);
          return parse_probe_lines(joined(run_probes(async_plan(plan), launcher, kAsyncProbes).lines));
        };
        ThreadFit thread = fit_thread_policy(real_async, trial);
        nlohmann::ordered_json thread_cfg = thread.cfg();
        for (const auto& [key, value] : thread_cfg.items())
          file["cfg"][key] = value;
        file["async_progress"]["thread_fit"] = thread_cfg;
        file["async_progress"]["simulated"] = async_measure_json(thread.simulated);
        file["async_progress"]["trials"] = thread.trials;
        std::printf("thread policy fitted to it: thread-interval %s, thread-poll-cost %s, thread-lock-cost %s "
                    "(%zu progsim runs)\n",
                    format_duration(thread.interval).c_str(), format_duration(thread.poll_cost).c_str(),
                    format_duration(thread.lock_cost).c_str(), thread.trials.size());
        add_async_agreement(async_rows, real_async, thread.simulated);
        write_file(json_path, file.dump(2) + "\n");
      } else if (real_async.measured) {
        std::printf("the MPI showed no asynchronous progress with %s: the thread policy is not fitted\n",
                    async_env.c_str());
        async_rows.push_back({"shm", "async mode: progress while computing", "no", "not fitted", 0, false});
      }
      std::vector<std::string> simulated = run_probes(plan, sim).lines;
      std::vector<AgreementRow> rows = agreement(real_lines, parse_probe_lines(joined(simulated)), plan);
      rows.insert(rows.end(), async_rows.begin(), async_rows.end());
      print_agreement(rows);
      bool agrees = std::all_of(rows.begin(), rows.end(), [](const AgreementRow& r) { return r.agrees; });
      file["simulated"] = simulated;
      file["agreement"] = agreement_json(rows);
      file["agrees"] = agrees;
      write_file(json_path, file.dump(2) + "\n");
      status = agrees ? 0 : 1;
    }
    std::printf("\nwrote %s and %s: progsim run --platform %s --params %s ...\n", xml_path.c_str(),
                json_path.c_str(), xml_path.c_str(), json_path.c_str());
    return status;
  } catch (const sim::InputError& e) {
    std::fprintf(stderr, "progsim calibrate: error: %s\n", e.message.c_str());
    return sim::kExitUsageError;
  }
}

}  // namespace progsim::cli

// start_host_transfer (mpi_model/transport/HostTransfer): a transfer the
// fabric owns is timed by SimGrid as a detached one was, ends once, and skips
// SimGrid 3.32's maestro list (the interposed CommImpl::detach is the one
// libsimgrid calls).
#include "transport/HostTransfer.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <simgrid/version.h>

#include <gtest/gtest.h>

#include <vector>

namespace sg4 = simgrid::s4u;
namespace kr = simgrid::kernel::resource;

namespace {

// One SimGrid engine per process: this is the only test of this binary that
// makes one (ctest runs each test in its own process).
TEST(HostTransfer, TimedByTheNetworkAndReleasedByItsOwner)
{
  int argc = 1;
  char name[] = "host_transfer_test";
  char* argv[] = {name, nullptr};
  sg4::Engine engine(&argc, argv);
  auto* zone = sg4::create_full_zone("zone");
  sg4::Host* a = zone->create_host("a", 1e9);
  sg4::Host* b = zone->create_host("b", 1e9);
  sg4::Link* link = zone->create_link("ab", 1e8)->set_latency(1e-6)->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
  zone->add_route(a->get_netpoint(), b->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(link)});
  zone->seal();

  std::vector<double> ends;
  sg4::Link::on_communication_state_change_cb([&ends](kr::NetworkAction&, kr::Action::State previous) {
    if (previous == kr::Action::State::STARTED)
      ends.push_back(sg4::Engine::get_clock());
  });
  progsim::mpi::HostTransferRef transfer;
  simgrid::kernel::timer::Timer::set(0.5, [&] { transfer = progsim::mpi::start_host_transfer(a, b, 1000); });
  engine.run();

  ASSERT_EQ(ends.size(), 1u);
  // SimGrid's default network model (LV08): the latency times 13.01 plus
  // the size over 97% of the bandwidth, from the instant it started.
  EXPECT_NEAR(ends[0], 0.5 + 13.01 * 1e-6 + 1000 / (0.97 * 1e8), 1e-12);
  ASSERT_TRUE(transfer);
  transfer.reset();  // the only owner: frees SimGrid's object while the engine lives
#if SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR == 32
  EXPECT_TRUE(progsim::mpi::host_transfers_unlisted());
#endif
}

}  // namespace

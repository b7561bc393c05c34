# Program tests of process topologies and the neighborhood collectives
# (MPI-4.1 chapter 8). Each program counts its failed checks and prints
# "rank R: NAME ok (N checks)" on every rank when none failed (it aborts
# otherwise). Every test runs under the weak and the ideal policies at least.

foreach(p topo_cart topo_graph topo_distgraph topo_neighbor_cart topo_deadlock topo_ineighbor
          topo_pneighbor)
  progsim_test_program(${p} ${p}.c)
endforeach()

foreach(policy weak ideal)
  # MPI_Dims_create (balanced, fixed entries, errors), a 4 x 3 grid periodic
  # in one dimension: coords/rank round trips, wrap, shifts at the borders,
  # Cart_sub into rows, columns and zero dimensions, a grid smaller than the
  # communicator, Cart_map, Topo_test, dup keeping the topology.
  progsim_program_test(topo.cart.${policy} PROGRAM topo_cart
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: topo_cart ok" --stdout-regex "rank 5: topo_cart ok"
           --stdout-regex "rank 11: topo_cart ok"
    RUN -n 12 --progress ${policy})

  # A symmetric graph with a self edge and a repeated edge on 4 of 5 ranks:
  # queries, Graph_map, dup, the empty graph, an invalid edge, neighbor
  # allgather/alltoall matched edge by edge.
  progsim_program_test(topo.graph.${policy} PROGRAM topo_graph
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: topo_graph ok" --stdout-regex "rank 4: topo_graph ok"
    RUN -n 5 --progress ${policy})

  # An irregular weighted distributed graph (repeated and self edges) made by
  # Dist_graph_create_adjacent and by Dist_graph_create with the edges named
  # by rank 0, by their sources and by their destinations: neighbours,
  # weights and their order; neighbor allgather, alltoall, alltoallv data.
  progsim_program_test(topo.distgraph.${policy} PROGRAM topo_distgraph
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: topo_distgraph ok" --stdout-regex "rank 5: topo_distgraph ok"
    RUN -n 6 --progress ${policy})

  # Neighbor allgather(v), alltoall(v,w) on 2-D grids: periodic, one
  # dimension periodic (MPI_PROC_NULL blocks untouched), dimensions of size
  # 2 and 1 (the same process below and above: blocks matched by direction).
  progsim_program_test(topo.neighbor_cart.${policy} PROGRAM topo_neighbor_cart
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: topo_neighbor_cart ok" --stdout-regex "rank 11: topo_neighbor_cart ok"
    RUN -n 12 --progress ${policy})

  # Rank 3 never joins MPI_Neighbor_alltoall on a ring of 4: deadlock, its
  # neighbours named as blocked in the collective.
  progsim_program_test(topo.neighbor_deadlock.${policy} PROGRAM topo_deadlock
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice
           --stderr-regex "rank 0: blocked since t=[0-9.]+ s in MPI_Neighbor_alltoall\\(comm=[^)]*\\), waiting for a message from rank 3"
           --stderr-regex "rank 2: blocked since t=[0-9.]+ s in MPI_Neighbor_alltoall"
           --stderr-regex "rank 3: blocked since t=[0-9.]+ s in MPI_Recv"
           --stderr-regex "waits for rank 3 to take part in MPI_Neighbor_alltoall \\(a collective partner\\)"
           --stderr-regex "cycle: rank 0 -> rank 3 -> rank 0"
    RUN -n 4 --progress ${policy})

  # The same with a persistent MPI_Neighbor_alltoall_init request that rank
  # 3 never starts: its neighbours wait in MPI_Wait for its blocks.
  progsim_program_test(topo.neighbor_deadlock_persistent.${policy} PROGRAM topo_deadlock
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice
           --stderr-regex "rank 0: blocked since t=[0-9.]+ s in MPI_Neighbor_alltoall_init\\(comm=[^)]*\\), waiting for a message from rank 3"
           --stderr-regex "rank 2: blocked since t=[0-9.]+ s in MPI_Neighbor_alltoall_init"
           --stderr-regex "waits for rank 3 to take part in MPI_Neighbor_alltoall_init \\(a collective partner\\)"
           --stderr-regex "cycle: rank 0 -> rank 3 -> rank 0"
    RUN -n 4 --progress ${policy} PROGRAM_ARGS persistent)
endforeach()

# Nonblocking neighborhood collectives: five outstanding on one grid (data
# checked), then a 1 MiB MPI_Ineighbor_alltoall overlapped with 1 s of
# computation. Its rendezvous steps wait for rank 0's MPI_Wait under weak
# progress (hundreds of microseconds there) and are done by the end of the
# computation under the other policies.
progsim_program_test(topo.ineighbor.weak PROGRAM topo_ineighbor
  EXPECT --expect-outcome completed --expect-exit 0 --twice
         --stdout-regex "rank 0: topo_ineighbor ok" --stdout-regex "rank 11: topo_ineighbor ok"
         --stdout-regex "rank 0: MPI_Wait after the computation took [1-9][0-9][0-9] us"
  RUN -n 12 --progress weak)
foreach(policy thread offload ideal)
  progsim_program_test(topo.ineighbor.${policy} PROGRAM topo_ineighbor
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: topo_ineighbor ok" --stdout-regex "rank 11: topo_ineighbor ok"
           --stdout-regex "rank 0: MPI_Wait after the computation took 0 us"
    RUN -n 12 --progress ${policy})
endforeach()

# Persistent neighborhood collectives (MPI_Neighbor_*_init, MPI-4.1 §8.8):
# all five on a Cartesian grid with MPI_PROC_NULL borders and on a
# distributed graph with repeated and self edges, each started four times
# with new send data (MPI_Start/MPI_Wait and MPI_Startall/MPI_Waitall, once
# around a blocking MPI_Neighbor_allgather); MPI_IN_PLACE refused.
foreach(policy weak thread offload ideal)
  progsim_program_test(topo.pneighbor.${policy} PROGRAM topo_pneighbor
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: topo_pneighbor ok" --stdout-regex "rank 11: topo_pneighbor ok"
    RUN -n 12 --progress ${policy})
endforeach()

#!/usr/bin/python3
"""Writes an OTF2 archive like Score-P's MPI adapter does, with OTF2's own
writer (Debian's python3-otf2), for the import tests of `progsim replay`.

    write_archive.py DIR VARIANT

VARIANT is
  mix          8 ranks: MPI_Initialized; MPI_Init; MPI_Comm_split (a CREATE_HANDLE collective,
               as Score-P writes it); 1 ms of computation; blocking MPI_Send/
               MPI_Recv pairs (0->1, 2->3, ..., tag 7, 1000*(r+1) bytes);
               2 ms; a ring of MPI_Irecv/MPI_Isend (tag 9, 65536 bytes)
               with 0.5 ms of computation before MPI_Waitall; MPI_Allreduce
               (64 doubles); MPI_Bcast from rank 0 (1 MiB); MPI_Barrier on a
               communicator of the even ranks; 3 ms; MPI_Alltoall (4096 bytes
               per peer); MPI_Comm_rank; MPI_Finalize. The timer counts
               microseconds; the measured time inside the calls is made up
               (replay simulates it).
  rma          2 ranks, an RmaPut inside MPI_Put: not replayable.
  alltoallv    2 ranks, an MPI_Alltoallv: only totals, not replayable.
  deadlock     2 ranks, each in an MPI_Recv from the other.
  many         100 ranks: MPI_Init, MPI_Barrier, MPI_Finalize.
The byte counts of collectives are Score-P's (scorep_mpi_coll.c).
"""
import sys

import otf2
from otf2.enums import CollectiveOp, GroupType, LocationGroupType, LocationType, Paradigm, RegionRole

RESOLUTION = 1000000  # ticks per second: 1 us


def archive(path, nranks, body):
    with otf2.writer.open(path, timer_resolution=RESOLUTION) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("machine")
        locations = []
        for r in range(nranks):
            group = defs.location_group("MPI Rank %d" % r, location_group_type=LocationGroupType.PROCESS,
                                        system_tree_parent=node)
            locations.append(defs.location("Master thread", type=LocationType.CPU_THREAD, group=group))
        defs.group("MPI locations", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI,
                   members=locations)
        world_group = defs.group("MPI_COMM_WORLD group", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                                 members=list(range(nranks)))
        world = defs.comm("MPI_COMM_WORLD", group=world_group)
        regions = {}

        def region(name, role=RegionRole.FUNCTION):
            if name not in regions:
                regions[name] = defs.region(name, region_role=role, paradigm=Paradigm.MPI)
            return regions[name]

        writers = [trace.event_writer_from_location(loc) for loc in locations]
        body(defs, world, region, writers, nranks)


class Clock:
    """Per-rank time in microseconds: calls last 5 us, gaps are given."""

    def __init__(self):
        self.t = 100

    def call(self, w, reg, records=lambda t: None, length=5):
        w.enter(self.t, reg)
        records(self.t + length // 2)
        self.t += length
        w.leave(self.t, reg)

    def compute(self, us):
        self.t += us


def mix(defs, world, region, writers, n):
    even_group = defs.group("even ranks", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                            members=list(range(0, n, 2)))
    even = defs.comm("even ranks", group=even_group, parent=world)
    for r, w in enumerate(writers):
        c = Clock()
        c.call(w, region("MPI_Initialized"))
        c.call(w, region("MPI_Init"))

        def collective(op, comm, root, sent, received):
            def records(t):
                w.mpi_collective_begin(t - 1)
                w.mpi_collective_end(t, op, comm, root, sent, received)
            return records
        undefined = 0xFFFFFFFF
        c.call(w, region("MPI_Comm_split"), collective(CollectiveOp.CREATE_HANDLE, world, undefined, 0, 0))
        c.compute(1000)
        if r % 2 == 0:
            c.call(w, region("MPI_Send", RegionRole.POINT2POINT),
                   lambda t: w.mpi_send(t, r + 1, world, 7, 1000 * (r + 1)))
        else:
            c.call(w, region("MPI_Recv", RegionRole.POINT2POINT),
                   lambda t: w.mpi_recv(t, r - 1, world, 7, 1000 * r))
        c.compute(2000)
        left, right = (r + n - 1) % n, (r + 1) % n
        c.call(w, region("MPI_Irecv", RegionRole.POINT2POINT), lambda t: w.mpi_irecv_request(t, 11))
        c.call(w, region("MPI_Isend", RegionRole.POINT2POINT), lambda t: w.mpi_isend(t, right, world, 9, 65536, 12))
        c.compute(500)

        def completions(t):
            w.mpi_isend_complete(t, 12)
            w.mpi_irecv(t, left, world, 9, 65536, 11)
        c.call(w, region("MPI_Waitall", RegionRole.POINT2POINT), completions)
        c.call(w, region("MPI_Allreduce", RegionRole.COLL_ALL2ALL),
               collective(CollectiveOp.ALLREDUCE, world, undefined, n * 512, n * 512))
        c.call(w, region("MPI_Bcast", RegionRole.COLL_ONE2ALL),
               collective(CollectiveOp.BCAST, world, 0, n * 1048576 if r == 0 else 0, 1048576))
        if r % 2 == 0:
            c.call(w, region("MPI_Barrier", RegionRole.BARRIER),
                   collective(CollectiveOp.BARRIER, even, undefined, 0, 0))
        c.compute(3000)
        c.call(w, region("MPI_Alltoall", RegionRole.COLL_ALL2ALL),
               collective(CollectiveOp.ALLTOALL, world, undefined, n * 4096, n * 4096))
        c.call(w, region("MPI_Comm_rank"))
        c.call(w, region("MPI_Finalize"))


def rma(defs, world, region, writers, n):
    win = defs.rma_win("window", comm=world)
    for r, w in enumerate(writers):
        c = Clock()
        c.call(w, region("MPI_Init"))
        if r == 1:
            c.call(w, region("MPI_Put", RegionRole.RMA), lambda t: w.rma_put(t, win, 0, 800, 1))
        c.call(w, region("MPI_Finalize"))


def alltoallv(defs, world, region, writers, n):
    for r, w in enumerate(writers):
        c = Clock()
        c.call(w, region("MPI_Init"))
        c.compute(10)

        def records(t):
            w.mpi_collective_begin(t - 1)
            w.mpi_collective_end(t, CollectiveOp.ALLTOALLV, world, 0xFFFFFFFF, 300 + r, 300 + r)
        c.call(w, region("MPI_Alltoallv", RegionRole.COLL_ALL2ALL), records)
        c.call(w, region("MPI_Finalize"))


def deadlock(defs, world, region, writers, n):
    for r, w in enumerate(writers):
        c = Clock()
        c.call(w, region("MPI_Init"))
        c.call(w, region("MPI_Recv", RegionRole.POINT2POINT), lambda t: w.mpi_recv(t, 1 - r, world, 5, 8))
        c.call(w, region("MPI_Finalize"))


def many(defs, world, region, writers, n):
    for r, w in enumerate(writers):
        c = Clock()
        c.call(w, region("MPI_Init"))

        def records(t):
            w.mpi_collective_begin(t - 1)
            w.mpi_collective_end(t, CollectiveOp.BARRIER, world, 0xFFFFFFFF, 0, 0)
        c.call(w, region("MPI_Barrier", RegionRole.BARRIER), records)
        c.call(w, region("MPI_Finalize"))


VARIANTS = {"mix": (8, mix), "rma": (2, rma), "alltoallv": (2, alltoallv), "deadlock": (2, deadlock),
            "many": (100, many)}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[2] not in VARIANTS:
        sys.exit(__doc__)
    ranks, body = VARIANTS[sys.argv[2]]
    archive(sys.argv[1], ranks, body)

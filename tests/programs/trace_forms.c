/* Exercises the call forms the trace recorder learnt in session 14 (issue
 * 19), for record -> replay round trips: every persistent collective
 * (MPI-4.1 §6.13: MPI_Barrier_init ... MPI_Alltoallw_init, started twice,
 * by MPI_Start and by MPI_Startall, then freed), MPI_Alltoallw and
 * MPI_Ialltoallw with a datatype per peer, the w-form neighborhood
 * collectives on a ring (blocking, nonblocking, persistent) and the
 * persistent forms of the other neighborhood collectives, MPI_Isendrecv and
 * MPI_Isendrecv_replace, and the large-count (_c) point-to-point forms that
 * large_count.c does not call (synchronous, ready, buffered nonblocking,
 * persistent, MPI_Imrecv_c). Needs 4 ranks. */
#include <mpi.h>

#define N 2048
static int out[4 * N], in[4 * N];

/* Starts each request twice (MPI_Start, then MPI_Startall) and frees it. */
static void run_persistent(MPI_Request* requests, int n)
{
  for (int i = 0; i < n; ++i) {
    MPI_Start(&requests[i]);
    MPI_Wait(&requests[i], MPI_STATUS_IGNORE);
  }
  MPI_Startall(n, requests);
  progsim_compute(2e-6);
  MPI_Waitall(n, requests, MPI_STATUSES_IGNORE);
  for (int i = 0; i < n; ++i)
    MPI_Request_free(&requests[i]);
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int counts[4], displs[4], rcounts[4], rdispls[4];
  for (int p = 0; p < size; ++p) {
    counts[p] = 1 + p;
    displs[p] = p * N;
    rcounts[p] = 1 + rank;
    rdispls[p] = p * N;
  }

  /* Persistent collectives, one of each (root 1 for the rooted ones). */
  MPI_Request coll[17];
  int k = 0;
  MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &coll[k++]);
  MPI_Bcast_init(in, N, MPI_INT, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &coll[k++]);
  MPI_Reduce_init(out, in, 8, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &coll[k++]);
  MPI_Allreduce_init(out + N, in + N, 8, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &coll[k++]);
  MPI_Scan_init(out, in + 2 * N, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &coll[k++]);
  MPI_Exscan_init(out, in + 3 * N, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &coll[k++]);
  run_persistent(coll, k);
  k = 0;
  MPI_Reduce_scatter_block_init(out, in, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &coll[k++]);
  MPI_Reduce_scatter_init(out, in + N, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &coll[k++]);
  MPI_Alltoall_init(out, 16, MPI_INT, in + 2 * N, 16, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &coll[k++]);
  run_persistent(coll, k);
  k = 0;
  MPI_Gather_init(out, 100, MPI_INT, in, 100, MPI_INT, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &coll[k++]);
  MPI_Scatter_init(out, 100, MPI_INT, in + N, 100, MPI_INT, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &coll[k++]);
  MPI_Allgather_init(out, 50, MPI_INT, in + 2 * N, 50, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &coll[k++]);
  run_persistent(coll, k);
  k = 0;
  MPI_Gatherv_init(out, 1 + rank, MPI_INT, in, counts, displs, MPI_INT, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                   &coll[k++]);
  run_persistent(coll, k);
  k = 0;
  MPI_Scatterv_init(out, counts, displs, MPI_INT, in, 1 + rank, MPI_INT, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                    &coll[k++]);
  run_persistent(coll, k);
  k = 0;
  MPI_Allgatherv_init(out, 1 + rank, MPI_INT, in, counts, displs, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                      &coll[k++]);
  run_persistent(coll, k);
  k = 0;
  MPI_Alltoallv_init(out, counts, displs, MPI_INT, in, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                     &coll[k++]);
  run_persistent(coll, k);

  /* MPI_Alltoallw: a datatype per peer (ints to even ranks, doubles to odd
   * ones), byte displacements; blocking, nonblocking, persistent. */
  MPI_Datatype stypes[4], rtypes[4];
  int sbytes_displs[4], rbytes_displs[4];
  for (int p = 0; p < size; ++p) {
    stypes[p] = p % 2 ? MPI_DOUBLE : MPI_INT;
    rtypes[p] = rank % 2 ? MPI_DOUBLE : MPI_INT;
    sbytes_displs[p] = p * N;
    rbytes_displs[p] = p * N;
  }
  MPI_Alltoallw(out, counts, sbytes_displs, stypes, in, rcounts, rbytes_displs, rtypes, MPI_COMM_WORLD);
  MPI_Ialltoallw(out, counts, sbytes_displs, stypes, in, rcounts, rbytes_displs, rtypes, MPI_COMM_WORLD, &coll[0]);
  progsim_compute(3e-6);
  MPI_Wait(&coll[0], MPI_STATUS_IGNORE);
  MPI_Alltoallw_init(out, counts, sbytes_displs, stypes, in, rcounts, rbytes_displs, rtypes, MPI_COMM_WORLD,
                     MPI_INFO_NULL, &coll[0]);
  run_persistent(coll, 1);

  /* Neighborhood collectives on a periodic ring: the w forms in each form,
   * and the persistent forms of the others. */
  int dims[1] = {size}, periods[1] = {1};
  MPI_Comm ring;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  /* To [left, right], from [left, right]: what goes left comes from the right. */
  int ncounts[2] = {64, 128}, nrcounts[2] = {128, 64}, ndispls[2] = {0, N};
  MPI_Aint nwdispls[2] = {0, N * (MPI_Aint)sizeof(int)};
  MPI_Datatype ntypes[2] = {MPI_INT, MPI_INT};
  MPI_Neighbor_alltoallw(out, ncounts, nwdispls, ntypes, in, nrcounts, nwdispls, ntypes, ring);
  MPI_Ineighbor_alltoallw(out, ncounts, nwdispls, ntypes, in, nrcounts, nwdispls, ntypes, ring, &coll[0]);
  MPI_Wait(&coll[0], MPI_STATUS_IGNORE);
  k = 0;
  MPI_Neighbor_alltoallw_init(out, ncounts, nwdispls, ntypes, in, nrcounts, nwdispls, ntypes, ring, MPI_INFO_NULL,
                              &coll[k++]);
  run_persistent(coll, k);
  k = 0;
  MPI_Neighbor_allgather_init(out, 32, MPI_INT, in, 32, MPI_INT, ring, MPI_INFO_NULL, &coll[k++]);
  MPI_Neighbor_alltoall_init(out, 32, MPI_INT, in + 2 * N, 32, MPI_INT, ring, MPI_INFO_NULL, &coll[k++]);
  run_persistent(coll, k);
  k = 0;
  MPI_Neighbor_allgatherv_init(out, 64, MPI_INT, in, ncounts, ndispls, MPI_INT, ring, MPI_INFO_NULL, &coll[k++]);
  run_persistent(coll, k);
  k = 0;
  MPI_Neighbor_alltoallv_init(out, ncounts, ndispls, MPI_INT, in, nrcounts, ndispls, MPI_INT, ring, MPI_INFO_NULL,
                              &coll[k++]);
  run_persistent(coll, k);
  MPI_Comm_free(&ring);

  /* MPI_Isendrecv(_replace) around the ring, in both count forms. */
  MPI_Request sr[4];
  MPI_Isendrecv(out, N, MPI_INT, right, 5, in, N, MPI_INT, left, 5, MPI_COMM_WORLD, &sr[0]);
  MPI_Isendrecv_c(out + N, (MPI_Count)N, MPI_INT, left, 6, in + N, (MPI_Count)N, MPI_INT, right, 6,
                  MPI_COMM_WORLD, &sr[1]);
  MPI_Isendrecv_replace(in + 2 * N, 100, MPI_INT, right, 7, left, 7, MPI_COMM_WORLD, &sr[2]);
  MPI_Isendrecv_replace_c(in + 3 * N, (MPI_Count)N, MPI_INT, right, 8, left, 8, MPI_COMM_WORLD, &sr[3]);
  progsim_compute(5e-6);
  MPI_Waitall(4, sr, MPI_STATUSES_IGNORE);

  /* Large-count point-to-point forms: synchronous, ready (after a barrier
   * that orders it after the receive), buffered nonblocking, persistent,
   * and the nonblocking matched receive. */
  int attached = 2 * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
  static char buffer[2 * (N * sizeof(int) + 1024)];
  MPI_Buffer_attach_c(buffer, (MPI_Count)attached);
  MPI_Request r[4];
  MPI_Irecv_c(in, (MPI_Count)N, MPI_INT, left, 10, MPI_COMM_WORLD, &r[0]);
  MPI_Ssend_c(out, (MPI_Count)N, MPI_INT, right, 10, MPI_COMM_WORLD);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Irecv_c(in, (MPI_Count)N, MPI_INT, left, 11, MPI_COMM_WORLD, &r[0]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Rsend_c(out, (MPI_Count)N, MPI_INT, right, 11, MPI_COMM_WORLD);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Irecv_c(in, (MPI_Count)N, MPI_INT, left, 12, MPI_COMM_WORLD, &r[0]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Irsend_c(out, (MPI_Count)N, MPI_INT, right, 12, MPI_COMM_WORLD, &r[1]);
  MPI_Ibsend_c(out, (MPI_Count)N, MPI_INT, right, 13, MPI_COMM_WORLD, &r[2]);
  MPI_Recv_c(in + N, (MPI_Count)N, MPI_INT, left, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
  MPI_Ssend_init_c(out, (MPI_Count)N, MPI_INT, right, 14, MPI_COMM_WORLD, &r[0]);
  MPI_Bsend_init_c(out, (MPI_Count)N, MPI_INT, right, 15, MPI_COMM_WORLD, &r[1]);
  MPI_Recv_init_c(in, (MPI_Count)N, MPI_INT, left, 14, MPI_COMM_WORLD, &r[2]);
  MPI_Recv_init_c(in + N, (MPI_Count)N, MPI_INT, left, 15, MPI_COMM_WORLD, &r[3]);
  for (int round = 0; round < 2; ++round) {
    MPI_Startall(4, r);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  }
  for (int i = 0; i < 4; ++i)
    MPI_Request_free(&r[i]);
  MPI_Recv_init_c(in, (MPI_Count)N, MPI_INT, left, 16, MPI_COMM_WORLD, &r[0]);
  MPI_Start(&r[0]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Rsend_init_c(out, (MPI_Count)N, MPI_INT, right, 16, MPI_COMM_WORLD, &r[1]);
  MPI_Start(&r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
  MPI_Send(out, 10, MPI_INT, right, 17, MPI_COMM_WORLD);
  MPI_Message message;
  MPI_Mprobe(left, 17, MPI_COMM_WORLD, &message, MPI_STATUS_IGNORE);
  MPI_Imrecv_c(in, (MPI_Count)10, MPI_INT, &message, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  void* detached;
  MPI_Count detached_size;
  MPI_Buffer_detach_c(&detached, &detached_size);

  MPI_Finalize();
  return 0;
}

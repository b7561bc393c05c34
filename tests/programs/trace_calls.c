/* Exercises the calls the trace recorder learnt in issue 19, for record ->
 * replay round trips: buffered and ready sends (blocking and not), an
 * MPI_Iprobe polling loop and MPI_Probe from any source, MPI_Waitany,
 * MPI_Waitsome, MPI_Testany, MPI_Testall, MPI_Testsome, MPI_Request_free,
 * MPI_Scan, MPI_Exscan, MPI_Scatterv, MPI_Ibarrier, MPI_Ibcast, MPI_Ireduce,
 * MPI_Iallreduce (overlapping compute) and the other nonblocking collectives
 * but MPI_Ialltoallw, persistent requests (MPI_Send_init,
 * MPI_Ssend_init, MPI_Recv_init, MPI_Start, MPI_Startall), communicators
 * made by MPI_Comm_split_type, MPI_Cart_create, MPI_Cart_sub, MPI_Graph_create,
 * MPI_Dist_graph_create_adjacent and MPI_Dist_graph_create, the
 * neighborhood collectives (blocking and nonblocking, but the w forms), matched
 * probes (MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv),
 * MPI_Sendrecv_replace, and local calls recorded through the
 * generic hook (MPI_Initialized before MPI_Init, MPI_Type_size). Needs 4
 * ranks. */
#include <mpi.h>
#include <stdlib.h>

#define N 4096
static char out[8 * N], in[8 * N];

int main(int argc, char** argv)
{
  int initialized = 0, rank, size, type_size;
  MPI_Initialized(&initialized);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Type_size(MPI_DOUBLE, &type_size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;

  /* Buffered sends around the ring. */
  int attached = 4 * (N + MPI_BSEND_OVERHEAD);
  char* buffer = malloc((size_t)attached);
  MPI_Buffer_attach(buffer, attached);
  MPI_Request bsend;
  MPI_Bsend(out, N, MPI_CHAR, right, 1, MPI_COMM_WORLD);
  MPI_Ibsend(out, N, MPI_CHAR, right, 2, MPI_COMM_WORLD, &bsend);
  MPI_Recv(in, N, MPI_CHAR, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(in, N, MPI_CHAR, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&bsend, MPI_STATUS_IGNORE);
  void* detached;
  MPI_Buffer_detach(&detached, &attached);
  free(buffer);

  /* Ready sends: the receives are posted before the barrier. */
  MPI_Request recvs[2], rsend;
  MPI_Irecv(in, N, MPI_CHAR, left, 3, MPI_COMM_WORLD, &recvs[0]);
  MPI_Irecv(in + N, N, MPI_CHAR, left, 4, MPI_COMM_WORLD, &recvs[1]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Rsend(out, N, MPI_CHAR, right, 3, MPI_COMM_WORLD);
  MPI_Irsend(out, N, MPI_CHAR, right, 4, MPI_COMM_WORLD, &rsend);
  int index;
  MPI_Waitany(2, recvs, &index, MPI_STATUS_IGNORE);
  MPI_Waitany(2, recvs, &index, MPI_STATUS_IGNORE);
  MPI_Wait(&rsend, MPI_STATUS_IGNORE);

  /* Rank 0 polls with MPI_Iprobe while the others compute, then send. */
  if (rank == 0) {
    for (int from = 1; from < size; ++from) {
      int flag = 0;
      while (!flag)
        MPI_Iprobe(from, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      MPI_Recv(in, N, MPI_CHAR, from, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 1; i < size; ++i) {
      MPI_Status status;
      MPI_Probe(MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &status);
      MPI_Recv(in, 8, MPI_CHAR, status.MPI_SOURCE, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else {
    progsim_compute(0.0001 * rank);
    MPI_Send(out, N, MPI_CHAR, 0, 5, MPI_COMM_WORLD);
    MPI_Send(out, 8, MPI_CHAR, 0, 6, MPI_COMM_WORLD);
  }

  /* Waitsome, Testany, Testall, Testsome over a ring exchange. */
  MPI_Request requests[4];
  MPI_Irecv(in, 2 * N, MPI_CHAR, left, 7, MPI_COMM_WORLD, &requests[0]);
  MPI_Irecv(in + 2 * N, 8 * N - 2 * N, MPI_CHAR, right, 8, MPI_COMM_WORLD, &requests[1]);
  MPI_Isend(out, 2 * N, MPI_CHAR, right, 7, MPI_COMM_WORLD, &requests[2]);
  MPI_Isend(out, 6 * N, MPI_CHAR, left, 8, MPI_COMM_WORLD, &requests[3]);
  int flag = 0, outcount = 0, indices[4];
  MPI_Testany(4, requests, &index, &flag, MPI_STATUS_IGNORE);
  MPI_Testall(4, requests, &flag, MPI_STATUSES_IGNORE);
  progsim_compute(0.0002);
  MPI_Testsome(4, requests, &outcount, indices, MPI_STATUSES_IGNORE);
  do
    MPI_Waitsome(4, requests, &outcount, indices, MPI_STATUSES_IGNORE);
  while (outcount != MPI_UNDEFINED);

  /* A request freed while it is pending (the receive completes it). */
  MPI_Request freed;
  MPI_Isend(out, 16, MPI_CHAR, right, 9, MPI_COMM_WORLD, &freed);
  MPI_Request_free(&freed);
  MPI_Recv(in, 16, MPI_CHAR, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

  double x[32] = {0}, y[32];
  MPI_Scan(x, y, 32, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(x, y, 32, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int counts[4] = {100, 2000, 30, 4}, displs[4] = {0, 100, 2100, 2130};
  MPI_Scatterv(out, counts, displs, MPI_CHAR, in, counts[rank], MPI_CHAR, 1, MPI_COMM_WORLD);

  /* Nonblocking collectives overlapping compute. */
  MPI_Request colls[4];
  double z[32], w[16];
  MPI_Ibarrier(MPI_COMM_WORLD, &colls[0]);
  MPI_Ibcast(in, 3 * N, MPI_CHAR, 2, MPI_COMM_WORLD, &colls[1]);
  MPI_Ireduce(x, z, 32, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, &colls[2]);
  MPI_Iallreduce(x + 16, w, 16, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD, &colls[3]);
  progsim_compute(0.0001 * (rank + 1));
  MPI_Test(&colls[0], &flag, MPI_STATUS_IGNORE);
  MPI_Waitall(4, colls, MPI_STATUSES_IGNORE);
  /* The other nonblocking collectives, each on its own buffers. */
  static char sbuf[12][4 * N], rbuf[12][4 * N];
  int vcounts[4] = {10, 200, 3000, 4}, vdispls[4] = {0, 10, 210, 3210};
  int rscounts[4] = {1, 2, 3, 4};
  MPI_Request more[12];
  MPI_Iallgather(sbuf[0], 100, MPI_CHAR, rbuf[0], 100, MPI_CHAR, MPI_COMM_WORLD, &more[0]);
  MPI_Ialltoall(sbuf[1], 200, MPI_CHAR, rbuf[1], 200, MPI_CHAR, MPI_COMM_WORLD, &more[1]);
  MPI_Igather(sbuf[2], 300, MPI_CHAR, rbuf[2], 300, MPI_CHAR, 3, MPI_COMM_WORLD, &more[2]);
  MPI_Iscatter(sbuf[3], 400, MPI_CHAR, rbuf[3], 400, MPI_CHAR, 0, MPI_COMM_WORLD, &more[3]);
  MPI_Iallgatherv(sbuf[4], vcounts[rank], MPI_CHAR, rbuf[4], vcounts, vdispls, MPI_CHAR, MPI_COMM_WORLD, &more[4]);
  int mine[4], mine_displs[4];  /* rank r sends vcounts[r] to each peer */
  for (int i = 0; i < 4; ++i) {
    mine[i] = vcounts[rank];
    mine_displs[i] = i * vcounts[rank];
  }
  MPI_Ialltoallv(sbuf[5], mine, mine_displs, MPI_CHAR, rbuf[5], vcounts, vdispls, MPI_CHAR, MPI_COMM_WORLD, &more[5]);
  MPI_Igatherv(sbuf[6], vcounts[rank], MPI_CHAR, rbuf[6], vcounts, vdispls, MPI_CHAR, 2, MPI_COMM_WORLD, &more[6]);
  MPI_Iscatterv(sbuf[7], vcounts, vdispls, MPI_CHAR, rbuf[7], vcounts[rank], MPI_CHAR, 1, MPI_COMM_WORLD, &more[7]);
  MPI_Ireduce_scatter((double*)sbuf[8], (double*)rbuf[8], rscounts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &more[8]);
  MPI_Ireduce_scatter_block((int*)sbuf[9], (int*)rbuf[9], 5, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &more[9]);
  MPI_Iscan((double*)sbuf[10], (double*)rbuf[10], 7, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD, &more[10]);
  MPI_Iexscan((int*)sbuf[11], (int*)rbuf[11], 9, MPI_INT, MPI_BXOR, MPI_COMM_WORLD, &more[11]);
  progsim_compute(0.0002);
  MPI_Waitall(12, more, MPI_STATUSES_IGNORE);

  /* Persistent requests, restarted: MPI_Startall and MPI_Waitall, then
   * MPI_Start of each and MPI_Waitany, then freed. */
  MPI_Request persistent[3];
  MPI_Recv_init(in, N, MPI_CHAR, left, 10, MPI_COMM_WORLD, &persistent[0]);
  MPI_Send_init(out, N, MPI_CHAR, right, 10, MPI_COMM_WORLD, &persistent[1]);
  MPI_Ssend_init(out + N, 64, MPI_CHAR, right, 11, MPI_COMM_WORLD, &persistent[2]);
  MPI_Request tail;
  for (int round = 0; round < 3; ++round) {
    MPI_Irecv(in + N, 64, MPI_CHAR, left, 11, MPI_COMM_WORLD, &tail);
    MPI_Startall(3, persistent);
    progsim_compute(0.00005 * (rank + 1));
    MPI_Testany(3, persistent, &index, &flag, MPI_STATUS_IGNORE);
    MPI_Waitall(3, persistent, MPI_STATUSES_IGNORE);
    MPI_Wait(&tail, MPI_STATUS_IGNORE);
  }
  MPI_Irecv(in + N, 64, MPI_CHAR, left, 11, MPI_COMM_WORLD, &tail);
  for (int i = 0; i < 3; ++i)
    MPI_Start(&persistent[i]);
  for (int i = 0; i < 3; ++i)
    MPI_Waitany(3, persistent, &index, MPI_STATUS_IGNORE);
  MPI_Wait(&tail, MPI_STATUS_IGNORE);
  for (int i = 0; i < 3; ++i)
    MPI_Request_free(&persistent[i]);

  /* Communicators by node and on a 2 x 2 grid, and a row of it. */
  MPI_Comm node, grid, row;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Allreduce(x, y, 8, MPI_DOUBLE, MPI_SUM, node);
  int dims[2] = {2, 2}, periods[2] = {1, 0}, remain[2] = {0, 1};
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &grid);
  int up, down;
  MPI_Cart_shift(grid, 0, 1, &up, &down);
  MPI_Sendrecv(out, 500, MPI_CHAR, down, 12, in, 500, MPI_CHAR, up, 12, grid, MPI_STATUS_IGNORE);
  /* Neighborhood collectives on the grid (2 in- and 2 out-neighbors; the
   * non-periodic dimension gives MPI_PROC_NULL neighbors). */
  int ncounts[4] = {20, 20, 20, 20}, ndispls[4] = {0, 25, 50, 75};  /* what each neighbor expects */
  MPI_Request nreq[4];
  MPI_Neighbor_allgather(out, 50, MPI_CHAR, in, 50, MPI_CHAR, grid);
  MPI_Neighbor_alltoall(out, 60, MPI_CHAR, in, 60, MPI_CHAR, grid);
  MPI_Neighbor_allgatherv(out, 25, MPI_CHAR, in, (int[]){25, 25, 25, 25}, ndispls, MPI_CHAR, grid);
  MPI_Neighbor_alltoallv(out, ncounts, ndispls, MPI_CHAR, in, ncounts, ndispls, MPI_CHAR, grid);
  MPI_Ineighbor_allgather(sbuf[0], 50, MPI_CHAR, rbuf[0], 50, MPI_CHAR, grid, &nreq[0]);
  MPI_Ineighbor_alltoall(sbuf[1], 60, MPI_CHAR, rbuf[1], 60, MPI_CHAR, grid, &nreq[1]);
  MPI_Ineighbor_allgatherv(sbuf[2], 25, MPI_CHAR, rbuf[2], (int[]){25, 25, 25, 25}, ndispls, MPI_CHAR, grid, &nreq[2]);
  MPI_Ineighbor_alltoallv(sbuf[3], ncounts, ndispls, MPI_CHAR, rbuf[3], ncounts, ndispls, MPI_CHAR, grid, &nreq[3]);
  progsim_compute(0.00002);
  MPI_Waitall(4, nreq, MPI_STATUSES_IGNORE);
  MPI_Cart_sub(grid, remain, &row);
  MPI_Bcast(in, 700, MPI_CHAR, 1, row);
  MPI_Comm_free(&row);
  MPI_Comm_free(&grid);
  MPI_Comm_free(&node);

  /* Graph topologies: a ring as a graph (MPI_Graph_create), as a weighted
   * distributed graph (each rank its own neighbours) and as one rank 0
   * describes whole (MPI_Dist_graph_create); a neighborhood exchange on each. */
  MPI_Comm graph, adjacent, whole;
  int gindex[64], edges[128];
  for (int i = 0; i < size; ++i) {
    gindex[i] = 2 * (i + 1);
    edges[2 * i] = (i + size - 1) % size;
    edges[2 * i + 1] = (i + 1) % size;
  }
  MPI_Graph_create(MPI_COMM_WORLD, size, gindex, edges, 0, &graph);
  MPI_Neighbor_alltoall(out, 70, MPI_CHAR, in, 70, MPI_CHAR, graph);
  int ring[2] = {left, right}, weights[2] = {3, 5};
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, ring, weights, 2, ring, weights, MPI_INFO_NULL, 0, &adjacent);
  MPI_Neighbor_allgather(out, 80, MPI_CHAR, in, 80, MPI_CHAR, adjacent);
  int sources[64], degrees[64];
  for (int i = 0; i < size; ++i) {
    sources[i] = i;
    degrees[i] = 2;
  }
  MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? size : 0, sources, degrees, edges, MPI_UNWEIGHTED, MPI_INFO_NULL,
                        0, &whole);
  MPI_Neighbor_alltoall(out, 90, MPI_CHAR, in, 90, MPI_CHAR, whole);
  MPI_Comm_free(&whole);
  MPI_Comm_free(&adjacent);
  MPI_Comm_free(&graph);

  /* Matched probes: rank 0 takes the others' messages by MPI_Mprobe and
   * by an MPI_Improbe loop; MPI_Sendrecv_replace around the ring. */
  if (rank == 0) {
    for (int i = 1; i < size; ++i) {
      MPI_Message message;
      MPI_Status status;
      MPI_Mprobe(MPI_ANY_SOURCE, 13, MPI_COMM_WORLD, &message, &status);
      MPI_Mrecv(in, 64, MPI_CHAR, &message, MPI_STATUS_IGNORE);
    }
    for (int from = 1; from < size; ++from) {
      MPI_Message message;
      int found = 0;
      while (!found)
        MPI_Improbe(from, 14, MPI_COMM_WORLD, &found, &message, MPI_STATUS_IGNORE);
      MPI_Request request;
      MPI_Imrecv(in, N, MPI_CHAR, &message, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
  } else {
    MPI_Send(out, 64, MPI_CHAR, 0, 13, MPI_COMM_WORLD);
    progsim_compute(0.00003 * rank);
    MPI_Send(out, N, MPI_CHAR, 0, 14, MPI_COMM_WORLD);
  }
  MPI_Sendrecv_replace(in, 300, MPI_CHAR, right, 15, left, 15, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

  MPI_Finalize();
  return 0;
}

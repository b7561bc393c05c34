/* Exercises the communicator constructors the trace recorder learnt in
 * session 14 (issue 19) and communication on an intercommunicator, for
 * record -> replay round trips: MPI_Intercomm_create between the first two
 * and the last three of 5 ranks (unequal groups, so a remote rank and a
 * local one differ), point-to-point to remote ranks, rooted collectives with
 * MPI_ROOT and MPI_PROC_NULL, per-peer lists over the remote group
 * (MPI_Gatherv, MPI_Alltoallv), MPI_Intercomm_merge, MPI_Comm_create,
 * MPI_Comm_create_group, MPI_Comm_create_from_group and
 * MPI_Intercomm_create_from_groups. Needs 5 ranks. */
#include <mpi.h>
#include <stddef.h>

#define N 1024
static int out[8 * N], in[8 * N];

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int low = rank < 2; /* group A: ranks 0, 1; group B: ranks 2, 3, 4 */

  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
  int me, remote_size;
  MPI_Comm_rank(half, &me);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? 2 : 0, 7, &inter);
  MPI_Comm_remote_size(inter, &remote_size);

  /* Point-to-point: local rank i of A and of B exchange (B's rank 2 has no
   * partner in A and sends to A's rank 0 as well). */
  if (me < 2) {
    MPI_Request r[2];
    MPI_Irecv(in, N, MPI_INT, me, 1, inter, &r[0]);
    MPI_Isend(out, N, MPI_INT, me, 1, inter, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  }
  if (!low && me == 2)
    MPI_Send(out, 100, MPI_INT, 0, 2, inter);
  if (low && me == 0)
    MPI_Recv(in, 100, MPI_INT, 2, 2, inter, MPI_STATUS_IGNORE);

  /* Rooted collectives: A's rank 1 is the root, B receives. */
  int root = low ? (me == 1 ? MPI_ROOT : MPI_PROC_NULL) : 1;
  MPI_Barrier(inter);
  MPI_Bcast(out, 512, MPI_INT, root, inter);
  int counts[4] = {1, 2, 3, 4}, displs[4] = {0, N, 2 * N, 3 * N};
  if (low)
    MPI_Gather(NULL, 0, MPI_INT, in, 16, MPI_INT, root, inter);
  else
    MPI_Gather(out, 16, MPI_INT, NULL, 0, MPI_INT, root, inter);
  if (low)
    MPI_Gatherv(NULL, 0, MPI_INT, in, counts, displs, MPI_INT, root, inter);
  else
    MPI_Gatherv(out, 1 + me, MPI_INT, NULL, NULL, NULL, MPI_INT, root, inter);
  if (low)
    MPI_Scatter(out, 32, MPI_INT, NULL, 0, MPI_INT, root, inter);
  else
    MPI_Scatter(NULL, 0, MPI_INT, in, 32, MPI_INT, root, inter);
  MPI_Reduce(out, in, 8, MPI_INT, MPI_SUM, root, inter);

  /* All-to-all collectives over the remote group. */
  MPI_Allreduce(out, in, 64, MPI_INT, MPI_SUM, inter);
  MPI_Allgather(out, 20, MPI_INT, in, 20, MPI_INT, inter);
  MPI_Alltoall(out, 10, MPI_INT, in, 10, MPI_INT, inter);
  int scounts[4], rcounts[4];
  for (int p = 0; p < remote_size; ++p) {
    scounts[p] = 1 + p + me; /* to remote rank p */
    rcounts[p] = 1 + me + p; /* from remote rank p */
  }
  MPI_Alltoallv(out, scounts, displs, MPI_INT, in, rcounts, displs, MPI_INT, inter);
  MPI_Request ib;
  MPI_Ibcast(out, 256, MPI_INT, root, inter, &ib);
  MPI_Wait(&ib, MPI_STATUS_IGNORE);

  /* Back to one intracommunicator, B first. */
  MPI_Comm merged;
  MPI_Intercomm_merge(inter, low, &merged);
  MPI_Allreduce(out, in, 16, MPI_INT, MPI_MAX, merged);

  /* Group constructors: ranks 1, 3, 4 of MPI_COMM_WORLD. */
  MPI_Group world, odd_group, a_group, b_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int members[3] = {1, 3, 4}, a[2] = {0, 1}, b[3] = {2, 3, 4};
  MPI_Group_incl(world, 3, members, &odd_group);
  MPI_Group_incl(world, 2, a, &a_group);
  MPI_Group_incl(world, 3, b, &b_group);
  MPI_Comm created, grouped, from_group, inter2;
  MPI_Comm_create(MPI_COMM_WORLD, odd_group, &created);
  int in_group = rank == 1 || rank == 3 || rank == 4;
  if (in_group) {
    MPI_Comm_create_group(MPI_COMM_WORLD, odd_group, 5, &grouped);
    MPI_Comm_create_from_group(odd_group, "trace_inter.odd", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &from_group);
    MPI_Bcast(out, 128, MPI_INT, 2, created);
    MPI_Barrier(grouped);
    MPI_Allreduce(out, in, 4, MPI_INT, MPI_SUM, from_group);
    MPI_Comm_free(&created);
    MPI_Comm_free(&grouped);
    MPI_Comm_free(&from_group);
  }
  MPI_Intercomm_create_from_groups(low ? a_group : b_group, 0, low ? b_group : a_group, 0, "trace_inter.ab",
                                   MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &inter2);
  MPI_Barrier(inter2);
  MPI_Allgather(out, 3, MPI_INT, in, 3, MPI_INT, inter2);
  MPI_Group_free(&world);
  MPI_Group_free(&odd_group);
  MPI_Group_free(&a_group);
  MPI_Group_free(&b_group);

  MPI_Comm_free(&inter2);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}

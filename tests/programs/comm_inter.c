/* Intercommunicators on 6 ranks: a left group {0, 1} and a right group
 * {2, 3, 4, 5} joined by MPI_Intercomm_create; point-to-point across,
 * MPI_Comm_remote_size/group, MPI_Comm_dup, MPI_Intercomm_merge (order by
 * the high flag), and the intercommunicator collectives with known values:
 * barrier, bcast, reduce, allreduce, gather, scatter, allgather, alltoall,
 * reduce_scatter_block. */
#include "check.h"

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 6) {
    if (rank == 0)
      printf("run with 6 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int left = rank < 2;
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, left, rank, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, left ? 2 : 0, 17, &inter);
  int flag = 0, lsize, rsize, lrank;
  MPI_Comm_test_inter(inter, &flag);
  MPI_Comm_size(inter, &lsize);
  MPI_Comm_remote_size(inter, &rsize);
  MPI_Comm_rank(inter, &lrank);
  CHECK(flag == 1, "test_inter %d", flag);
  CHECK(lsize == (left ? 2 : 4) && rsize == (left ? 4 : 2), "sizes %d %d", lsize, rsize);
  CHECK(lrank == (left ? rank : rank - 2), "rank %d", lrank);

  /* remote group translated to world ranks */
  MPI_Group rg, wg;
  MPI_Comm_remote_group(inter, &rg);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  int zero = 0, w = -1;
  MPI_Group_translate_ranks(rg, 1, &zero, wg, &w);
  CHECK(w == (left ? 2 : 0), "remote rank 0 is world %d", w);
  MPI_Group_free(&rg);
  MPI_Group_free(&wg);

  /* point-to-point: left rank i <-> right rank i */
  if (lrank < 2) {
    int out = 100 + rank, in = -1;
    MPI_Status st;
    MPI_Sendrecv(&out, 1, MPI_INT, lrank, 5, &in, 1, MPI_INT, lrank, 5, inter, &st);
    CHECK(in == 100 + (left ? rank + 2 : rank - 2) && st.MPI_SOURCE == lrank, "p2p across: %d from %d", in,
          st.MPI_SOURCE);
  }

  /* dup keeps both groups */
  MPI_Comm dup;
  MPI_Comm_dup(inter, &dup);
  int result;
  MPI_Comm_compare(inter, dup, &result);
  CHECK(result == MPI_CONGRUENT, "compare dup %d", result);

  /* collectives: root is left rank 1 */
  MPI_Barrier(dup);
  int root = left ? (lrank == 1 ? MPI_ROOT : MPI_PROC_NULL) : 1;
  int v = left ? 77 : -1;
  MPI_Bcast(&v, 1, MPI_INT, root, dup);
  if (!left)
    CHECK(v == 77, "bcast %d", v);
  int s = rank, sum = -1;
  MPI_Reduce(&s, &sum, 1, MPI_INT, MPI_SUM, root, dup);
  if (left && lrank == 1)
    CHECK(sum == 2 + 3 + 4 + 5, "reduce at the root %d", sum);
  MPI_Allreduce(&s, &sum, 1, MPI_INT, MPI_SUM, dup);
  CHECK(sum == (left ? 14 : 1), "allreduce %d", sum);
  int g[4] = {-1, -1, -1, -1};
  MPI_Gather(&s, 1, MPI_INT, g, 1, MPI_INT, root, dup);
  if (left && lrank == 1)
    CHECK(g[0] == 2 && g[3] == 5, "gather %d %d", g[0], g[3]);
  int sc[4] = {50, 51, 52, 53}, got = -1;
  MPI_Scatter(sc, 1, MPI_INT, &got, 1, MPI_INT, root, dup);
  if (!left)
    CHECK(got == 50 + lrank, "scatter %d", got);
  int ag[4] = {-1, -1, -1, -1};
  MPI_Allgather(&s, 1, MPI_INT, ag, 1, MPI_INT, dup);
  for (int i = 0; i < rsize; ++i)
    CHECK(ag[i] == (left ? i + 2 : i), "allgather [%d] = %d", i, ag[i]);
  int a2a[4], a2b[4];
  for (int i = 0; i < rsize; ++i)
    a2a[i] = 10 * rank + i;
  MPI_Alltoall(a2a, 1, MPI_INT, a2b, 1, MPI_INT, dup);
  for (int i = 0; i < rsize; ++i) {
    int from = left ? i + 2 : i;
    CHECK(a2b[i] == 10 * from + lrank, "alltoall [%d] = %d", i, a2b[i]);
  }
  /* reduce_scatter_block: each side's total is 4 elements (left: 2 x 2,
   * right: 4 x 1); element j of a process's vector is 100 * rank + j. */
  int vec[4], part[2] = {-1, -1};
  for (int j = 0; j < 4; ++j)
    vec[j] = 100 * rank + j;
  MPI_Reduce_scatter_block(vec, part, left ? 2 : 1, MPI_INT, MPI_SUM, dup);
  if (left)
    for (int k = 0; k < 2; ++k)
      CHECK(part[k] == 100 * (2 + 3 + 4 + 5) + 4 * (2 * lrank + k), "reduce_scatter_block left [%d] = %d", k,
            part[k]);
  else
    CHECK(part[0] == 100 * (0 + 1) + 2 * lrank, "reduce_scatter_block right = %d", part[0]);

  /* split of the intercommunicator by lrank % 2: color 0 has left {0} and
   * right {2, 4}; color 1 has left {1} and right {3, 5}; keys reverse */
  MPI_Comm sp;
  MPI_Comm_split(inter, lrank % 2, -rank, &sp);
  MPI_Comm_size(sp, &lsize);
  MPI_Comm_remote_size(sp, &rsize);
  MPI_Comm_rank(sp, &lrank);
  CHECK(lsize == (left ? 1 : 2) && rsize == (left ? 2 : 1), "split inter sizes %d %d", lsize, rsize);
  if (!left)
    CHECK(lrank == (rank >= 4 ? 0 : 1), "split inter rank %d", lrank);
  int peer_sum = 0;
  MPI_Allreduce(&s, &peer_sum, 1, MPI_INT, MPI_SUM, sp);
  CHECK(peer_sum == (left ? (rank == 0 ? 2 + 4 : 3 + 5) : (rank % 2 == 0 ? 0 : 1)), "allreduce on the split %d",
        peer_sum);
  MPI_Comm_free(&sp);
  MPI_Comm_rank(inter, &lrank);

  /* create on the intercommunicator: left keeps {0}, right keeps {2, 3} */
  MPI_Group lg, sub;
  MPI_Comm_group(inter, &lg);
  int keep[2] = {0, 1};
  MPI_Group_incl(lg, left ? 1 : 2, keep, &sub);
  MPI_Comm cr;
  MPI_Comm_create(inter, sub, &cr);
  if (lrank < (left ? 1 : 2)) {
    MPI_Comm_remote_size(cr, &rsize);
    CHECK(rsize == (left ? 2 : 1), "create inter remote size %d", rsize);
    MPI_Comm_free(&cr);
  } else {
    CHECK(cr == MPI_COMM_NULL, "create inter gave a communicator to a non-member");
  }
  MPI_Group_free(&sub);
  MPI_Group_free(&lg);

  /* merge: the right group says high = 0, so it comes first */
  MPI_Comm merged;
  MPI_Intercomm_merge(inter, left, &merged);
  int mrank, msize;
  MPI_Comm_rank(merged, &mrank);
  MPI_Comm_size(merged, &msize);
  CHECK(msize == 6 && mrank == (left ? 4 + rank : rank - 2), "merged rank %d size %d", mrank, msize);
  int one = 1, n = 0;
  MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, merged);
  CHECK(n == 6, "allreduce on the merged communicator %d", n);
  MPI_Comm_test_inter(merged, &flag);
  CHECK(flag == 0, "merged is an intercommunicator");

  MPI_Comm_free(&merged);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  finish("comm_inter");
  MPI_Finalize();
  return 0;
}

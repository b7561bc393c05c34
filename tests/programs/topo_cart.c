/* Cartesian topologies on 12 ranks (MPI-4.1 §8.5): MPI_Dims_create
 * (balanced, fixed entries, errors), a 4 x 3 grid periodic in dimension 0
 * only: coordinates in row-major order, MPI_Cart_rank/MPI_Cart_coords round
 * trips, periodic wrap and the error outside a non-periodic dimension,
 * MPI_Cart_shift at and away from the borders, MPI_Cart_sub into rows and
 * columns and into zero dimensions, a grid smaller than the communicator,
 * MPI_Cart_map, MPI_Topo_test and the topology kept by MPI_Comm_dup. */
#include "check.h"

static void dims_create(void)
{
  int d2[2] = {0, 0};
  MPI_Dims_create(12, 2, d2);
  CHECK(d2[0] == 4 && d2[1] == 3, "dims_create(12, 2) = %d x %d", d2[0], d2[1]);
  int d3[3] = {0, 0, 0};
  MPI_Dims_create(12, 3, d3);
  CHECK(d3[0] == 3 && d3[1] == 2 && d3[2] == 2, "dims_create(12, 3) = %d %d %d", d3[0], d3[1], d3[2]);
  int fixed[3] = {0, 3, 0};
  MPI_Dims_create(24, 3, fixed);
  CHECK(fixed[0] == 4 && fixed[1] == 3 && fixed[2] == 2, "dims_create(24, {0,3,0}) = %d %d %d", fixed[0], fixed[1],
        fixed[2]);
  int big[3] = {0, 0, 0};
  MPI_Dims_create(1000000000, 3, big);
  CHECK(big[0] == 1000 && big[1] == 1000 && big[2] == 1000, "dims_create(1e9, 3) = %d %d %d", big[0], big[1], big[2]);
  /* 1323 = 3^3 * 7^2: 49 x 27 is closer than 63 x 21 */
  int odd[2] = {0, 0};
  MPI_Dims_create(1323, 2, odd);
  CHECK(odd[0] == 49 && odd[1] == 27, "dims_create(1323, 2) = %d x %d", odd[0], odd[1]);
  int prime[2] = {0, 0};
  MPI_Dims_create(11, 2, prime);
  CHECK(prime[0] == 11 && prime[1] == 1, "dims_create(11, 2) = %d x %d", prime[0], prime[1]);
  CHECK(MPI_Dims_create(1, 0, NULL) == MPI_SUCCESS, "zero dimensions");

  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int bad[2] = {3, 0};
  int err = MPI_Dims_create(10, 2, bad);
  int cls = -1;
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_DIMS, "10 nodes with a fixed 3: class %d", cls);
  int negative[2] = {-1, 0};
  err = MPI_Dims_create(4, 2, negative);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_DIMS, "negative dims: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void grid(int rank)
{
  int dims[2] = {4, 3}, periods[2] = {1, 0};
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
  int kind = -1, ndims = -1, crank = -1;
  MPI_Topo_test(cart, &kind);
  CHECK(kind == MPI_CART, "topo_test %d", kind);
  MPI_Topo_test(MPI_COMM_WORLD, &kind);
  CHECK(kind == MPI_UNDEFINED, "topo_test of world %d", kind);
  MPI_Cartdim_get(cart, &ndims);
  CHECK(ndims == 2, "cartdim %d", ndims);
  MPI_Comm_rank(cart, &crank);
  CHECK(crank == rank, "no reordering: cart rank %d", crank);

  int gd[2], gp[2], gc[2];
  MPI_Cart_get(cart, 2, gd, gp, gc);
  CHECK(gd[0] == 4 && gd[1] == 3 && gp[0] == 1 && gp[1] == 0, "cart_get %d %d %d %d", gd[0], gd[1], gp[0], gp[1]);
  CHECK(gc[0] == rank / 3 && gc[1] == rank % 3, "own coords (%d, %d)", gc[0], gc[1]);

  /* Round trips over the whole grid, row-major. */
  for (int r = 0; r < 12; ++r) {
    int c[2], back = -1;
    MPI_Cart_coords(cart, r, 2, c);
    CHECK(c[0] == r / 3 && c[1] == r % 3, "coords of %d: (%d, %d)", r, c[0], c[1]);
    MPI_Cart_rank(cart, c, &back);
    CHECK(back == r, "rank of coords of %d: %d", r, back);
  }
  /* Periodic wrap in dimension 0, in both directions. */
  int wrap[2] = {-1, 2}, far[2] = {9, 1}, wr = -1;
  MPI_Cart_rank(cart, wrap, &wr);
  CHECK(wr == 11, "(-1, 2) -> %d", wr);
  MPI_Cart_rank(cart, far, &wr);
  CHECK(wr == 4, "(9, 1) -> %d", wr);
  /* Outside the non-periodic dimension 1: an error. */
  MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
  int outside[2] = {0, 3}, cls = -1;
  MPI_Error_class(MPI_Cart_rank(cart, outside, &wr), &cls);
  CHECK(cls == MPI_ERR_ARG, "(0, 3): class %d", cls);
  MPI_Error_class(MPI_Cart_shift(cart, 2, 1, &wr, &wr), &cls);
  CHECK(cls == MPI_ERR_ARG, "shift in direction 2: class %d", cls);
  int src, dst;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Error_class(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &src, &dst), &cls);
  CHECK(cls == MPI_ERR_TOPOLOGY, "shift on world: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

  /* Shifts: dimension 0 periodic, dimension 1 not. */
  int row = rank / 3, col = rank % 3;
  MPI_Cart_shift(cart, 0, 1, &src, &dst);
  CHECK(src == ((row + 3) % 4) * 3 + col && dst == ((row + 1) % 4) * 3 + col, "shift 0 +1: %d %d", src, dst);
  MPI_Cart_shift(cart, 0, -5, &src, &dst);
  CHECK(src == ((row + 1) % 4) * 3 + col && dst == ((row + 3) % 4) * 3 + col, "shift 0 -5: %d %d", src, dst);
  MPI_Cart_shift(cart, 1, 1, &src, &dst);
  CHECK(src == (col == 0 ? MPI_PROC_NULL : rank - 1) && dst == (col == 2 ? MPI_PROC_NULL : rank + 1),
        "shift 1 +1: %d %d", src, dst);
  MPI_Cart_shift(cart, 1, 2, &src, &dst);
  CHECK(src == (col == 2 ? rank - 2 : MPI_PROC_NULL) && dst == (col == 0 ? rank + 2 : MPI_PROC_NULL),
        "shift 1 +2: %d %d", src, dst);
  MPI_Cart_shift(cart, 1, 0, &src, &dst);
  CHECK(src == rank && dst == rank, "shift 1 0: %d %d", src, dst);

  /* Rows (keep dimension 1) and columns (keep dimension 0). */
  int keep_row[2] = {0, 1}, keep_col[2] = {1, 0};
  MPI_Comm rows, cols;
  MPI_Cart_sub(cart, keep_row, &rows);
  MPI_Cart_sub(cart, keep_col, &cols);
  int size = -1, sr = -1, sum = 0;
  MPI_Comm_size(rows, &size);
  MPI_Comm_rank(rows, &sr);
  CHECK(size == 3 && sr == col, "row: size %d rank %d", size, sr);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, rows);
  CHECK(sum == 3 * row * 3 + 3, "row members sum %d", sum);
  MPI_Cart_get(rows, 1, gd, gp, gc);
  CHECK(gd[0] == 3 && gp[0] == 0 && gc[0] == col, "row grid %d %d %d", gd[0], gp[0], gc[0]);
  MPI_Comm_size(cols, &size);
  MPI_Comm_rank(cols, &sr);
  CHECK(size == 4 && sr == row, "column: size %d rank %d", size, sr);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, cols);
  CHECK(sum == 4 * col + 18, "column members sum %d", sum);
  MPI_Cart_shift(cols, 0, 1, &src, &dst);
  CHECK(src == (row + 3) % 4 && dst == (row + 1) % 4, "column shift %d %d", src, dst);

  /* No dimension kept: zero-dimensional, one process. */
  int none[2] = {0, 0};
  MPI_Comm point;
  MPI_Cart_sub(cart, none, &point);
  if (rank == 0) {
    int result = -1;
    MPI_Comm_compare(point, MPI_COMM_SELF, &result);
    CHECK(result == MPI_CONGRUENT, "zero-dimensional sub: compare %d", result);
    MPI_Cartdim_get(point, &ndims);
    CHECK(ndims == 0, "zero-dimensional sub: ndims %d", ndims);
    MPI_Comm_free(&point);
  } else {
    CHECK(point == MPI_COMM_NULL, "zero-dimensional sub on rank %d", rank);
  }

  /* A duplicate keeps the topology. */
  MPI_Comm dup;
  MPI_Comm_dup(cart, &dup);
  MPI_Topo_test(dup, &kind);
  MPI_Cart_get(dup, 2, gd, gp, gc);
  CHECK(kind == MPI_CART && gd[0] == 4 && gd[1] == 3 && gp[0] == 1 && gc[1] == col, "dup: kind %d", kind);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&rows);
  MPI_Comm_free(&cols);
  MPI_Comm_free(&cart);
}

static void smaller_grid(int rank)
{
  int dims[2] = {5, 2}, periods[2] = {0, 0}, newrank = -2;
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &newrank);
  if (rank < 10) {
    int size = -1;
    CHECK(cart != MPI_COMM_NULL, "member %d got MPI_COMM_NULL", rank);
    MPI_Comm_size(cart, &size);
    CHECK(size == 10, "grid size %d", size);
    CHECK(newrank == rank, "cart_map %d", newrank);
    MPI_Barrier(cart);
    MPI_Comm_free(&cart);
  } else {
    CHECK(cart == MPI_COMM_NULL, "rank %d beyond the grid got a communicator", rank);
    CHECK(newrank == MPI_UNDEFINED, "cart_map beyond the grid %d", newrank);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int toobig[2] = {5, 3}, cls = -1;
  MPI_Error_class(MPI_Cart_create(MPI_COMM_WORLD, 2, toobig, periods, 0, &cart), &cls);
  CHECK(cls == MPI_ERR_DIMS, "15-process grid on 12: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 12, "needs 12 ranks, has %d", size);
  dims_create();
  grid(rank);
  smaller_grid(rank);
  finish("topo_cart");
  MPI_Finalize();
  return 0;
}

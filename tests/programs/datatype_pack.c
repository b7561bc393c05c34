/* MPI_Pack / MPI_Unpack round trips, packed messages between ranks in
 * both directions, the external32 representation and pack errors
 * (MPI-4.1 §5.2). Run with 2 ranks. */
#include "check.h"

#include <string.h>

static void round_trip(void)
{
  MPI_Datatype vec, st;
  MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &vec);
  MPI_Type_commit(&vec);
  int lens[2] = {2, 1};
  MPI_Aint disps[2] = {0, 16};
  MPI_Datatype types[2] = {MPI_SHORT, MPI_LONG_LONG};
  MPI_Type_create_struct(2, lens, disps, types, &st);
  MPI_Type_commit(&st);

  int s1, s2, s3;
  MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &s1);
  MPI_Pack_size(2, vec, MPI_COMM_WORLD, &s2);
  MPI_Pack_size(1, st, MPI_COMM_WORLD, &s3);
  CHECK(s1 == 4 && s2 == 48 && s3 == 12, "pack sizes %d %d %d", s1, s2, s3);

  int n = 7;
  double d[12];
  for (int i = 0; i < 12; ++i)
    d[i] = i * 1.5;
  char sbuf[32];
  memset(sbuf, 0, sizeof sbuf);
  short* sh = (short*)sbuf;
  sh[0] = -3;
  sh[1] = 4;
  long long big = 1LL << 40;
  memcpy(sbuf + 16, &big, sizeof big);

  char packed[128];
  int position = 0;
  MPI_Pack(&n, 1, MPI_INT, packed, sizeof packed, &position, MPI_COMM_WORLD);
  MPI_Pack(d, 2, vec, packed, sizeof packed, &position, MPI_COMM_WORLD);
  MPI_Pack(sbuf, 1, st, packed, sizeof packed, &position, MPI_COMM_WORLD);
  CHECK(position == s1 + s2 + s3, "position %d", position);

  int n2 = 0;
  double d2[12];
  for (int i = 0; i < 12; ++i)
    d2[i] = -1;
  char rbuf[32];
  memset(rbuf, 0, sizeof rbuf);
  int pos2 = 0;
  MPI_Unpack(packed, position, &pos2, &n2, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Unpack(packed, position, &pos2, d2, 2, vec, MPI_COMM_WORLD);
  MPI_Unpack(packed, position, &pos2, rbuf, 1, st, MPI_COMM_WORLD);
  CHECK(pos2 == position, "unpack position %d", pos2);
  CHECK(n2 == 7, "n2 %d", n2);
  /* vec of 2 items: extent 5 doubles, item 1 at d[5]: elements 0 2 4 5 7 9 */
  for (int i = 0; i < 12; ++i) {
    int in = i == 0 || i == 2 || i == 4 || i == 5 || i == 7 || i == 9;
    CHECK(d2[i] == (in ? d[i] : -1), "d2[%d] = %g", i, d2[i]);
  }
  CHECK(memcmp(rbuf, sbuf, 4) == 0 && memcmp(rbuf + 16, sbuf + 16, 8) == 0, "struct unpacked differently");

  /* errors: the output buffer is too small; position is unchanged */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int p = 0, cls;
  int err = MPI_Pack(d, 2, vec, packed, 40, &p, MPI_COMM_WORLD);
  MPI_Error_class(err, &cls);
  CHECK(err != MPI_SUCCESS && cls == MPI_ERR_TRUNCATE && p == 0, "pack too small: err %d class %d p %d", err, cls,
        p);
  p = 0;
  err = MPI_Unpack(packed, 10, &p, d2, 2, vec, MPI_COMM_WORLD);
  MPI_Error_class(err, &cls);
  CHECK(err != MPI_SUCCESS && cls == MPI_ERR_TRUNCATE && p == 0, "unpack too short: class %d p %d", cls, p);
  MPI_Datatype uncommitted;
  MPI_Type_contiguous(2, MPI_INT, &uncommitted);
  p = 0;
  err = MPI_Pack(&n, 1, uncommitted, packed, sizeof packed, &p, MPI_COMM_WORLD);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_TYPE, "pack with an uncommitted type: class %d", cls);
  err = MPI_Pack(&n, 1, MPI_INT, packed, sizeof packed, &p, MPI_COMM_NULL);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_COMM, "pack on MPI_COMM_NULL: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Type_free(&uncommitted);
  MPI_Type_free(&vec);
  MPI_Type_free(&st);
}

static void external32(void)
{
  int v = 0x01020304;
  double one = 1.0;
  unsigned char buf[16];
  MPI_Aint pos = 0, size;
  MPI_Pack_external_size("external32", 1, MPI_INT, &size);
  CHECK(size == 4, "external32 size of MPI_INT %ld", (long)size);
  MPI_Pack_external("external32", &v, 1, MPI_INT, buf, sizeof buf, &pos);
  MPI_Pack_external("external32", &one, 1, MPI_DOUBLE, buf, sizeof buf, &pos);
  CHECK(pos == 12, "external32 position %ld", (long)pos);
  CHECK(buf[0] == 1 && buf[1] == 2 && buf[2] == 3 && buf[3] == 4, "int not big-endian: %02x %02x %02x %02x", buf[0],
        buf[1], buf[2], buf[3]);
  CHECK(buf[4] == 0x3f && buf[5] == 0xf0 && buf[11] == 0, "double not big-endian: %02x %02x", buf[4], buf[5]);
  int v2 = 0;
  double one2 = 0;
  MPI_Aint upos = 0;
  MPI_Unpack_external("external32", buf, pos, &upos, &v2, 1, MPI_INT);
  MPI_Unpack_external("external32", buf, pos, &upos, &one2, 1, MPI_DOUBLE);
  CHECK(v2 == v && one2 == 1.0 && upos == 12, "external32 round trip %x %g", v2, one2);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int cls, err = MPI_Pack_external("native", &v, 1, MPI_INT, buf, sizeof buf, &upos);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_ARG, "datarep \"native\": class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Packed data is the message format: typed send -> MPI_PACKED receive and
 * MPI_PACKED send -> typed receive. */
static void packed_messages(int rank)
{
  MPI_Datatype vec;
  MPI_Type_vector(4, 1, 3, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  if (rank == 0) {
    int a[12];
    for (int i = 0; i < 12; ++i)
      a[i] = i;
    MPI_Send(a, 1, vec, 1, 0, MPI_COMM_WORLD);
    char packed[64];
    int pos = 0, count = 4;
    MPI_Pack(&count, 1, MPI_INT, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    MPI_Pack(a, 1, vec, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    MPI_Send(packed, pos, MPI_PACKED, 1, 1, MPI_COMM_WORLD);
  } else {
    char packed[64];
    MPI_Status st;
    MPI_Recv(packed, sizeof packed, MPI_PACKED, 0, 0, MPI_COMM_WORLD, &st);
    int bytes;
    MPI_Get_count(&st, MPI_PACKED, &bytes);
    CHECK(bytes == 16, "packed bytes %d", bytes);
    int c[4], pos = 0;
    MPI_Unpack(packed, bytes, &pos, c, 4, MPI_INT, MPI_COMM_WORLD);
    CHECK(c[0] == 0 && c[1] == 3 && c[2] == 6 && c[3] == 9, "unpacked %d %d %d %d", c[0], c[1], c[2], c[3]);
    int r[5];
    MPI_Recv(r, 5, MPI_INT, 0, 1, MPI_COMM_WORLD, &st);
    CHECK(r[0] == 4 && r[1] == 0 && r[2] == 3 && r[3] == 6 && r[4] == 9, "received %d %d %d %d %d", r[0], r[1], r[2],
          r[3], r[4]);
  }
  MPI_Type_free(&vec);
}

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  round_trip();
  external32();
  packed_messages(rank);
  finish("datatype_pack");
  MPI_Finalize();
  return 0;
}

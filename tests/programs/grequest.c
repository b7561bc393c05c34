/* Generalized requests (MPI-4.1 §13.2): the status comes from query_fn,
 * free_fn runs once (at completion of a wait, or at MPI_Grequest_complete
 * of a freed request), cancel_fn gets the completion flag. With argument
 * "deadlock", the rank waits on a request it never completes. */
#include "check.h"

#include <string.h>

static int queries, frees, cancels, last_complete_flag = -1;

static int query_fn(void* extra, MPI_Status* status)
{
  ++queries;
  MPI_Status_set_elements(status, MPI_BYTE, 12);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = *(int*)extra;
  status->MPI_TAG = 77;
  return MPI_SUCCESS;
}

static int free_fn(void* extra)
{
  (void)extra;
  ++frees;
  return MPI_SUCCESS;
}

static int cancel_fn(void* extra, int complete)
{
  (void)extra;
  ++cancels;
  last_complete_flag = complete;
  return MPI_SUCCESS;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int source = 5;
  MPI_Request r;
  if (argc > 1 && strcmp(argv[1], "deadlock") == 0) {
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &source, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }

  MPI_Grequest_start(query_fn, free_fn, cancel_fn, &source, &r);
  int flag = 1;
  MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  CHECK(flag == 0 && r != MPI_REQUEST_NULL, "test before completion: flag %d", flag);
  MPI_Cancel(&r);
  CHECK(cancels == 1 && last_complete_flag == 0, "cancel before completion: %d %d", cancels, last_complete_flag);
  MPI_Grequest_complete(r);
  MPI_Status st;
  MPI_Wait(&r, &st);
  int count = -1;
  MPI_Get_count(&st, MPI_BYTE, &count);
  CHECK(r == MPI_REQUEST_NULL, "the handle is released");
  CHECK(st.MPI_SOURCE == 5 && st.MPI_TAG == 77 && count == 12, "status from query_fn: %d %d %d", st.MPI_SOURCE,
        st.MPI_TAG, count);
  CHECK(queries == 1 && frees == 1, "query %d free %d after the wait", queries, frees);

  /* freed before completion: free_fn runs at MPI_Grequest_complete */
  MPI_Request keep;
  MPI_Grequest_start(query_fn, free_fn, cancel_fn, &source, &r);
  keep = r;
  MPI_Request_free(&r);
  CHECK(r == MPI_REQUEST_NULL && frees == 1, "free before completion defers free_fn (%d)", frees);
  MPI_Grequest_complete(keep);
  CHECK(frees == 2 && queries == 1, "free_fn at completion of a freed request: free %d query %d", frees, queries);

  /* several at once, MPI_Waitall with ignored statuses still queries */
  MPI_Request rs[3];
  for (int i = 0; i < 3; ++i)
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &source, &rs[i]);
  for (int i = 2; i >= 0; --i)
    MPI_Grequest_complete(rs[i]);
  MPI_Waitall(3, rs, MPI_STATUSES_IGNORE);
  CHECK(queries == 4 && frees == 5, "waitall: query %d free %d", queries, frees);
  finish("grequest");
  MPI_Finalize();
  return 0;
}

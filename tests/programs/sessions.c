/* The Sessions Model (MPI-4.1 §11.3), one scenario per argument:
 *   ring           no MPI_Init: a session, mpi://WORLD, MPI_Comm_create_from_group,
 *                  a ring of small and of 1 MiB messages, MPI_Session_finalize
 *   two            two sessions at once: mpi://WORLD and this host's process set
 *   intercomm      MPI_Intercomm_create_from_groups between the process sets
 *                  of hosts node-0 and node-1
 *   mixed          MPI_Init + a session; the session outlives MPI_Finalize
 *   psets          the process set queries and MPI_Session_get_info
 *   errors_return  errors returned (MPI_ERRORS_RETURN) or given to a user
 *                  session error handler
 *   unknown_pset   an unknown process set name, fatal (MPI_ERRORS_ARE_FATAL)
 *   after_finalize a session handle used after MPI_Session_finalize
 *   world_comm     MPI_COMM_WORLD used without MPI_Init
 *   no_finalize    returns from main with a session open
 *   finalize_order two sessions finalized in opposite orders on ranks 0 and 1
 *                  with their communicators not freed (MPI-4.1 §11.3.1)
 *   finalize_wait  rank 1 sleeps 1 s before MPI_Session_finalize; the
 *                  communicator is not freed: a synchronizing finalization
 *                  of rank 0 returns when rank 1 arrives
 *   bsend          MPI_Session_finalize must deliver a buffered send */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static MPI_Comm comm_from_pset(MPI_Session session, const char* pset, const char* tag)
{
  MPI_Group group;
  MPI_Comm comm;
  MPI_Group_from_session_pset(session, pset, &group);
  MPI_Comm_create_from_group(group, tag, MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &comm);
  MPI_Group_free(&group);
  return comm;
}

static void ring(MPI_Comm comm, const char* label)
{
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int token = 100 + rank, got = -1;
  MPI_Sendrecv(&token, 1, MPI_INT, right, 0, &got, 1, MPI_INT, left, 0, comm, MPI_STATUS_IGNORE);
  /* 1 MiB: the rendezvous protocol, whose steps each policy runs its way. */
  const int n = 1 << 18;
  int* out = malloc(n * sizeof(int));
  int* in = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    out[i] = rank * n + i;
  MPI_Request reqs[2];
  MPI_Irecv(in, n, MPI_INT, left, 1, comm, &reqs[0]);
  MPI_Isend(out, n, MPI_INT, right, 1, comm, &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  int ok = 1;
  for (int i = 0; i < n; ++i)
    ok &= in[i] == left * n + i;
  printf("%s rank %d of %d: token %d from rank %d, 1 MiB from rank %d %s\n", label, rank, size, got, left, left,
         ok ? "correct" : "WRONG");
  free(out);
  free(in);
}

static void scenario_ring(void)
{
  MPI_Session session;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
  MPI_Comm comm = comm_from_pset(session, "mpi://WORLD", "org.progsim.test.ring");
  ring(comm, "ring");
  int initialized, finalized;
  MPI_Initialized(&initialized);
  MPI_Comm_free(&comm);
  MPI_Session_finalize(&session);
  MPI_Finalized(&finalized);
  printf("initialized=%d finalized=%d session=%s\n", initialized, finalized,
         session == MPI_SESSION_NULL ? "MPI_SESSION_NULL" : "still set");
}

static void scenario_two(void)
{
  MPI_Session world_session, host_session;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &world_session);
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &host_session);
  char host[MPI_MAX_PROCESSOR_NAME], pset[MPI_MAX_PSET_NAME_LEN];
  int len;
  MPI_Get_processor_name(host, &len);
  snprintf(pset, sizeof pset, "progsim://host/%s", host);
  MPI_Comm world = comm_from_pset(world_session, "mpi://WORLD", "org.progsim.test.world");
  MPI_Comm local = comm_from_pset(host_session, pset, "org.progsim.test.host");
  int rank, one = 1, world_sum = 0, host_sum = 0, host_rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_rank(local, &host_rank);
  /* Both communicators at once: nonblocking on one, blocking on the other. */
  MPI_Request req;
  MPI_Iallreduce(&one, &world_sum, 1, MPI_INT, MPI_SUM, world, &req);
  MPI_Allreduce(&one, &host_sum, 1, MPI_INT, MPI_SUM, local);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  printf("two rank %d: %s has %d processes (I am %d), mpi://WORLD %d\n", rank, pset, host_sum, host_rank, world_sum);
  MPI_Comm_free(&local);
  MPI_Session_finalize(&host_session);
  ring(world, "two");  /* the other session still works */
  MPI_Comm_free(&world);
  MPI_Session_finalize(&world_session);
}

static void scenario_intercomm(void)
{
  MPI_Session session;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
  char host[MPI_MAX_PROCESSOR_NAME];
  int len;
  MPI_Get_processor_name(host, &len);
  int on_node0 = !strcmp(host, "node-0");
  MPI_Group node0, node1;
  MPI_Group_from_session_pset(session, "progsim://host/node-0", &node0);
  MPI_Group_from_session_pset(session, "progsim://host/node-1", &node1);
  MPI_Comm inter;
  MPI_Intercomm_create_from_groups(on_node0 ? node0 : node1, 0, on_node0 ? node1 : node0, 0,
                                   "org.progsim.test.inter", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &inter);
  MPI_Group_free(&node0);
  MPI_Group_free(&node1);
  int rank, remote_size, sum = 0;
  MPI_Comm_rank(inter, &rank);
  MPI_Comm_remote_size(inter, &remote_size);
  int mine = on_node0 ? 1 : 10;
  /* Each side gets the sum over the other side. */
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter);
  printf("intercomm %s rank %d: remote size %d, remote sum %d\n", host, rank, remote_size, sum);
  MPI_Comm_free(&inter);
  MPI_Session_finalize(&session);
}

static void scenario_mixed(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Session session;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
  MPI_Comm comm = comm_from_pset(session, "mpi://WORLD", "org.progsim.test.mixed");
  int cmp, rank, sum = 0;
  MPI_Comm_compare(comm, MPI_COMM_WORLD, &cmp);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
  printf("mixed rank %d: compare with MPI_COMM_WORLD %s, sum of ranks %d\n", rank,
         cmp == MPI_CONGRUENT ? "MPI_CONGRUENT" : "other", sum);
  MPI_Finalize();
  /* The session outlives the World Model (MPI-4.1 §11.4.1). */
  ring(comm, "after MPI_Finalize");
  MPI_Comm_free(&comm);
  MPI_Session_finalize(&session);
}

static void scenario_psets(void)
{
  MPI_Info info;
  MPI_Info_create(&info); /* before any initialization: allowed (MPI-4.1 §11.4.1) */
  MPI_Info_set(info, "thread_level", "MPI_THREAD_MULTIPLE");
  MPI_Session session;
  MPI_Session_init(info, MPI_ERRORS_ARE_FATAL, &session);
  MPI_Info_free(&info);
  int rank = -1, n = 0;
  MPI_Comm self = comm_from_pset(session, "mpi://self", "org.progsim.test.self");
  MPI_Group world_group;
  MPI_Group_from_session_pset(session, "mpi://WORLD", &world_group);
  MPI_Group_rank(world_group, &rank);
  MPI_Group_free(&world_group);
  MPI_Session_get_num_psets(session, MPI_INFO_NULL, &n);
  for (int i = 0; i < n; ++i) {
    int len = 0;
    MPI_Session_get_nth_pset(session, MPI_INFO_NULL, i, &len, NULL);
    char* name = malloc((size_t)len);
    MPI_Session_get_nth_pset(session, MPI_INFO_NULL, i, &len, name);
    MPI_Info pinfo;
    MPI_Session_get_pset_info(session, name, &pinfo);
    char size[32];
    int flag = 0;
    MPI_Info_get(pinfo, "mpi_size", sizeof size - 1, size, &flag);
    MPI_Info_free(&pinfo);
    printf("psets rank %d: %d of %d: %s (length %d) mpi_size=%s\n", rank, i, n, name, len, flag ? size : "?");
    free(name);
  }
  char small[6];
  int len = sizeof small;
  MPI_Session_get_nth_pset(session, MPI_INFO_NULL, 0, &len, small);
  MPI_Info used;
  char level[64];
  int flag = 0;
  MPI_Session_get_info(session, &used);
  MPI_Info_get(used, "thread_level", sizeof level - 1, level, &flag);
  MPI_Info_free(&used);
  int self_size;
  MPI_Comm_size(self, &self_size);
  printf("psets rank %d: truncated '%s' length %d, thread_level %s, mpi://self size %d\n", rank, small, len, level,
         self_size);
  MPI_Comm_free(&self);
  MPI_Session_finalize(&session);
}

static void session_handler(MPI_Session* session, int* code, ...)
{
  (void)session;
  char text[MPI_MAX_ERROR_STRING];
  int len;
  MPI_Error_string(*code, text, &len);
  printf("session error handler called: %s\n", text);
}

static void scenario_errors_return(void)
{
  MPI_Session session;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session);
  MPI_Group group;
  int rc = MPI_Group_from_session_pset(session, "mpi://NOWHERE", &group);
  int cls;
  MPI_Error_class(rc, &cls);
  printf("unknown pset returned %s\n", cls == MPI_ERR_ARG ? "MPI_ERR_ARG" : "another class");
  int n;
  rc = MPI_Session_get_nth_pset(session, MPI_INFO_NULL, 99, &n, NULL);
  printf("pset 99 returned %s\n", rc == MPI_ERR_ARG ? "MPI_ERR_ARG" : "another code");
  MPI_Errhandler handler, current;
  MPI_Session_create_errhandler(session_handler, &handler);
  MPI_Session_set_errhandler(session, handler);
  MPI_Session_get_errhandler(session, &current);
  printf("get_errhandler %s\n", current == handler ? "gives the handler set" : "differs");
  MPI_Session_call_errhandler(session, MPI_ERR_OTHER);
  MPI_Session_finalize(&session);
}

static void scenario_unknown_pset(void)
{
  MPI_Session session;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
  MPI_Group group;
  MPI_Group_from_session_pset(session, "mpi://NOWHERE", &group);
  printf("not reached\n");
}

static void scenario_after_finalize(void)
{
  MPI_Session session, copy;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session);
  copy = session;
  MPI_Session_finalize(&session);
  int n;
  MPI_Session_get_num_psets(copy, MPI_INFO_NULL, &n);
  printf("not reached\n");
}

/* A communicator derived from a session's communicator belongs to that
 * session too (MPI-4.1 §11.3): using it after MPI_Session_finalize is an error. */
static void scenario_dup_after_finalize(void)
{
  MPI_Session session, other; /* `other` keeps MPI usable */
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &other);
  MPI_Comm comm = comm_from_pset(session, "mpi://WORLD", "org.progsim.test.dup");
  MPI_Comm dup;
  MPI_Comm_dup(comm, &dup);
  MPI_Comm_free(&comm);
  MPI_Session_finalize(&session);
  int rank;
  MPI_Comm_rank(dup, &rank);
  printf("not reached\n");
}

static void scenario_world_comm(void)
{
  MPI_Session session;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("not reached\n");
}

static void scenario_no_finalize(void)
{
  MPI_Session session;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
}

static void scenario_finalize_order(void)
{
  MPI_Session a, b;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &a);
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &b);
  MPI_Comm comm_a = comm_from_pset(a, "mpi://WORLD", "org.progsim.test.a");
  MPI_Comm comm_b = comm_from_pset(b, "mpi://WORLD", "org.progsim.test.b");
  int rank;
  MPI_Comm_rank(comm_a, &rank);
  MPI_Barrier(comm_a);
  MPI_Barrier(comm_b);
  /* Neither communicator is freed: a synchronizing MPI_Session_finalize
   * waits on both groups. */
  if (rank == 0) {
    MPI_Session_finalize(&a);
    MPI_Session_finalize(&b);
  } else {
    MPI_Session_finalize(&b);
    MPI_Session_finalize(&a);
  }
  printf("finalize_order rank %d: both sessions finalized\n", rank);
}

static void scenario_finalize_wait(void)
{
  MPI_Session session;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
  MPI_Comm comm = comm_from_pset(session, "mpi://WORLD", "org.progsim.test.wait");
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 1)
    sleep(1);
  MPI_Session_finalize(&session);
  printf("finalize_wait rank %d: MPI_Session_finalize returned at %.4f\n", rank, MPI_Wtime());
}

static void scenario_bsend(void)
{
  MPI_Session session;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
  MPI_Comm comm = comm_from_pset(session, "mpi://WORLD", "org.progsim.test.bsend");
  int rank;
  MPI_Comm_rank(comm, &rank);
  const int n = 1 << 18; /* 1 MiB: rendezvous from the attached buffer */
  int* data = malloc(n * sizeof(int));
  if (rank == 0) {
    int size = n * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    void* buffer = malloc((size_t)size);
    MPI_Buffer_attach(buffer, size);
    for (int i = 0; i < n; ++i)
      data[i] = i;
    MPI_Bsend(data, n, MPI_INT, 1, 0, comm);
    /* Its data still waits for rank 1's receive: MPI_Session_finalize must
     * see it delivered (the finalizations' progress rule). */
    MPI_Comm_free(&comm);
    MPI_Session_finalize(&session);
    printf("bsend rank 0: MPI_Session_finalize returned at %.4f\n", MPI_Wtime());
  } else if (rank == 1) {
    sleep(1);
    MPI_Recv(data, n, MPI_INT, 0, 0, comm, MPI_STATUS_IGNORE);
    printf("bsend rank 1: received %s at %.4f\n", data[n - 1] == n - 1 ? "correct data" : "WRONG data", MPI_Wtime());
    MPI_Comm_free(&comm);
    MPI_Session_finalize(&session);
  }
  free(data);
}

int main(int argc, char** argv)
{
  const char* what = argc > 1 ? argv[1] : "ring";
  if (!strcmp(what, "ring"))
    scenario_ring();
  else if (!strcmp(what, "two"))
    scenario_two();
  else if (!strcmp(what, "intercomm"))
    scenario_intercomm();
  else if (!strcmp(what, "mixed"))
    scenario_mixed(argc, argv);
  else if (!strcmp(what, "psets"))
    scenario_psets();
  else if (!strcmp(what, "errors_return"))
    scenario_errors_return();
  else if (!strcmp(what, "unknown_pset"))
    scenario_unknown_pset();
  else if (!strcmp(what, "after_finalize"))
    scenario_after_finalize();
  else if (!strcmp(what, "dup_after_finalize"))
    scenario_dup_after_finalize();
  else if (!strcmp(what, "world_comm"))
    scenario_world_comm();
  else if (!strcmp(what, "no_finalize"))
    scenario_no_finalize();
  else if (!strcmp(what, "finalize_order"))
    scenario_finalize_order();
  else if (!strcmp(what, "finalize_wait"))
    scenario_finalize_wait();
  else if (!strcmp(what, "bsend"))
    scenario_bsend();
  return 0;
}

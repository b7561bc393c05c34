/* Two libraries, each with its own session (MPI-4.1 §11.3), finalized in
 * opposite orders on the two processes, their communicators never freed.
 * No MPI_Init: the program uses only the Sessions Model.
 *
 * MPI_Session_finalize "may be synchronizing on any or all of the groups
 * associated with communicators [...] derived from the session and not
 * disconnected, freed, or closed" (§11.3.1). If it synchronizes, rank 0
 * waits in the finalization of session "solver" for rank 1, which waits in
 * the finalization of session "io" for rank 0: a deadlock. If it does not,
 * the program completes. Run it with --cfg session-finalize-sync=collective
 * or =local. */
#include <mpi.h>
#include <stdio.h>

/* A library's start-up: its own session and a communicator over all
 * processes, from the process set mpi://WORLD. */
static MPI_Comm library_init(MPI_Session* session, const char* tag)
{
  MPI_Group group;
  MPI_Comm comm;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, session);
  MPI_Group_from_session_pset(*session, "mpi://WORLD", &group);
  MPI_Comm_create_from_group(group, tag, MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &comm);
  MPI_Group_free(&group);
  return comm;
}

int main(void)
{
  MPI_Session solver, io;
  MPI_Comm solver_comm = library_init(&solver, "org.example.solver");
  MPI_Comm io_comm = library_init(&io, "org.example.io");
  int rank, sum = 0;
  MPI_Comm_rank(solver_comm, &rank);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, solver_comm);
  MPI_Barrier(io_comm);
  printf("rank %d: solver sum %d\n", rank, sum);
  /* Each library shuts down on its own, without MPI_Comm_free: the order
   * differs between the processes. */
  if (rank == 0) {
    MPI_Session_finalize(&solver);
    MPI_Session_finalize(&io);
  } else {
    MPI_Session_finalize(&io);
    MPI_Session_finalize(&solver);
  }
  printf("rank %d: both sessions finalized\n", rank);
  return 0;
}

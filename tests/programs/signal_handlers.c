/* A rank that changes signal dispositions or the signal mask. progsim's
 * handlers (crash report, memory watching, interruption, watchdog) stay
 * in place; the program's dispositions for those signals are given back to
 * it but not installed. Two ranks, run with --privatize=off; argv[1]:
 *   ignore        rank 1 ignores SIGSEGV, then stores through NULL
 *   handler       rank 1 installs a SIGSEGV handler that calls _exit(9), then
 *                 stores through NULL: the crash is reported, the handler
 *                 is not called
 *   block         rank 1 blocks every signal, then stores through NULL
 *   usr1_default  rank 1 installs a SIGUSR1 handler, sets SIG_DFL back and
 *                 raises SIGUSR1: the default action, reported as a crash
 *   kept          the correct twin: rank 1 reads its SIGSEGV handler back,
 *                 a SIGUSR1 handler runs, blocking every signal then
 *                 unblocking works; rank 0, with a SIGSEGV handler of its
 *                 own, polls watched memory that rank 1 sets after sleep(2) */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

volatile int flag;
static volatile sig_atomic_t usr1_seen;

static void exit_9(int sig)
{
  (void)sig;
  _exit(9);
}

static void note_usr1(int sig)
{
  (void)sig;
  usr1_seen = 1;
}

static void store_through_null(void)
{
  volatile int *volatile nowhere = NULL;
  *nowhere = 1; /* the faulting line */
}

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "kept";
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1 && !strcmp(mode, "ignore")) {
    signal(SIGSEGV, SIG_IGN);
    store_through_null();
  } else if (rank == 1 && !strcmp(mode, "handler")) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = exit_9;
    sigaction(SIGSEGV, &action, NULL);
    store_through_null();
  } else if (rank == 1 && !strcmp(mode, "block")) {
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, NULL);
    store_through_null();
  } else if (rank == 1 && !strcmp(mode, "usr1_default")) {
    signal(SIGUSR1, note_usr1);
    signal(SIGUSR1, SIG_DFL);
    raise(SIGUSR1);
  } else if (!strcmp(mode, "kept")) {
    if (rank == 0) {
      signal(SIGSEGV, exit_9);
      progsim_watch_memory((void *)&flag, sizeof flag, "flag");
      MPI_Barrier(MPI_COMM_WORLD);
      while (flag == 0)
        ;
      printf("rank 0: flag seen at %.4f\n", MPI_Wtime());
      progsim_unwatch_memory((void *)&flag);
    } else if (rank == 1) {
      struct sigaction old;
      signal(SIGSEGV, exit_9);
      sigaction(SIGSEGV, NULL, &old);
      int kept = old.sa_handler == exit_9 && signal(SIGSEGV, SIG_DFL) == exit_9 && signal(SIGSEGV, SIG_DFL) == SIG_DFL;
      signal(SIGUSR1, note_usr1);
      raise(SIGUSR1);
      sigset_t all, before;
      sigfillset(&all);
      sigprocmask(SIG_BLOCK, &all, &before);
      sigprocmask(SIG_SETMASK, &before, NULL);
      printf("rank 1: handler given back: %s, SIGUSR1 handled: %s\n", kept ? "yes" : "no", usr1_seen ? "yes" : "no");
      MPI_Barrier(MPI_COMM_WORLD);
      sleep(2);
      flag = 1;
    }
  }
  MPI_Finalize();
  return 0;
}

/* Linked into every program built with progsim-cc / progsim-cxx: running the
 * program directly (./a.out, as autoconf's configure runs ./conftest) runs it
 * as a one-rank progsim run.
 *
 * The program is a shared object that `progsim run` loads once per rank. The
 * wrappers make it runnable too: this object gives it a program interpreter
 * (.interp) and progsim-cc sets its entry point (-Wl,-e) to
 * progsim_program_entry. The dynamic loader then loads libprogsim and the C
 * library, runs their initialization and jumps here, where the program runs
 * `progsim run -n 1 --report TMP PROGRAM ARGS...`, progsim being found next
 * to libprogsim (lib/../bin/progsim, as in the build and install trees), else
 * in PATH. The exit status is the program's own when the run completed (as
 * when it runs natively: configure tests rely on it), else progsim's (crash,
 * abort...). If progsim cannot be found, a message says how to run the
 * program and the exit status is 2; never a crash. */
#if defined(__x86_64__) && defined(__linux__)

#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The interpreter of every x86-64 Linux program (the ABI fixes the path). */
__attribute__((section(".interp"), used)) static const char program_interpreter[] = "/lib64/ld-linux-x86-64.so.2";

/* A procedure of libprogsim: where it is loaded from locates progsim. */
extern int PMPI_Initialized(int* flag);

/* "DIR/../bin/progsim" for libprogsim in DIR, or "" when dladdr fails. */
static void launcher_next_to_library(char* path, size_t size)
{
  Dl_info info;
  path[0] = '\0';
  if (dladdr((void*)&PMPI_Initialized, &info) == 0 || !info.dli_fname)
    return;
  const char* slash = strrchr(info.dli_fname, '/');
  if (!slash)
    return;
  snprintf(path, size, "%.*s/../bin/progsim", (int)(slash - info.dli_fname), info.dli_fname);
}

/* Runs progsim with `run_argv` in a child; returns its wait status, or -1
 * with errno set when it could not be executed at all. */
static int run_launcher(char** run_argv)
{
  int report_exec_error[2];
  if (pipe2(report_exec_error, O_CLOEXEC) != 0)
    return -1;
  pid_t child = fork();
  if (child < 0)
    return -1;
  if (child == 0) {
    char launcher[PATH_MAX + 32];
    launcher_next_to_library(launcher, sizeof launcher);
    if (launcher[0] && access(launcher, X_OK) == 0)
      execv(launcher, run_argv);
    execvp("progsim", run_argv);
    int error = errno;
    (void)!write(report_exec_error[1], &error, sizeof error);
    _exit(127);
  }
  close(report_exec_error[1]);
  int error = 0;
  ssize_t got = read(report_exec_error[0], &error, sizeof error); /* 0 bytes: the exec succeeded */
  close(report_exec_error[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR)
    ;
  if (got == (ssize_t)sizeof error) {
    errno = error;
    return -1;
  }
  return status;
}

/* The exit code of rank 0 in the report ("exit_code": N), or -1. */
static int rank_exit_code(const char* report)
{
  FILE* in = fopen(report, "r");
  if (!in)
    return -1;
  char line[4096];
  int code = -1;
  while (code < 0 && fgets(line, sizeof line, in)) {
    const char* field = strstr(line, "\"exit_code\": ");
    if (field)
      code = atoi(field + strlen("\"exit_code\": ")) & 0xff;
  }
  fclose(in);
  return code;
}

__attribute__((noreturn, visibility("hidden"), used)) void progsim_run_directly(long* initial_stack)
{
  /* The kernel's initial stack: argc, then argv (null-terminated). */
  int argc = (int)initial_stack[0];
  char** argv = (char**)(initial_stack + 1);
  char self[PATH_MAX];
  ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0)
    snprintf(self, sizeof self, "%s", argc > 0 ? argv[0] : "PROGRAM");
  else
    self[length] = '\0';

  const char* tmp = getenv("TMPDIR");
  char report[PATH_MAX];
  snprintf(report, sizeof report, "%s/progsim-direct-XXXXXX.json", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemps(report, 5);
  if (fd >= 0)
    close(fd);
  char** run_argv = calloc((size_t)argc + 8, sizeof *run_argv);
  int status = -1;
  if (run_argv && fd >= 0) {
    int n = 0;
    run_argv[n++] = "progsim";
    run_argv[n++] = "run";
    run_argv[n++] = "-n";
    run_argv[n++] = "1";
    run_argv[n++] = "--report";
    run_argv[n++] = report;
    run_argv[n++] = "--";
    run_argv[n++] = self;
    for (int i = 1; i < argc; ++i)
      run_argv[n++] = argv[i];
    run_argv[n] = NULL;
    status = run_launcher(run_argv);
  }
  int error = errno;
  int code = 2;
  if (status >= 0) {
    code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (code == 0) {
      int rank_code = rank_exit_code(report);
      code = rank_code >= 0 ? rank_code : 0;
    }
  } else {
    fprintf(stderr,
            "%s: this program was built with progsim-cc for the progsim MPI simulator and runs inside it,\n"
            "but progsim could not be run (%s; looked next to libprogsim and in PATH). Run it with:\n"
            "  progsim run -n 1 %s\n",
            argc > 0 ? argv[0] : self, strerror(error), self);
  }
  if (fd >= 0)
    unlink(report);
  _exit(code); /* not exit(): the program's exit is progsim's per-rank wrapper */
}

/* The entry point: passes the initial stack pointer (argc, argv) and calls
 * the C function on a 16-byte aligned stack, as the ABI requires. */
__asm__(".text\n"
        ".globl progsim_program_entry\n"
        ".hidden progsim_program_entry\n"
        ".type progsim_program_entry, @function\n"
        "progsim_program_entry:\n"
        "  xor %ebp, %ebp\n"
        "  mov %rsp, %rdi\n"
        "  and $-16, %rsp\n"
        "  call progsim_run_directly\n"
        "  hlt\n"
        ".size progsim_program_entry, . - progsim_program_entry\n");

#endif

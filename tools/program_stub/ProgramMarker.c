/* Linked into every program built with progsim-cc / progsim-cxx.
 *
 * progsim_program_abi tells the launcher that the shared object it is asked
 * to run was built by our wrappers (against our mpi.h, with the system call
 * wrappers of sim/SystemCallWrappers.cpp), and with which ABI version. */
__attribute__((visibility("default"), used)) const int progsim_program_abi = 1;

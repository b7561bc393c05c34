/* Compile-only test of include/mpi.h. It must build warning-free with
 *   gcc -std=c11 -Wall -Wextra -pedantic -Iinclude -c
 *   g++ -x c++ -std=c++17 -Wall -Wextra -pedantic -Iinclude -fsyntax-only
 * (the header itself also builds as C99; this file needs C11 for
 * _Static_assert). Nothing here is run or linked. */
#include <mpi.h>

#ifdef __cplusplus
#define CHECK(cond, msg) static_assert(cond, msg)
#else
#define CHECK(cond, msg) _Static_assert(cond, msg)
#endif

CHECK(MPI_COMM_WORLD == 0x44000001, "MPI_COMM_WORLD handle");
CHECK(MPI_INT == 0x4c000008, "MPI_INT handle");
CHECK(MPI_LONG_LONG == MPI_LONG_LONG_INT, "MPI_LONG_LONG alias");
CHECK(MPI_C_COMPLEX == MPI_C_FLOAT_COMPLEX, "MPI_C_COMPLEX alias");
CHECK(sizeof(MPI_Status) == 5 * sizeof(int), "MPI_Status layout");
CHECK(MPI_ERR_PENDING == 19 && MPI_ERR_ACCESS == 20, "error classes");
CHECK(MPI_ERR_LASTCODE > MPI_ERR_ERRHANDLER, "MPI_ERR_LASTCODE");

int element_size(MPI_Datatype type);
int element_size(MPI_Datatype type)
{
    switch (type) {
    case MPI_CHAR:
    case MPI_BYTE:
        return 1;
    case MPI_INT:
    case MPI_FLOAT:
        return 4;
    case MPI_LONG_LONG:
    case MPI_DOUBLE:
        return 8;
    case MPI_DATATYPE_NULL:
    default:
        return 0;
    }
}

int error_is_rma(int errorclass);
int error_is_rma(int errorclass)
{
    switch (errorclass) {
    case MPI_ERR_RMA_SYNC:
    case MPI_ERR_RMA_RANGE:
    case MPI_ERR_WIN:
        return 1;
    default:
        return 0;
    }
}

typedef int (*send_fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
typedef int (*win_test_fn)(MPI_Win, int *);

send_fn send_entry = &MPI_Send;
send_fn pmpi_send_entry = &PMPI_Send;
win_test_fn win_test_entry = &MPI_Win_test;
double (*wtime_entry)(void) = &MPI_Wtime;
MPI_Comm_copy_attr_function *dup_fn = MPI_COMM_DUP_FN;
MPI_Comm_delete_attr_function *null_delete_fn = MPI_COMM_NULL_DELETE_FN;
double (*compute_entry)(double) = &progsim_compute;

int uses_sentinels(void *buf, MPI_Status *status, int *weights);
int uses_sentinels(void *buf, MPI_Status *status, int *weights)
{
    return buf == MPI_IN_PLACE || status == MPI_STATUS_IGNORE ||
           weights == MPI_UNWEIGHTED || weights == MPI_WEIGHTS_EMPTY ||
           buf == MPI_BUFFER_AUTOMATIC;
}

/*
 * mpi.h -- the public MPI header of progsim.
 *
 * User programs (C or C++) are compiled against this header and run as
 * simulated ranks inside progsim. It follows the C bindings of MPI-4.1.
 *
 * The large-count "_c" variants (MPI-4.1 §19.2, MPI_Count counts) are
 * declared next to their int versions for point-to-point (§3) and
 * datatypes (§5), and after them for the collectives (§6) and the
 * neighborhood collectives (§8). Omitted on purpose: the "_c" variants of
 * the other chapters, the Fortran 2008 status type (MPI_F08_status) and its
 * conversion functions, and the MPI_T tool information interface.
 * Dynamic process management (§11) and MPI-IO (§14) are declared but not
 * implemented by the library.
 *
 * Handles are plain ints, (KIND << 24) | INDEX, so that they are integer
 * constant expressions usable in `case` labels. The numbers are fixed by
 * docs/design/handles.md and mpi_model/datatype/PredefinedTypes.def;
 * tests/unit/HandleConsistencyTest.cpp checks that they agree.
 *
 * Every function is declared twice, as MPI_Xxx and as PMPI_Xxx (the
 * profiling interface, §15), through PROGSIM_DECL below.
 */
#ifndef PROGSIM_MPI_H
#define PROGSIM_MPI_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#define PROGSIM_EXPORT __attribute__((visibility("default")))
#else
#define PROGSIM_EXPORT
#endif

/* PROGSIM_DECL(ret, Name, (params)) declares MPI_Name and PMPI_Name. */
#define PROGSIM_DECL(ret, name, params)      \
    PROGSIM_EXPORT ret MPI_##name params;    \
    PROGSIM_EXPORT ret PMPI_##name params

/* ======================================================================
 * MPI-4.1 §2 Terms and conventions: versions, basic types, handles
 * ====================================================================== */

#define MPI_VERSION    4
#define MPI_SUBVERSION 1

typedef long      MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int       MPI_Fint;

typedef int MPI_Comm;
typedef int MPI_Group;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Errhandler;
typedef int MPI_Info;
typedef int MPI_Win;
typedef int MPI_Request;
typedef int MPI_Message;
typedef int MPI_Session;
typedef struct progsim_file_s *MPI_File;

/* Communicators (kind 0x44) */
#define MPI_COMM_NULL        ((MPI_Comm)0x44000000)
#define MPI_COMM_WORLD       ((MPI_Comm)0x44000001)
#define MPI_COMM_SELF        ((MPI_Comm)0x44000002)

/* Groups (kind 0x48) */
#define MPI_GROUP_NULL       ((MPI_Group)0x48000000)
#define MPI_GROUP_EMPTY      ((MPI_Group)0x48000001)

/* Error handlers (kind 0x54) */
#define MPI_ERRHANDLER_NULL  ((MPI_Errhandler)0x54000000)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)0x54000001)
#define MPI_ERRORS_RETURN    ((MPI_Errhandler)0x54000002)
#define MPI_ERRORS_ABORT     ((MPI_Errhandler)0x54000003)

/* Reduction operations (kind 0x58) */
#define MPI_OP_NULL          ((MPI_Op)0x58000000)
#define MPI_MAX              ((MPI_Op)0x58000001)
#define MPI_MIN              ((MPI_Op)0x58000002)
#define MPI_SUM              ((MPI_Op)0x58000003)
#define MPI_PROD             ((MPI_Op)0x58000004)
#define MPI_LAND             ((MPI_Op)0x58000005)
#define MPI_BAND             ((MPI_Op)0x58000006)
#define MPI_LOR              ((MPI_Op)0x58000007)
#define MPI_BOR              ((MPI_Op)0x58000008)
#define MPI_LXOR             ((MPI_Op)0x58000009)
#define MPI_BXOR             ((MPI_Op)0x5800000a)
#define MPI_MINLOC           ((MPI_Op)0x5800000b)
#define MPI_MAXLOC           ((MPI_Op)0x5800000c)
#define MPI_REPLACE          ((MPI_Op)0x5800000d)
#define MPI_NO_OP            ((MPI_Op)0x5800000e)

/* Info objects (kind 0x5c) */
#define MPI_INFO_NULL        ((MPI_Info)0x5c000000)
#define MPI_INFO_ENV         ((MPI_Info)0x5c000001)

/* Windows (kind 0x60), requests (0x2c), messages (0x6c), sessions (0x70) */
#define MPI_WIN_NULL         ((MPI_Win)0x60000000)
#define MPI_REQUEST_NULL     ((MPI_Request)0x2c000000)
#define MPI_MESSAGE_NULL     ((MPI_Message)0x6c000000)
#define MPI_MESSAGE_NO_PROC  ((MPI_Message)0x6c000001)
#define MPI_SESSION_NULL     ((MPI_Session)0x70000000)

/* Files are opaque pointers (MPI-IO is not implemented). */
#define MPI_FILE_NULL        ((MPI_File)0)

/* Status. count_lo holds the low 32 bits of the received byte count;
 * bit 0 of count_hi_and_cancelled is the cancelled flag and bits 1..31
 * hold the high bits of the byte count. */
typedef struct MPI_Status {
    int count_lo;
    int count_hi_and_cancelled;
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
} MPI_Status;

/* Fortran view of a status (used by MPI_Status_c2f/f2c, §19). */
#define MPI_F_STATUS_SIZE 5
#define MPI_F_SOURCE      2
#define MPI_F_TAG         3
#define MPI_F_ERROR       4

/* ======================================================================
 * MPI-4.1 §5 (and §19) Predefined datatypes (kind 0x4c)
 * ====================================================================== */

#define MPI_DATATYPE_NULL           ((MPI_Datatype)0x4c000000)

/* C types */
#define MPI_CHAR                    ((MPI_Datatype)0x4c000001)
#define MPI_SIGNED_CHAR             ((MPI_Datatype)0x4c000002)
#define MPI_UNSIGNED_CHAR           ((MPI_Datatype)0x4c000003)
#define MPI_BYTE                    ((MPI_Datatype)0x4c000004)
#define MPI_WCHAR                   ((MPI_Datatype)0x4c000005)
#define MPI_SHORT                   ((MPI_Datatype)0x4c000006)
#define MPI_UNSIGNED_SHORT          ((MPI_Datatype)0x4c000007)
#define MPI_INT                     ((MPI_Datatype)0x4c000008)
#define MPI_UNSIGNED                ((MPI_Datatype)0x4c000009)
#define MPI_LONG                    ((MPI_Datatype)0x4c00000a)
#define MPI_UNSIGNED_LONG           ((MPI_Datatype)0x4c00000b)
#define MPI_LONG_LONG_INT           ((MPI_Datatype)0x4c00000c)
#define MPI_LONG_LONG               MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG      ((MPI_Datatype)0x4c00000d)
#define MPI_FLOAT                   ((MPI_Datatype)0x4c00000e)
#define MPI_DOUBLE                  ((MPI_Datatype)0x4c00000f)
#define MPI_LONG_DOUBLE             ((MPI_Datatype)0x4c000010)
#define MPI_C_BOOL                  ((MPI_Datatype)0x4c000011)
#define MPI_INT8_T                  ((MPI_Datatype)0x4c000012)
#define MPI_INT16_T                 ((MPI_Datatype)0x4c000013)
#define MPI_INT32_T                 ((MPI_Datatype)0x4c000014)
#define MPI_INT64_T                 ((MPI_Datatype)0x4c000015)
#define MPI_UINT8_T                 ((MPI_Datatype)0x4c000016)
#define MPI_UINT16_T                ((MPI_Datatype)0x4c000017)
#define MPI_UINT32_T                ((MPI_Datatype)0x4c000018)
#define MPI_UINT64_T                ((MPI_Datatype)0x4c000019)
#define MPI_AINT                    ((MPI_Datatype)0x4c00001a)
#define MPI_COUNT                   ((MPI_Datatype)0x4c00001b)
#define MPI_OFFSET                  ((MPI_Datatype)0x4c00001c)
#define MPI_C_FLOAT_COMPLEX         ((MPI_Datatype)0x4c00001d)
#define MPI_C_COMPLEX               MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX        ((MPI_Datatype)0x4c00001e)
#define MPI_C_LONG_DOUBLE_COMPLEX   ((MPI_Datatype)0x4c00001f)

/* C++ types */
#define MPI_CXX_BOOL                ((MPI_Datatype)0x4c000020)
#define MPI_CXX_FLOAT_COMPLEX       ((MPI_Datatype)0x4c000021)
#define MPI_CXX_DOUBLE_COMPLEX      ((MPI_Datatype)0x4c000022)
#define MPI_CXX_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x4c000023)

/* Packed data and the value-index pair types of MPI_MINLOC/MPI_MAXLOC */
#define MPI_PACKED                  ((MPI_Datatype)0x4c000024)
#define MPI_FLOAT_INT               ((MPI_Datatype)0x4c000025)
#define MPI_DOUBLE_INT              ((MPI_Datatype)0x4c000026)
#define MPI_LONG_INT                ((MPI_Datatype)0x4c000027)
#define MPI_2INT                    ((MPI_Datatype)0x4c000028)
#define MPI_SHORT_INT               ((MPI_Datatype)0x4c000029)
#define MPI_LONG_DOUBLE_INT         ((MPI_Datatype)0x4c00002a)

/* Fortran types (C layout of gfortran) */
#define MPI_CHARACTER               ((MPI_Datatype)0x4c00002b)
#define MPI_LOGICAL                 ((MPI_Datatype)0x4c00002c)
#define MPI_INTEGER                 ((MPI_Datatype)0x4c00002d)
#define MPI_REAL                    ((MPI_Datatype)0x4c00002e)
#define MPI_DOUBLE_PRECISION        ((MPI_Datatype)0x4c00002f)
#define MPI_COMPLEX                 ((MPI_Datatype)0x4c000030)
#define MPI_DOUBLE_COMPLEX          ((MPI_Datatype)0x4c000031)
#define MPI_2INTEGER                ((MPI_Datatype)0x4c000032)
#define MPI_2REAL                   ((MPI_Datatype)0x4c000033)
#define MPI_2DOUBLE_PRECISION       ((MPI_Datatype)0x4c000034)
#define MPI_INTEGER1                ((MPI_Datatype)0x4c000035)
#define MPI_INTEGER2                ((MPI_Datatype)0x4c000036)
#define MPI_INTEGER4                ((MPI_Datatype)0x4c000037)
#define MPI_INTEGER8                ((MPI_Datatype)0x4c000038)
#define MPI_REAL4                   ((MPI_Datatype)0x4c000039)
#define MPI_REAL8                   ((MPI_Datatype)0x4c00003a)
#define MPI_REAL16                  ((MPI_Datatype)0x4c00003b)
#define MPI_COMPLEX8                ((MPI_Datatype)0x4c00003c)
#define MPI_COMPLEX16               ((MPI_Datatype)0x4c00003d)
#define MPI_COMPLEX32               ((MPI_Datatype)0x4c00003e)

/* ======================================================================
 * Special values and limits (§2, §3, §9)
 * ====================================================================== */

#define MPI_SUCCESS     0
#define MPI_UNDEFINED   (-32766)
#define MPI_PROC_NULL   (-1)
#define MPI_ANY_SOURCE  (-2)
#define MPI_ROOT        (-3)
#define MPI_ANY_TAG     (-1)

/* Sentinel addresses. Each is distinct from the others and from any
 * address a program can obtain, except MPI_BOTTOM and MPI_ERRCODES_IGNORE,
 * which are the null pointer. */
#define MPI_BOTTOM            ((void *)0)
#define MPI_IN_PLACE          ((void *)(MPI_Aint)-1)
#define MPI_UNWEIGHTED        ((int *)(MPI_Aint)-2)
#define MPI_BUFFER_AUTOMATIC  ((void *)(MPI_Aint)-3)
#define MPI_WEIGHTS_EMPTY     ((int *)(MPI_Aint)-4)
#define MPI_ARGV_NULL         ((char **)(MPI_Aint)-5)
#define MPI_ARGVS_NULL        ((char ***)(MPI_Aint)-6)
#define MPI_STATUS_IGNORE     ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE   ((MPI_Status *)1)
#define MPI_ERRCODES_IGNORE   ((int *)0)
#define MPI_F_STATUS_IGNORE   ((MPI_Fint *)0)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)0)

#define MPI_MAX_PROCESSOR_NAME         128
#define MPI_MAX_ERROR_STRING           512
#define MPI_MAX_OBJECT_NAME            128
#define MPI_MAX_INFO_KEY               255
#define MPI_MAX_INFO_VAL               1024
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_PORT_NAME              256
#define MPI_MAX_DATAREP_STRING         128
#define MPI_MAX_PSET_NAME_LEN          256
#define MPI_MAX_STRINGTAG_LEN          256

#define MPI_BSEND_OVERHEAD 96

/* Thread support levels (§11) */
#define MPI_THREAD_SINGLE     0
#define MPI_THREAD_FUNNELED   1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE   3

/* Results of MPI_Comm_compare and MPI_Group_compare (§7) */
#define MPI_IDENT     0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR   2
#define MPI_UNEQUAL   3

/* Topology kinds returned by MPI_Topo_test (§8) */
#define MPI_GRAPH      1
#define MPI_CART       2
#define MPI_DIST_GRAPH 3

/* Split types of MPI_Comm_split_type (§7) */
#define MPI_COMM_TYPE_SHARED          230
#define MPI_COMM_TYPE_HW_GUIDED       231
#define MPI_COMM_TYPE_HW_UNGUIDED     232
#define MPI_COMM_TYPE_RESOURCE_GUIDED 233

/* ======================================================================
 * Error classes (§9)
 * ====================================================================== */

#define MPI_ERR_BUFFER                 1
#define MPI_ERR_COUNT                  2
#define MPI_ERR_TYPE                   3
#define MPI_ERR_TAG                    4
#define MPI_ERR_COMM                   5
#define MPI_ERR_RANK                   6
#define MPI_ERR_REQUEST                7
#define MPI_ERR_ROOT                   8
#define MPI_ERR_GROUP                  9
#define MPI_ERR_OP                    10
#define MPI_ERR_TOPOLOGY              11
#define MPI_ERR_DIMS                  12
#define MPI_ERR_ARG                   13
#define MPI_ERR_UNKNOWN               14
#define MPI_ERR_TRUNCATE              15
#define MPI_ERR_OTHER                 16
#define MPI_ERR_INTERN                17
#define MPI_ERR_IN_STATUS             18
#define MPI_ERR_PENDING               19
#define MPI_ERR_ACCESS                20
#define MPI_ERR_AMODE                 21
#define MPI_ERR_ASSERT                22
#define MPI_ERR_BAD_FILE              23
#define MPI_ERR_BASE                  24
#define MPI_ERR_CONVERSION            25
#define MPI_ERR_DISP                  26
#define MPI_ERR_DUP_DATAREP           27
#define MPI_ERR_FILE_EXISTS           28
#define MPI_ERR_FILE_IN_USE           29
#define MPI_ERR_FILE                  30
#define MPI_ERR_INFO_KEY              31
#define MPI_ERR_INFO_NOKEY            32
#define MPI_ERR_INFO_VALUE            33
#define MPI_ERR_INFO                  34
#define MPI_ERR_IO                    35
#define MPI_ERR_KEYVAL                36
#define MPI_ERR_LOCKTYPE              37
#define MPI_ERR_NAME                  38
#define MPI_ERR_NO_MEM                39
#define MPI_ERR_NOT_SAME              40
#define MPI_ERR_NO_SPACE              41
#define MPI_ERR_NO_SUCH_FILE          42
#define MPI_ERR_PORT                  43
#define MPI_ERR_PROC_ABORTED          44
#define MPI_ERR_QUOTA                 45
#define MPI_ERR_READ_ONLY             46
#define MPI_ERR_RMA_ATTACH            47
#define MPI_ERR_RMA_CONFLICT          48
#define MPI_ERR_RMA_RANGE             49
#define MPI_ERR_RMA_SHARED            50
#define MPI_ERR_RMA_SYNC              51
#define MPI_ERR_RMA_FLAVOR            52
#define MPI_ERR_SERVICE               53
#define MPI_ERR_SESSION               54
#define MPI_ERR_SIZE                  55
#define MPI_ERR_SPAWN                 56
#define MPI_ERR_UNSUPPORTED_DATAREP   57
#define MPI_ERR_UNSUPPORTED_OPERATION 58
#define MPI_ERR_VALUE_TOO_LARGE       59
#define MPI_ERR_WIN                   60
#define MPI_ERR_ERRHANDLER            61
#define MPI_ERR_LASTCODE              62

/* ======================================================================
 * Attribute keyvals (§7, §9, §12)
 *
 * Keyvals are plain ints. The predefined ones live in one namespace so the
 * library can reject a window keyval used on a communicator and vice versa:
 *
 *   value  keyval                 cached on  attribute value is a pointer to
 *   -----  ---------------------  ---------  --------------------------------
 *     0    MPI_KEYVAL_INVALID     -          -
 *     1    MPI_TAG_UB             comm       int
 *     2    MPI_HOST               comm       int
 *     3    MPI_IO                 comm       int
 *     4    MPI_WTIME_IS_GLOBAL    comm       int
 *     5    MPI_UNIVERSE_SIZE      comm       int
 *     6    MPI_LASTUSEDCODE       comm       int
 *     7    MPI_APPNUM             comm       int
 *     8    MPI_WIN_BASE           win        the window base itself (void *)
 *     9    MPI_WIN_SIZE           win        MPI_Aint
 *    10    MPI_WIN_DISP_UNIT      win        int
 *    11    MPI_WIN_CREATE_FLAVOR  win        int
 *    12    MPI_WIN_MODEL          win        int
 *
 * Values 0..63 are reserved; keyvals created at run time start at 64.
 * ====================================================================== */

#define MPI_KEYVAL_INVALID     0
#define MPI_TAG_UB             1
#define MPI_HOST               2
#define MPI_IO                 3
#define MPI_WTIME_IS_GLOBAL    4
#define MPI_UNIVERSE_SIZE      5
#define MPI_LASTUSEDCODE       6
#define MPI_APPNUM             7
#define MPI_WIN_BASE           8
#define MPI_WIN_SIZE           9
#define MPI_WIN_DISP_UNIT      10
#define MPI_WIN_CREATE_FLAVOR  11
#define MPI_WIN_MODEL          12

/* ======================================================================
 * One-sided constants (§12)
 * ====================================================================== */

#define MPI_WIN_FLAVOR_CREATE   240
#define MPI_WIN_FLAVOR_ALLOCATE 241
#define MPI_WIN_FLAVOR_DYNAMIC  242
#define MPI_WIN_FLAVOR_SHARED   243

#define MPI_WIN_SEPARATE 250
#define MPI_WIN_UNIFIED  251

#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED    235

/* Assertion bits for fence/post/start/lock (disjoint from the file modes) */
#define MPI_MODE_NOCHECK   1024
#define MPI_MODE_NOSTORE   2048
#define MPI_MODE_NOPUT     4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384

/* ======================================================================
 * MPI-IO constants (§14)
 * ====================================================================== */

#define MPI_MODE_CREATE          1
#define MPI_MODE_RDONLY          2
#define MPI_MODE_WRONLY          4
#define MPI_MODE_RDWR            8
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN     32
#define MPI_MODE_EXCL            64
#define MPI_MODE_APPEND          128
#define MPI_MODE_SEQUENTIAL      256

#define MPI_SEEK_SET 260
#define MPI_SEEK_CUR 261
#define MPI_SEEK_END 262

#define MPI_DISPLACEMENT_CURRENT (-260)

/* ======================================================================
 * Datatype constructor constants (§5)
 * ====================================================================== */

/* Combiners returned by MPI_Type_get_envelope */
#define MPI_COMBINER_NAMED          1
#define MPI_COMBINER_DUP            2
#define MPI_COMBINER_CONTIGUOUS     3
#define MPI_COMBINER_VECTOR         4
#define MPI_COMBINER_HVECTOR        5
#define MPI_COMBINER_INDEXED        6
#define MPI_COMBINER_HINDEXED       7
#define MPI_COMBINER_INDEXED_BLOCK  8
#define MPI_COMBINER_HINDEXED_BLOCK 9
#define MPI_COMBINER_STRUCT         10
#define MPI_COMBINER_SUBARRAY       11
#define MPI_COMBINER_DARRAY         12
#define MPI_COMBINER_F90_REAL       13
#define MPI_COMBINER_F90_COMPLEX    14
#define MPI_COMBINER_F90_INTEGER    15
#define MPI_COMBINER_RESIZED        16
#define MPI_COMBINER_VALUE_INDEX    17

/* Array orders and distributions of MPI_Type_create_subarray/darray */
#define MPI_ORDER_C       200
#define MPI_ORDER_FORTRAN 201

#define MPI_DISTRIBUTE_BLOCK     210
#define MPI_DISTRIBUTE_CYCLIC    211
#define MPI_DISTRIBUTE_NONE      212
#define MPI_DISTRIBUTE_DFLT_DARG (-210)

/* Type classes of MPI_Type_match_size (§19) */
#define MPI_TYPECLASS_REAL    220
#define MPI_TYPECLASS_INTEGER 221
#define MPI_TYPECLASS_COMPLEX 222

/* ======================================================================
 * Callback function types
 * ====================================================================== */

/* User-defined reduction (§6) */
typedef void MPI_User_function(void *invec, void *inoutvec, int *len,
                               MPI_Datatype *datatype);

/* Attribute copy/delete callbacks (§7) */
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval,
                                        void *extra_state,
                                        void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval,
                                          void *attribute_val,
                                          void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval,
                                        void *extra_state,
                                        void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype,
                                          int type_keyval,
                                          void *attribute_val,
                                          void *extra_state);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval,
                                       void *extra_state,
                                       void *attribute_val_in,
                                       void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval,
                                         void *attribute_val,
                                         void *extra_state);

/* Deprecated attribute callbacks of MPI_Keyval_create (§16) */
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                              void *attribute_val_in, void *attribute_val_out,
                              int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval,
                                void *attribute_val, void *extra_state);

/* Error handlers (§9) */
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *error_code,
                                          ...);
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *error_code, ...);
typedef void MPI_File_errhandler_function(MPI_File *file, int *error_code,
                                          ...);
typedef void MPI_Session_errhandler_function(MPI_Session *session,
                                             int *error_code, ...);
/* Deprecated names of the same types (§16) */
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;

/* Generalized requests (§13) */
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);

/* User-defined data representations (§14) */
typedef int MPI_Datarep_extent_function(MPI_Datatype datatype,
                                        MPI_Aint *file_extent,
                                        void *extra_state);
typedef int MPI_Datarep_conversion_function(void *userbuf,
                                            MPI_Datatype datatype, int count,
                                            void *filebuf,
                                            MPI_Offset position,
                                            void *extra_state);

/* Predefined callbacks. These are functions defined by libprogsim. */
PROGSIM_EXPORT MPI_Comm_copy_attr_function   progsim_comm_null_copy_fn;
PROGSIM_EXPORT MPI_Comm_delete_attr_function progsim_comm_null_delete_fn;
PROGSIM_EXPORT MPI_Comm_copy_attr_function   progsim_comm_dup_fn;
PROGSIM_EXPORT MPI_Type_copy_attr_function   progsim_type_null_copy_fn;
PROGSIM_EXPORT MPI_Type_delete_attr_function progsim_type_null_delete_fn;
PROGSIM_EXPORT MPI_Type_copy_attr_function   progsim_type_dup_fn;
PROGSIM_EXPORT MPI_Win_copy_attr_function    progsim_win_null_copy_fn;
PROGSIM_EXPORT MPI_Win_delete_attr_function  progsim_win_null_delete_fn;
PROGSIM_EXPORT MPI_Win_copy_attr_function    progsim_win_dup_fn;
PROGSIM_EXPORT MPI_Copy_function             progsim_null_copy_fn;
PROGSIM_EXPORT MPI_Delete_function           progsim_null_delete_fn;
PROGSIM_EXPORT MPI_Copy_function             progsim_dup_fn;

#define MPI_COMM_NULL_COPY_FN   progsim_comm_null_copy_fn
#define MPI_COMM_NULL_DELETE_FN progsim_comm_null_delete_fn
#define MPI_COMM_DUP_FN         progsim_comm_dup_fn
#define MPI_TYPE_NULL_COPY_FN   progsim_type_null_copy_fn
#define MPI_TYPE_NULL_DELETE_FN progsim_type_null_delete_fn
#define MPI_TYPE_DUP_FN         progsim_type_dup_fn
#define MPI_WIN_NULL_COPY_FN    progsim_win_null_copy_fn
#define MPI_WIN_NULL_DELETE_FN  progsim_win_null_delete_fn
#define MPI_WIN_DUP_FN          progsim_win_dup_fn
#define MPI_NULL_COPY_FN        progsim_null_copy_fn    /* deprecated */
#define MPI_NULL_DELETE_FN      progsim_null_delete_fn  /* deprecated */
#define MPI_DUP_FN              progsim_dup_fn          /* deprecated */

#define MPI_CONVERSION_FN_NULL  ((MPI_Datarep_conversion_function *)0)

/* ======================================================================
 * MPI-4.1 §3 Point-to-point communication
 * ====================================================================== */

/* Blocking send and receive */
PROGSIM_DECL(int, Send, (const void *buf, int count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm));
PROGSIM_DECL(int, Recv, (void *buf, int count, MPI_Datatype datatype,
                         int source, int tag, MPI_Comm comm,
                         MPI_Status *status));
PROGSIM_DECL(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype,
                              int *count));
PROGSIM_DECL(int, Bsend, (const void *buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm));
PROGSIM_DECL(int, Ssend, (const void *buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm));
PROGSIM_DECL(int, Rsend, (const void *buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm));
PROGSIM_DECL(int, Send_c, (const void *buf, MPI_Count count,
                           MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm));
PROGSIM_DECL(int, Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
                           int source, int tag, MPI_Comm comm,
                           MPI_Status *status));
PROGSIM_DECL(int, Get_count_c, (const MPI_Status *status,
                                MPI_Datatype datatype, MPI_Count *count));
PROGSIM_DECL(int, Bsend_c, (const void *buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm));
PROGSIM_DECL(int, Ssend_c, (const void *buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm));
PROGSIM_DECL(int, Rsend_c, (const void *buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm));

/* Status fields (MPI-4.1) */
PROGSIM_DECL(int, Status_get_source, (MPI_Status *status, int *source));
PROGSIM_DECL(int, Status_set_source, (MPI_Status *status, int source));
PROGSIM_DECL(int, Status_get_tag, (MPI_Status *status, int *tag));
PROGSIM_DECL(int, Status_set_tag, (MPI_Status *status, int tag));
PROGSIM_DECL(int, Status_get_error, (MPI_Status *status, int *error));
PROGSIM_DECL(int, Status_set_error, (MPI_Status *status, int error));

/* Buffered-mode buffers */
PROGSIM_DECL(int, Buffer_attach, (void *buffer, int size));
PROGSIM_DECL(int, Buffer_detach, (void *buffer_addr, int *size));
PROGSIM_DECL(int, Buffer_attach_c, (void *buffer, MPI_Count size));
PROGSIM_DECL(int, Buffer_detach_c, (void *buffer_addr, MPI_Count *size));
PROGSIM_DECL(int, Buffer_flush, (void));
PROGSIM_DECL(int, Buffer_iflush, (MPI_Request *request));
PROGSIM_DECL(int, Comm_attach_buffer, (MPI_Comm comm, void *buffer,
                                       int size));
PROGSIM_DECL(int, Comm_detach_buffer, (MPI_Comm comm, void *buffer_addr,
                                       int *size));
PROGSIM_DECL(int, Comm_flush_buffer, (MPI_Comm comm));
PROGSIM_DECL(int, Comm_iflush_buffer, (MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Session_attach_buffer, (MPI_Session session, void *buffer,
                                          int size));
PROGSIM_DECL(int, Session_detach_buffer, (MPI_Session session,
                                          void *buffer_addr, int *size));
PROGSIM_DECL(int, Session_flush_buffer, (MPI_Session session));
PROGSIM_DECL(int, Session_iflush_buffer, (MPI_Session session,
                                          MPI_Request *request));

/* Nonblocking send and receive */
PROGSIM_DECL(int, Isend, (const void *buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm,
                          MPI_Request *request));
PROGSIM_DECL(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm,
                           MPI_Request *request));
PROGSIM_DECL(int, Issend, (const void *buf, int count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm,
                           MPI_Request *request));
PROGSIM_DECL(int, Irsend, (const void *buf, int count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm,
                           MPI_Request *request));
PROGSIM_DECL(int, Irecv, (void *buf, int count, MPI_Datatype datatype,
                          int source, int tag, MPI_Comm comm,
                          MPI_Request *request));
PROGSIM_DECL(int, Isend_c, (const void *buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ibsend_c, (const void *buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Issend_c, (const void *buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Irsend_c, (const void *buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Irecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
                            int source, int tag, MPI_Comm comm,
                            MPI_Request *request));

/* Completion */
PROGSIM_DECL(int, Wait, (MPI_Request *request, MPI_Status *status));
PROGSIM_DECL(int, Test, (MPI_Request *request, int *flag,
                         MPI_Status *status));
PROGSIM_DECL(int, Request_free, (MPI_Request *request));
PROGSIM_DECL(int, Waitany, (int count, MPI_Request array_of_requests[],
                            int *index, MPI_Status *status));
PROGSIM_DECL(int, Testany, (int count, MPI_Request array_of_requests[],
                            int *index, int *flag, MPI_Status *status));
PROGSIM_DECL(int, Waitall, (int count, MPI_Request array_of_requests[],
                            MPI_Status *array_of_statuses));
PROGSIM_DECL(int, Testall, (int count, MPI_Request array_of_requests[],
                            int *flag, MPI_Status *array_of_statuses));
PROGSIM_DECL(int, Waitsome, (int incount, MPI_Request array_of_requests[],
                             int *outcount, int array_of_indices[],
                             MPI_Status *array_of_statuses));
PROGSIM_DECL(int, Testsome, (int incount, MPI_Request array_of_requests[],
                             int *outcount, int array_of_indices[],
                             MPI_Status *array_of_statuses));
PROGSIM_DECL(int, Request_get_status, (MPI_Request request, int *flag,
                                       MPI_Status *status));
PROGSIM_DECL(int, Request_get_status_any,
             (int count, const MPI_Request array_of_requests[], int *index,
              int *flag, MPI_Status *status));
PROGSIM_DECL(int, Request_get_status_all,
             (int count, const MPI_Request array_of_requests[], int *flag,
              MPI_Status *array_of_statuses));
PROGSIM_DECL(int, Request_get_status_some,
             (int incount, const MPI_Request array_of_requests[],
              int *outcount, int array_of_indices[],
              MPI_Status *array_of_statuses));

/* Probe, matched probe and matched receive */
PROGSIM_DECL(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag,
                           MPI_Status *status));
PROGSIM_DECL(int, Probe, (int source, int tag, MPI_Comm comm,
                          MPI_Status *status));
PROGSIM_DECL(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag,
                            MPI_Message *message, MPI_Status *status));
PROGSIM_DECL(int, Mprobe, (int source, int tag, MPI_Comm comm,
                           MPI_Message *message, MPI_Status *status));
PROGSIM_DECL(int, Mrecv, (void *buf, int count, MPI_Datatype datatype,
                          MPI_Message *message, MPI_Status *status));
PROGSIM_DECL(int, Imrecv, (void *buf, int count, MPI_Datatype datatype,
                           MPI_Message *message, MPI_Request *request));
PROGSIM_DECL(int, Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Message *message, MPI_Status *status));
PROGSIM_DECL(int, Imrecv_c, (void *buf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Message *message,
                             MPI_Request *request));

/* Cancellation */
PROGSIM_DECL(int, Cancel, (MPI_Request *request));
PROGSIM_DECL(int, Test_cancelled, (const MPI_Status *status, int *flag));

/* Persistent requests */
PROGSIM_DECL(int, Send_init, (const void *buf, int count,
                              MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Bsend_init, (const void *buf, int count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ssend_init, (const void *buf, int count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Rsend_init, (const void *buf, int count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Recv_init, (void *buf, int count, MPI_Datatype datatype,
                              int source, int tag, MPI_Comm comm,
                              MPI_Request *request));
PROGSIM_DECL(int, Send_init_c, (const void *buf, MPI_Count count,
                                MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Bsend_init_c, (const void *buf, MPI_Count count,
                                 MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ssend_init_c, (const void *buf, MPI_Count count,
                                 MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Rsend_init_c, (const void *buf, MPI_Count count,
                                 MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Recv_init_c, (void *buf, MPI_Count count,
                                MPI_Datatype datatype, int source, int tag,
                                MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Start, (MPI_Request *request));
PROGSIM_DECL(int, Startall, (int count, MPI_Request array_of_requests[]));

/* Send-receive */
PROGSIM_DECL(int, Sendrecv, (const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, int dest, int sendtag,
                             void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, int source, int recvtag,
                             MPI_Comm comm, MPI_Status *status));
PROGSIM_DECL(int, Sendrecv_replace, (void *buf, int count,
                                     MPI_Datatype datatype, int dest,
                                     int sendtag, int source, int recvtag,
                                     MPI_Comm comm, MPI_Status *status));
PROGSIM_DECL(int, Isendrecv, (const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, int dest, int sendtag,
                              void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, int source, int recvtag,
                              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Isendrecv_replace, (void *buf, int count,
                                      MPI_Datatype datatype, int dest,
                                      int sendtag, int source, int recvtag,
                                      MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Sendrecv_c, (const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, int dest, int sendtag,
                               void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype recvtype, int source, int recvtag,
                               MPI_Comm comm, MPI_Status *status));
PROGSIM_DECL(int, Sendrecv_replace_c, (void *buf, MPI_Count count,
                                       MPI_Datatype datatype, int dest,
                                       int sendtag, int source, int recvtag,
                                       MPI_Comm comm, MPI_Status *status));
PROGSIM_DECL(int, Isendrecv_c, (const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, int dest, int sendtag,
                                void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype recvtype, int source, int recvtag,
                                MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Isendrecv_replace_c, (void *buf, MPI_Count count,
                                        MPI_Datatype datatype, int dest,
                                        int sendtag, int source, int recvtag,
                                        MPI_Comm comm, MPI_Request *request));

/* ======================================================================
 * MPI-4.1 §4 Partitioned point-to-point communication
 * ====================================================================== */

PROGSIM_DECL(int, Psend_init, (const void *buf, int partitions,
                               MPI_Count count, MPI_Datatype datatype,
                               int dest, int tag, MPI_Comm comm,
                               MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Precv_init, (void *buf, int partitions, MPI_Count count,
                               MPI_Datatype datatype, int source, int tag,
                               MPI_Comm comm, MPI_Info info,
                               MPI_Request *request));
PROGSIM_DECL(int, Pready, (int partition, MPI_Request request));
PROGSIM_DECL(int, Pready_range, (int partition_low, int partition_high,
                                 MPI_Request request));
PROGSIM_DECL(int, Pready_list, (int length, const int array_of_partitions[],
                                MPI_Request request));
PROGSIM_DECL(int, Parrived, (MPI_Request request, int partition, int *flag));

/* ======================================================================
 * MPI-4.1 §5 Datatypes
 * ====================================================================== */

/* Constructors */
PROGSIM_DECL(int, Type_contiguous, (int count, MPI_Datatype oldtype,
                                    MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_vector, (int count, int blocklength, int stride,
                                MPI_Datatype oldtype, MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_hvector, (int count, int blocklength,
                                        MPI_Aint stride, MPI_Datatype oldtype,
                                        MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_indexed, (int count, const int array_of_blocklengths[],
                                 const int array_of_displacements[],
                                 MPI_Datatype oldtype, MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_hindexed,
             (int count, const int array_of_blocklengths[],
              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
              MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_indexed_block,
             (int count, int blocklength, const int array_of_displacements[],
              MPI_Datatype oldtype, MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_hindexed_block,
             (int count, int blocklength,
              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
              MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_struct,
             (int count, const int array_of_blocklengths[],
              const MPI_Aint array_of_displacements[],
              const MPI_Datatype array_of_types[], MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_subarray,
             (int ndims, const int array_of_sizes[],
              const int array_of_subsizes[], const int array_of_starts[],
              int order, MPI_Datatype oldtype, MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_darray,
             (int size, int rank, int ndims, const int array_of_gsizes[],
              const int array_of_distribs[], const int array_of_dargs[],
              const int array_of_psizes[], int order, MPI_Datatype oldtype,
              MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb,
                                        MPI_Aint extent,
                                        MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_contiguous_c, (MPI_Count count, MPI_Datatype oldtype,
                                      MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_vector_c, (MPI_Count count, MPI_Count blocklength,
                                  MPI_Count stride, MPI_Datatype oldtype,
                                  MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_hvector_c, (MPI_Count count,
                                          MPI_Count blocklength,
                                          MPI_Count stride,
                                          MPI_Datatype oldtype,
                                          MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_indexed_c,
             (MPI_Count count, const MPI_Count array_of_blocklengths[],
              const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
              MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_hindexed_c,
             (MPI_Count count, const MPI_Count array_of_blocklengths[],
              const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
              MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_indexed_block_c,
             (MPI_Count count, MPI_Count blocklength,
              const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
              MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_hindexed_block_c,
             (MPI_Count count, MPI_Count blocklength,
              const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
              MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_struct_c,
             (MPI_Count count, const MPI_Count array_of_blocklengths[],
              const MPI_Count array_of_displacements[],
              const MPI_Datatype array_of_types[], MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_subarray_c,
             (int ndims, const MPI_Count array_of_sizes[],
              const MPI_Count array_of_subsizes[],
              const MPI_Count array_of_starts[], int order,
              MPI_Datatype oldtype, MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_darray_c,
             (int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
              const int array_of_distribs[], const int array_of_dargs[],
              const int array_of_psizes[], int order, MPI_Datatype oldtype,
              MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_resized_c, (MPI_Datatype oldtype, MPI_Count lb,
                                          MPI_Count extent,
                                          MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_get_value_index, (MPI_Datatype value_type,
                                         MPI_Datatype index_type,
                                         MPI_Datatype *pair_type));

/* Addresses, sizes and extents */
PROGSIM_DECL(int, Get_address, (const void *location, MPI_Aint *address));
PROGSIM_DECL(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp));
PROGSIM_DECL(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2));
PROGSIM_DECL(int, Type_size, (MPI_Datatype datatype, int *size));
PROGSIM_DECL(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size));
PROGSIM_DECL(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb,
                                    MPI_Aint *extent));
PROGSIM_DECL(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb,
                                      MPI_Count *extent));
PROGSIM_DECL(int, Type_get_true_extent, (MPI_Datatype datatype,
                                         MPI_Aint *true_lb,
                                         MPI_Aint *true_extent));
PROGSIM_DECL(int, Type_get_true_extent_x, (MPI_Datatype datatype,
                                           MPI_Count *true_lb,
                                           MPI_Count *true_extent));
PROGSIM_DECL(int, Type_size_c, (MPI_Datatype datatype, MPI_Count *size));
PROGSIM_DECL(int, Type_get_extent_c, (MPI_Datatype datatype, MPI_Count *lb,
                                      MPI_Count *extent));
PROGSIM_DECL(int, Type_get_true_extent_c, (MPI_Datatype datatype,
                                           MPI_Count *true_lb,
                                           MPI_Count *true_extent));

/* Commit and free */
PROGSIM_DECL(int, Type_commit, (MPI_Datatype *datatype));
PROGSIM_DECL(int, Type_free, (MPI_Datatype *datatype));

/* Element counts */
PROGSIM_DECL(int, Get_elements, (const MPI_Status *status,
                                 MPI_Datatype datatype, int *count));
PROGSIM_DECL(int, Get_elements_x, (const MPI_Status *status,
                                   MPI_Datatype datatype, MPI_Count *count));
PROGSIM_DECL(int, Get_elements_c, (const MPI_Status *status,
                                   MPI_Datatype datatype, MPI_Count *count));

/* Decoding */
PROGSIM_DECL(int, Type_get_envelope, (MPI_Datatype datatype,
                                      int *num_integers, int *num_addresses,
                                      int *num_datatypes, int *combiner));
PROGSIM_DECL(int, Type_get_contents,
             (MPI_Datatype datatype, int max_integers, int max_addresses,
              int max_datatypes, int array_of_integers[],
              MPI_Aint array_of_addresses[],
              MPI_Datatype array_of_datatypes[]));
PROGSIM_DECL(int, Type_get_envelope_c,
             (MPI_Datatype datatype, MPI_Count *num_integers,
              MPI_Count *num_addresses, MPI_Count *num_large_counts,
              MPI_Count *num_datatypes, int *combiner));
PROGSIM_DECL(int, Type_get_contents_c,
             (MPI_Datatype datatype, MPI_Count max_integers,
              MPI_Count max_addresses, MPI_Count max_large_counts,
              MPI_Count max_datatypes, int array_of_integers[],
              MPI_Aint array_of_addresses[],
              MPI_Count array_of_large_counts[],
              MPI_Datatype array_of_datatypes[]));

/* Pack and unpack */
PROGSIM_DECL(int, Pack, (const void *inbuf, int incount,
                         MPI_Datatype datatype, void *outbuf, int outsize,
                         int *position, MPI_Comm comm));
PROGSIM_DECL(int, Unpack, (const void *inbuf, int insize, int *position,
                           void *outbuf, int outcount, MPI_Datatype datatype,
                           MPI_Comm comm));
PROGSIM_DECL(int, Pack_size, (int incount, MPI_Datatype datatype,
                              MPI_Comm comm, int *size));
PROGSIM_DECL(int, Pack_external, (const char datarep[], const void *inbuf,
                                  int incount, MPI_Datatype datatype,
                                  void *outbuf, MPI_Aint outsize,
                                  MPI_Aint *position));
PROGSIM_DECL(int, Unpack_external, (const char datarep[], const void *inbuf,
                                    MPI_Aint insize, MPI_Aint *position,
                                    void *outbuf, int outcount,
                                    MPI_Datatype datatype));
PROGSIM_DECL(int, Pack_external_size, (const char datarep[], int incount,
                                       MPI_Datatype datatype,
                                       MPI_Aint *size));
PROGSIM_DECL(int, Pack_c, (const void *inbuf, MPI_Count incount,
                           MPI_Datatype datatype, void *outbuf,
                           MPI_Count outsize, MPI_Count *position,
                           MPI_Comm comm));
PROGSIM_DECL(int, Unpack_c, (const void *inbuf, MPI_Count insize,
                             MPI_Count *position, void *outbuf,
                             MPI_Count outcount, MPI_Datatype datatype,
                             MPI_Comm comm));
PROGSIM_DECL(int, Pack_size_c, (MPI_Count incount, MPI_Datatype datatype,
                                MPI_Comm comm, MPI_Count *size));
PROGSIM_DECL(int, Pack_external_c, (const char datarep[], const void *inbuf,
                                    MPI_Count incount, MPI_Datatype datatype,
                                    void *outbuf, MPI_Count outsize,
                                    MPI_Count *position));
PROGSIM_DECL(int, Unpack_external_c, (const char datarep[],
                                      const void *inbuf, MPI_Count insize,
                                      MPI_Count *position, void *outbuf,
                                      MPI_Count outcount,
                                      MPI_Datatype datatype));
PROGSIM_DECL(int, Pack_external_size_c, (const char datarep[],
                                         MPI_Count incount,
                                         MPI_Datatype datatype,
                                         MPI_Count *size));

/* ======================================================================
 * MPI-4.1 §6 Collective communication
 * ====================================================================== */

/* Blocking collectives */
PROGSIM_DECL(int, Barrier, (MPI_Comm comm));
PROGSIM_DECL(int, Bcast, (void *buffer, int count, MPI_Datatype datatype,
                          int root, MPI_Comm comm));
PROGSIM_DECL(int, Gather, (const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm));
PROGSIM_DECL(int, Gatherv, (const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, int root, MPI_Comm comm));
PROGSIM_DECL(int, Scatter, (const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm));
PROGSIM_DECL(int, Scatterv, (const void *sendbuf, const int sendcounts[],
                             const int displs[], MPI_Datatype sendtype,
                             void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm));
PROGSIM_DECL(int, Allgather, (const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm));
PROGSIM_DECL(int, Allgatherv, (const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, MPI_Comm comm));
PROGSIM_DECL(int, Alltoall, (const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm));
PROGSIM_DECL(int, Alltoallv, (const void *sendbuf, const int sendcounts[],
                              const int sdispls[], MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm));
PROGSIM_DECL(int, Alltoallw, (const void *sendbuf, const int sendcounts[],
                              const int sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf,
                              const int recvcounts[], const int rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm));
PROGSIM_DECL(int, Reduce, (const void *sendbuf, void *recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op, int root,
                           MPI_Comm comm));
PROGSIM_DECL(int, Allreduce, (const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm));
PROGSIM_DECL(int, Reduce_local, (const void *inbuf, void *inoutbuf,
                                 int count, MPI_Datatype datatype,
                                 MPI_Op op));
PROGSIM_DECL(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf,
                                         int recvcount, MPI_Datatype datatype,
                                         MPI_Op op, MPI_Comm comm));
PROGSIM_DECL(int, Reduce_scatter, (const void *sendbuf, void *recvbuf,
                                   const int recvcounts[],
                                   MPI_Datatype datatype, MPI_Op op,
                                   MPI_Comm comm));
PROGSIM_DECL(int, Scan, (const void *sendbuf, void *recvbuf, int count,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
PROGSIM_DECL(int, Exscan, (const void *sendbuf, void *recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));

/* User-defined reduction operations */
PROGSIM_DECL(int, Op_create, (MPI_User_function *user_fn, int commute,
                              MPI_Op *op));
PROGSIM_DECL(int, Op_free, (MPI_Op *op));
PROGSIM_DECL(int, Op_commutative, (MPI_Op op, int *commute));

/* Nonblocking collectives */
PROGSIM_DECL(int, Ibarrier, (MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype,
                           int root, MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Igather, (const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Igatherv, (const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Request *request));
PROGSIM_DECL(int, Iscatter, (const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Iscatterv, (const void *sendbuf, const int sendcounts[],
                              const int displs[], MPI_Datatype sendtype,
                              void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Request *request));
PROGSIM_DECL(int, Iallgather, (const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Iallgatherv, (const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                const int recvcounts[], const int displs[],
                                MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request));
PROGSIM_DECL(int, Ialltoall, (const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ialltoallv, (const void *sendbuf, const int sendcounts[],
                               const int sdispls[], MPI_Datatype sendtype,
                               void *recvbuf, const int recvcounts[],
                               const int rdispls[], MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ialltoallw, (const void *sendbuf, const int sendcounts[],
                               const int sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf,
                               const int recvcounts[], const int rdispls[],
                               const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request));
PROGSIM_DECL(int, Ireduce, (const void *sendbuf, void *recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, int root,
                            MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Iallreduce, (const void *sendbuf, void *recvbuf,
                               int count, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf,
                                          int recvcount,
                                          MPI_Datatype datatype, MPI_Op op,
                                          MPI_Comm comm,
                                          MPI_Request *request));
PROGSIM_DECL(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf,
                                    const int recvcounts[],
                                    MPI_Datatype datatype, MPI_Op op,
                                    MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Iscan, (const void *sendbuf, void *recvbuf, int count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                          MPI_Request *request));
PROGSIM_DECL(int, Iexscan, (const void *sendbuf, void *recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                            MPI_Request *request));

/* Persistent collectives */
PROGSIM_DECL(int, Barrier_init, (MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request));
PROGSIM_DECL(int, Bcast_init, (void *buffer, int count,
                               MPI_Datatype datatype, int root,
                               MPI_Comm comm, MPI_Info info,
                               MPI_Request *request));
PROGSIM_DECL(int, Gather_init, (const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype,
                                int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request));
PROGSIM_DECL(int, Gatherv_init, (const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, int root,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request));
PROGSIM_DECL(int, Scatter_init, (const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype,
                                 int root, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request));
PROGSIM_DECL(int, Scatterv_init, (const void *sendbuf,
                                  const int sendcounts[], const int displs[],
                                  MPI_Datatype sendtype, void *recvbuf,
                                  int recvcount, MPI_Datatype recvtype,
                                  int root, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request));
PROGSIM_DECL(int, Allgather_init, (const void *sendbuf, int sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   int recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request));
PROGSIM_DECL(int, Allgatherv_init, (const void *sendbuf, int sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    const int recvcounts[],
                                    const int displs[], MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request));
PROGSIM_DECL(int, Alltoall_init, (const void *sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  int recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request));
PROGSIM_DECL(int, Alltoallv_init, (const void *sendbuf,
                                   const int sendcounts[],
                                   const int sdispls[], MPI_Datatype sendtype,
                                   void *recvbuf, const int recvcounts[],
                                   const int rdispls[], MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request));
PROGSIM_DECL(int, Alltoallw_init, (const void *sendbuf,
                                   const int sendcounts[],
                                   const int sdispls[],
                                   const MPI_Datatype sendtypes[],
                                   void *recvbuf, const int recvcounts[],
                                   const int rdispls[],
                                   const MPI_Datatype recvtypes[],
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request));
PROGSIM_DECL(int, Reduce_init, (const void *sendbuf, void *recvbuf,
                                int count, MPI_Datatype datatype, MPI_Op op,
                                int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request));
PROGSIM_DECL(int, Allreduce_init, (const void *sendbuf, void *recvbuf,
                                   int count, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request));
PROGSIM_DECL(int, Reduce_scatter_block_init,
             (const void *sendbuf, void *recvbuf, int recvcount,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
              MPI_Request *request));
PROGSIM_DECL(int, Reduce_scatter_init,
             (const void *sendbuf, void *recvbuf, const int recvcounts[],
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
              MPI_Request *request));
PROGSIM_DECL(int, Scan_init, (const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Info info,
                              MPI_Request *request));
PROGSIM_DECL(int, Exscan_init, (const void *sendbuf, void *recvbuf,
                                int count, MPI_Datatype datatype, MPI_Op op,
                                MPI_Comm comm, MPI_Info info,
                                MPI_Request *request));


/* Large-count variants (MPI-4.1 §19.2): MPI_Count counts, MPI_Aint
 * displacements. */
PROGSIM_DECL(int, Bcast_c,
             (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
              MPI_Comm comm));
PROGSIM_DECL(int, Gather_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              int root, MPI_Comm comm));
PROGSIM_DECL(int, Gatherv_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint displs[], MPI_Datatype recvtype, int root,
              MPI_Comm comm));
PROGSIM_DECL(int, Scatter_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              int root, MPI_Comm comm));
PROGSIM_DECL(int, Scatterv_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
              MPI_Count recvcount, MPI_Datatype recvtype, int root,
              MPI_Comm comm));
PROGSIM_DECL(int, Allgather_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              MPI_Comm comm));
PROGSIM_DECL(int, Allgatherv_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm));
PROGSIM_DECL(int, Alltoall_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              MPI_Comm comm));
PROGSIM_DECL(int, Alltoallv_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm));
PROGSIM_DECL(int, Alltoallw_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm));
PROGSIM_DECL(int, Reduce_c,
             (const void *sendbuf, void *recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm));
PROGSIM_DECL(int, Allreduce_c,
             (const void *sendbuf, void *recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
PROGSIM_DECL(int, Reduce_local_c,
             (const void *inbuf, void *inoutbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op));
PROGSIM_DECL(int, Reduce_scatter_block_c,
             (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
PROGSIM_DECL(int, Reduce_scatter_c,
             (const void *sendbuf, void *recvbuf,
              const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm));
PROGSIM_DECL(int, Scan_c,
             (const void *sendbuf, void *recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
PROGSIM_DECL(int, Exscan_c,
             (const void *sendbuf, void *recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
PROGSIM_DECL(int, Ibcast_c,
             (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Igather_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              int root, MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Igatherv_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint displs[], MPI_Datatype recvtype, int root,
              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Iscatter_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              int root, MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Iscatterv_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
              MPI_Count recvcount, MPI_Datatype recvtype, int root,
              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Iallgather_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Iallgatherv_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
              MPI_Request *request));
PROGSIM_DECL(int, Ialltoall_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ialltoallv_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ialltoallw_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ireduce_c,
             (const void *sendbuf, void *recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
              MPI_Request *request));
PROGSIM_DECL(int, Iallreduce_c,
             (const void *sendbuf, void *recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Request *request));
PROGSIM_DECL(int, Ireduce_scatter_block_c,
             (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Request *request));
PROGSIM_DECL(int, Ireduce_scatter_c,
             (const void *sendbuf, void *recvbuf,
              const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Iscan_c,
             (const void *sendbuf, void *recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Request *request));
PROGSIM_DECL(int, Iexscan_c,
             (const void *sendbuf, void *recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Request *request));
PROGSIM_DECL(int, Bcast_init_c,
             (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
              MPI_Comm comm, MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Gather_init_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              int root, MPI_Comm comm, MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Gatherv_init_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint displs[], MPI_Datatype recvtype, int root,
              MPI_Comm comm, MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Scatter_init_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              int root, MPI_Comm comm, MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Scatterv_init_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
              MPI_Count recvcount, MPI_Datatype recvtype, int root,
              MPI_Comm comm, MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Allgather_init_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              MPI_Comm comm, MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Allgatherv_init_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
              MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Alltoall_init_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              MPI_Comm comm, MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Alltoallv_init_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
              MPI_Request *request));
PROGSIM_DECL(int, Alltoallw_init_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm, MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Reduce_init_c,
             (const void *sendbuf, void *recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
              MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Allreduce_init_c,
             (const void *sendbuf, void *recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
              MPI_Request *request));
PROGSIM_DECL(int, Reduce_scatter_block_init_c,
             (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
              MPI_Request *request));
PROGSIM_DECL(int, Reduce_scatter_init_c,
             (const void *sendbuf, void *recvbuf,
              const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Scan_init_c,
             (const void *sendbuf, void *recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
              MPI_Request *request));
PROGSIM_DECL(int, Exscan_init_c,
             (const void *sendbuf, void *recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
              MPI_Request *request));

/* ======================================================================
 * MPI-4.1 §7 Groups, contexts, communicators and caching
 * ====================================================================== */

/* Groups */
PROGSIM_DECL(int, Group_size, (MPI_Group group, int *size));
PROGSIM_DECL(int, Group_rank, (MPI_Group group, int *rank));
PROGSIM_DECL(int, Group_translate_ranks, (MPI_Group group1, int n,
                                          const int ranks1[],
                                          MPI_Group group2, int ranks2[]));
PROGSIM_DECL(int, Group_compare, (MPI_Group group1, MPI_Group group2,
                                  int *result));
PROGSIM_DECL(int, Comm_group, (MPI_Comm comm, MPI_Group *group));
PROGSIM_DECL(int, Group_union, (MPI_Group group1, MPI_Group group2,
                                MPI_Group *newgroup));
PROGSIM_DECL(int, Group_intersection, (MPI_Group group1, MPI_Group group2,
                                       MPI_Group *newgroup));
PROGSIM_DECL(int, Group_difference, (MPI_Group group1, MPI_Group group2,
                                     MPI_Group *newgroup));
PROGSIM_DECL(int, Group_incl, (MPI_Group group, int n, const int ranks[],
                               MPI_Group *newgroup));
PROGSIM_DECL(int, Group_excl, (MPI_Group group, int n, const int ranks[],
                               MPI_Group *newgroup));
PROGSIM_DECL(int, Group_range_incl, (MPI_Group group, int n,
                                     int ranges[][3], MPI_Group *newgroup));
PROGSIM_DECL(int, Group_range_excl, (MPI_Group group, int n,
                                     int ranges[][3], MPI_Group *newgroup));
PROGSIM_DECL(int, Group_free, (MPI_Group *group));

/* Communicator accessors */
PROGSIM_DECL(int, Comm_size, (MPI_Comm comm, int *size));
PROGSIM_DECL(int, Comm_rank, (MPI_Comm comm, int *rank));
PROGSIM_DECL(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2,
                                 int *result));
PROGSIM_DECL(int, Comm_test_inter, (MPI_Comm comm, int *flag));
PROGSIM_DECL(int, Comm_remote_size, (MPI_Comm comm, int *size));
PROGSIM_DECL(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group));

/* Communicator constructors and destructor */
PROGSIM_DECL(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm));
PROGSIM_DECL(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info,
                                       MPI_Comm *newcomm));
PROGSIM_DECL(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm,
                              MPI_Request *request));
PROGSIM_DECL(int, Comm_idup_with_info, (MPI_Comm comm, MPI_Info info,
                                        MPI_Comm *newcomm,
                                        MPI_Request *request));
PROGSIM_DECL(int, Comm_create, (MPI_Comm comm, MPI_Group group,
                                MPI_Comm *newcomm));
PROGSIM_DECL(int, Comm_create_group, (MPI_Comm comm, MPI_Group group,
                                      int tag, MPI_Comm *newcomm));
PROGSIM_DECL(int, Comm_create_from_group, (MPI_Group group,
                                           const char *stringtag,
                                           MPI_Info info,
                                           MPI_Errhandler errhandler,
                                           MPI_Comm *newcomm));
PROGSIM_DECL(int, Comm_split, (MPI_Comm comm, int color, int key,
                               MPI_Comm *newcomm));
PROGSIM_DECL(int, Comm_split_type, (MPI_Comm comm, int split_type, int key,
                                    MPI_Info info, MPI_Comm *newcomm));
PROGSIM_DECL(int, Comm_free, (MPI_Comm *comm));
PROGSIM_DECL(int, Comm_set_info, (MPI_Comm comm, MPI_Info info));
PROGSIM_DECL(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used));

/* Inter-communicators */
PROGSIM_DECL(int, Intercomm_create, (MPI_Comm local_comm, int local_leader,
                                     MPI_Comm peer_comm, int remote_leader,
                                     int tag, MPI_Comm *newintercomm));
PROGSIM_DECL(int, Intercomm_create_from_groups,
             (MPI_Group local_group, int local_leader,
              MPI_Group remote_group, int remote_leader,
              const char *stringtag, MPI_Info info,
              MPI_Errhandler errhandler, MPI_Comm *newintercomm));
PROGSIM_DECL(int, Intercomm_merge, (MPI_Comm intercomm, int high,
                                    MPI_Comm *newintracomm));

/* Caching on communicators */
PROGSIM_DECL(int, Comm_create_keyval,
             (MPI_Comm_copy_attr_function *comm_copy_attr_fn,
              MPI_Comm_delete_attr_function *comm_delete_attr_fn,
              int *comm_keyval, void *extra_state));
PROGSIM_DECL(int, Comm_free_keyval, (int *comm_keyval));
PROGSIM_DECL(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval,
                                  void *attribute_val));
PROGSIM_DECL(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval,
                                  void *attribute_val, int *flag));
PROGSIM_DECL(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval));

/* Caching on windows */
PROGSIM_DECL(int, Win_create_keyval,
             (MPI_Win_copy_attr_function *win_copy_attr_fn,
              MPI_Win_delete_attr_function *win_delete_attr_fn,
              int *win_keyval, void *extra_state));
PROGSIM_DECL(int, Win_free_keyval, (int *win_keyval));
PROGSIM_DECL(int, Win_set_attr, (MPI_Win win, int win_keyval,
                                 void *attribute_val));
PROGSIM_DECL(int, Win_get_attr, (MPI_Win win, int win_keyval,
                                 void *attribute_val, int *flag));
PROGSIM_DECL(int, Win_delete_attr, (MPI_Win win, int win_keyval));

/* Caching on datatypes */
PROGSIM_DECL(int, Type_create_keyval,
             (MPI_Type_copy_attr_function *type_copy_attr_fn,
              MPI_Type_delete_attr_function *type_delete_attr_fn,
              int *type_keyval, void *extra_state));
PROGSIM_DECL(int, Type_free_keyval, (int *type_keyval));
PROGSIM_DECL(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval,
                                  void *attribute_val));
PROGSIM_DECL(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval,
                                  void *attribute_val, int *flag));
PROGSIM_DECL(int, Type_delete_attr, (MPI_Datatype datatype,
                                     int type_keyval));

/* Naming objects */
PROGSIM_DECL(int, Comm_set_name, (MPI_Comm comm, const char *comm_name));
PROGSIM_DECL(int, Comm_get_name, (MPI_Comm comm, char *comm_name,
                                  int *resultlen));
PROGSIM_DECL(int, Type_set_name, (MPI_Datatype datatype,
                                  const char *type_name));
PROGSIM_DECL(int, Type_get_name, (MPI_Datatype datatype, char *type_name,
                                  int *resultlen));
PROGSIM_DECL(int, Win_set_name, (MPI_Win win, const char *win_name));
PROGSIM_DECL(int, Win_get_name, (MPI_Win win, char *win_name,
                                 int *resultlen));

/* ======================================================================
 * MPI-4.1 §8 Process topologies
 * ====================================================================== */

/* Constructors */
PROGSIM_DECL(int, Cart_create, (MPI_Comm comm_old, int ndims,
                                const int dims[], const int periods[],
                                int reorder, MPI_Comm *comm_cart));
PROGSIM_DECL(int, Dims_create, (int nnodes, int ndims, int dims[]));
PROGSIM_DECL(int, Graph_create, (MPI_Comm comm_old, int nnodes,
                                 const int index[], const int edges[],
                                 int reorder, MPI_Comm *comm_graph));
PROGSIM_DECL(int, Dist_graph_create_adjacent,
             (MPI_Comm comm_old, int indegree, const int sources[],
              const int sourceweights[], int outdegree,
              const int destinations[], const int destweights[],
              MPI_Info info, int reorder, MPI_Comm *comm_dist_graph));
PROGSIM_DECL(int, Dist_graph_create,
             (MPI_Comm comm_old, int n, const int sources[],
              const int degrees[], const int destinations[],
              const int weights[], MPI_Info info, int reorder,
              MPI_Comm *comm_dist_graph));

/* Inquiry */
PROGSIM_DECL(int, Topo_test, (MPI_Comm comm, int *status));
PROGSIM_DECL(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges));
PROGSIM_DECL(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges,
                              int index[], int edges[]));
PROGSIM_DECL(int, Cartdim_get, (MPI_Comm comm, int *ndims));
PROGSIM_DECL(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[],
                             int periods[], int coords[]));
PROGSIM_DECL(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank));
PROGSIM_DECL(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims,
                                int coords[]));
PROGSIM_DECL(int, Graph_neighbors_count, (MPI_Comm comm, int rank,
                                          int *nneighbors));
PROGSIM_DECL(int, Graph_neighbors, (MPI_Comm comm, int rank,
                                    int maxneighbors, int neighbors[]));
PROGSIM_DECL(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree,
                                               int *outdegree,
                                               int *weighted));
PROGSIM_DECL(int, Dist_graph_neighbors,
             (MPI_Comm comm, int maxindegree, int sources[],
              int sourceweights[], int maxoutdegree, int destinations[],
              int destweights[]));
PROGSIM_DECL(int, Cart_shift, (MPI_Comm comm, int direction, int disp,
                               int *rank_source, int *rank_dest));
PROGSIM_DECL(int, Cart_sub, (MPI_Comm comm, const int remain_dims[],
                             MPI_Comm *newcomm));

/* Low-level mapping */
PROGSIM_DECL(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[],
                             const int periods[], int *newrank));
PROGSIM_DECL(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[],
                              const int edges[], int *newrank));

/* Neighborhood collectives, blocking */
PROGSIM_DECL(int, Neighbor_allgather, (const void *sendbuf, int sendcount,
                                       MPI_Datatype sendtype, void *recvbuf,
                                       int recvcount, MPI_Datatype recvtype,
                                       MPI_Comm comm));
PROGSIM_DECL(int, Neighbor_allgatherv,
             (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
              void *recvbuf, const int recvcounts[], const int displs[],
              MPI_Datatype recvtype, MPI_Comm comm));
PROGSIM_DECL(int, Neighbor_alltoall, (const void *sendbuf, int sendcount,
                                      MPI_Datatype sendtype, void *recvbuf,
                                      int recvcount, MPI_Datatype recvtype,
                                      MPI_Comm comm));
PROGSIM_DECL(int, Neighbor_alltoallv,
             (const void *sendbuf, const int sendcounts[],
              const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
              const int recvcounts[], const int rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm));
PROGSIM_DECL(int, Neighbor_alltoallw,
             (const void *sendbuf, const int sendcounts[],
              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
              void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
              const MPI_Datatype recvtypes[], MPI_Comm comm));

/* Neighborhood collectives, nonblocking */
PROGSIM_DECL(int, Ineighbor_allgather,
             (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
              void *recvbuf, int recvcount, MPI_Datatype recvtype,
              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ineighbor_allgatherv,
             (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
              void *recvbuf, const int recvcounts[], const int displs[],
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ineighbor_alltoall,
             (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
              void *recvbuf, int recvcount, MPI_Datatype recvtype,
              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ineighbor_alltoallv,
             (const void *sendbuf, const int sendcounts[],
              const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
              const int recvcounts[], const int rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ineighbor_alltoallw,
             (const void *sendbuf, const int sendcounts[],
              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
              void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
              const MPI_Datatype recvtypes[], MPI_Comm comm,
              MPI_Request *request));

/* Neighborhood collectives, persistent */
PROGSIM_DECL(int, Neighbor_allgather_init,
             (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
              void *recvbuf, int recvcount, MPI_Datatype recvtype,
              MPI_Comm comm, MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Neighbor_allgatherv_init,
             (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
              void *recvbuf, const int recvcounts[], const int displs[],
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
              MPI_Request *request));
PROGSIM_DECL(int, Neighbor_alltoall_init,
             (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
              void *recvbuf, int recvcount, MPI_Datatype recvtype,
              MPI_Comm comm, MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Neighbor_alltoallv_init,
             (const void *sendbuf, const int sendcounts[],
              const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
              const int recvcounts[], const int rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
              MPI_Request *request));
PROGSIM_DECL(int, Neighbor_alltoallw_init,
             (const void *sendbuf, const int sendcounts[],
              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
              void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
              const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
              MPI_Request *request));

/* Neighborhood collectives, large-count variants (MPI-4.1 §19.2) */
PROGSIM_DECL(int, Neighbor_allgather_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              MPI_Comm comm));
PROGSIM_DECL(int, Neighbor_allgatherv_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm));
PROGSIM_DECL(int, Neighbor_alltoall_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              MPI_Comm comm));
PROGSIM_DECL(int, Neighbor_alltoallv_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm));
PROGSIM_DECL(int, Neighbor_alltoallw_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm));
PROGSIM_DECL(int, Ineighbor_allgather_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ineighbor_allgatherv_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
              MPI_Request *request));
PROGSIM_DECL(int, Ineighbor_alltoall_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ineighbor_alltoallv_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Ineighbor_alltoallw_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm, MPI_Request *request));
PROGSIM_DECL(int, Neighbor_allgather_init_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              MPI_Comm comm, MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Neighbor_allgatherv_init_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
              MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Neighbor_alltoall_init_c,
             (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              MPI_Comm comm, MPI_Info info, MPI_Request *request));
PROGSIM_DECL(int, Neighbor_alltoallv_init_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
              MPI_Request *request));
PROGSIM_DECL(int, Neighbor_alltoallw_init_c,
             (const void *sendbuf, const MPI_Count sendcounts[],
              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
              void *recvbuf, const MPI_Count recvcounts[],
              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm, MPI_Info info, MPI_Request *request));

/* ======================================================================
 * MPI-4.1 §9 MPI environmental management
 * ====================================================================== */

/* Implementation information */
PROGSIM_DECL(int, Get_version, (int *version, int *subversion));
PROGSIM_DECL(int, Get_library_version, (char *version, int *resultlen));
PROGSIM_DECL(int, Get_processor_name, (char *name, int *resultlen));
PROGSIM_DECL(int, Get_hw_resource_info, (MPI_Info *hw_info));

/* Memory allocation */
PROGSIM_DECL(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr));
PROGSIM_DECL(int, Free_mem, (void *base));

/* Error handlers */
PROGSIM_DECL(int, Comm_create_errhandler,
             (MPI_Comm_errhandler_function *comm_errhandler_fn,
              MPI_Errhandler *errhandler));
PROGSIM_DECL(int, Comm_set_errhandler, (MPI_Comm comm,
                                        MPI_Errhandler errhandler));
PROGSIM_DECL(int, Comm_get_errhandler, (MPI_Comm comm,
                                        MPI_Errhandler *errhandler));
PROGSIM_DECL(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode));
PROGSIM_DECL(int, Win_create_errhandler,
             (MPI_Win_errhandler_function *win_errhandler_fn,
              MPI_Errhandler *errhandler));
PROGSIM_DECL(int, Win_set_errhandler, (MPI_Win win,
                                       MPI_Errhandler errhandler));
PROGSIM_DECL(int, Win_get_errhandler, (MPI_Win win,
                                       MPI_Errhandler *errhandler));
PROGSIM_DECL(int, Win_call_errhandler, (MPI_Win win, int errorcode));
PROGSIM_DECL(int, File_create_errhandler,
             (MPI_File_errhandler_function *file_errhandler_fn,
              MPI_Errhandler *errhandler));
PROGSIM_DECL(int, File_set_errhandler, (MPI_File file,
                                        MPI_Errhandler errhandler));
PROGSIM_DECL(int, File_get_errhandler, (MPI_File file,
                                        MPI_Errhandler *errhandler));
PROGSIM_DECL(int, File_call_errhandler, (MPI_File fh, int errorcode));
PROGSIM_DECL(int, Session_create_errhandler,
             (MPI_Session_errhandler_function *session_errhandler_fn,
              MPI_Errhandler *errhandler));
PROGSIM_DECL(int, Session_set_errhandler, (MPI_Session session,
                                           MPI_Errhandler errhandler));
PROGSIM_DECL(int, Session_get_errhandler, (MPI_Session session,
                                           MPI_Errhandler *errhandler));
PROGSIM_DECL(int, Session_call_errhandler, (MPI_Session session,
                                            int errorcode));
PROGSIM_DECL(int, Errhandler_free, (MPI_Errhandler *errhandler));

/* Error codes and classes */
PROGSIM_DECL(int, Error_string, (int errorcode, char *string,
                                 int *resultlen));
PROGSIM_DECL(int, Error_class, (int errorcode, int *errorclass));
PROGSIM_DECL(int, Add_error_class, (int *errorclass));
PROGSIM_DECL(int, Add_error_code, (int errorclass, int *errorcode));
PROGSIM_DECL(int, Add_error_string, (int errorcode, const char *string));
PROGSIM_DECL(int, Remove_error_class, (int errorclass));
PROGSIM_DECL(int, Remove_error_code, (int errorcode));
PROGSIM_DECL(int, Remove_error_string, (int errorcode));

/* Timers (simulated time) */
PROGSIM_DECL(double, Wtime, (void));
PROGSIM_DECL(double, Wtick, (void));

/* ======================================================================
 * MPI-4.1 §10 The Info object
 * ====================================================================== */

PROGSIM_DECL(int, Info_create, (MPI_Info *info));
PROGSIM_DECL(int, Info_create_env, (int argc, char *argv[], MPI_Info *info));
PROGSIM_DECL(int, Info_set, (MPI_Info info, const char *key,
                             const char *value));
PROGSIM_DECL(int, Info_delete, (MPI_Info info, const char *key));
PROGSIM_DECL(int, Info_get_string, (MPI_Info info, const char *key,
                                    int *buflen, char *value, int *flag));
PROGSIM_DECL(int, Info_get_nkeys, (MPI_Info info, int *nkeys));
PROGSIM_DECL(int, Info_get_nthkey, (MPI_Info info, int n, char *key));
PROGSIM_DECL(int, Info_dup, (MPI_Info info, MPI_Info *newinfo));
PROGSIM_DECL(int, Info_free, (MPI_Info *info));

/* ======================================================================
 * MPI-4.1 §11 Process initialization, creation and management
 * ====================================================================== */

/* The World Model */
PROGSIM_DECL(int, Init, (int *argc, char ***argv));
PROGSIM_DECL(int, Init_thread, (int *argc, char ***argv, int required,
                                int *provided));
PROGSIM_DECL(int, Finalize, (void));
PROGSIM_DECL(int, Initialized, (int *flag));
PROGSIM_DECL(int, Finalized, (int *flag));
PROGSIM_DECL(int, Abort, (MPI_Comm comm, int errorcode));
PROGSIM_DECL(int, Query_thread, (int *provided));
PROGSIM_DECL(int, Is_thread_main, (int *flag));

/* The Sessions Model */
PROGSIM_DECL(int, Session_init, (MPI_Info info, MPI_Errhandler errhandler,
                                 MPI_Session *session));
PROGSIM_DECL(int, Session_finalize, (MPI_Session *session));
PROGSIM_DECL(int, Session_get_num_psets, (MPI_Session session, MPI_Info info,
                                          int *npset_names));
PROGSIM_DECL(int, Session_get_nth_pset, (MPI_Session session, MPI_Info info,
                                         int n, int *pset_len,
                                         char *pset_name));
PROGSIM_DECL(int, Session_get_info, (MPI_Session session,
                                     MPI_Info *info_used));
PROGSIM_DECL(int, Session_get_pset_info, (MPI_Session session,
                                          const char *pset_name,
                                          MPI_Info *info));
PROGSIM_DECL(int, Group_from_session_pset, (MPI_Session session,
                                            const char *pset_name,
                                            MPI_Group *newgroup));

/* Dynamic process management (declared only; not implemented) */
PROGSIM_DECL(int, Comm_spawn, (const char *command, char *argv[],
                               int maxprocs, MPI_Info info, int root,
                               MPI_Comm comm, MPI_Comm *intercomm,
                               int array_of_errcodes[]));
PROGSIM_DECL(int, Comm_spawn_multiple,
             (int count, char *array_of_commands[], char **array_of_argv[],
              const int array_of_maxprocs[], const MPI_Info array_of_info[],
              int root, MPI_Comm comm, MPI_Comm *intercomm,
              int array_of_errcodes[]));
PROGSIM_DECL(int, Comm_get_parent, (MPI_Comm *parent));
PROGSIM_DECL(int, Open_port, (MPI_Info info, char *port_name));
PROGSIM_DECL(int, Close_port, (const char *port_name));
PROGSIM_DECL(int, Comm_accept, (const char *port_name, MPI_Info info,
                                int root, MPI_Comm comm, MPI_Comm *newcomm));
PROGSIM_DECL(int, Comm_connect, (const char *port_name, MPI_Info info,
                                 int root, MPI_Comm comm, MPI_Comm *newcomm));
PROGSIM_DECL(int, Publish_name, (const char *service_name, MPI_Info info,
                                 const char *port_name));
PROGSIM_DECL(int, Unpublish_name, (const char *service_name, MPI_Info info,
                                   const char *port_name));
PROGSIM_DECL(int, Lookup_name, (const char *service_name, MPI_Info info,
                                char *port_name));
PROGSIM_DECL(int, Comm_disconnect, (MPI_Comm *comm));
PROGSIM_DECL(int, Comm_join, (int fd, MPI_Comm *intercomm));

/* ======================================================================
 * MPI-4.1 §12 One-sided communications
 * ====================================================================== */

/* Window creation and destruction */
PROGSIM_DECL(int, Win_create, (void *base, MPI_Aint size, int disp_unit,
                               MPI_Info info, MPI_Comm comm, MPI_Win *win));
PROGSIM_DECL(int, Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info,
                                 MPI_Comm comm, void *baseptr, MPI_Win *win));
PROGSIM_DECL(int, Win_allocate_shared, (MPI_Aint size, int disp_unit,
                                        MPI_Info info, MPI_Comm comm,
                                        void *baseptr, MPI_Win *win));
PROGSIM_DECL(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size,
                                     int *disp_unit, void *baseptr));
PROGSIM_DECL(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm,
                                       MPI_Win *win));
PROGSIM_DECL(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size));
PROGSIM_DECL(int, Win_detach, (MPI_Win win, const void *base));
PROGSIM_DECL(int, Win_free, (MPI_Win *win));

/* Window attributes and info */
PROGSIM_DECL(int, Win_get_group, (MPI_Win win, MPI_Group *group));
PROGSIM_DECL(int, Win_set_info, (MPI_Win win, MPI_Info info));
PROGSIM_DECL(int, Win_get_info, (MPI_Win win, MPI_Info *info_used));

/* Communication calls */
PROGSIM_DECL(int, Put, (const void *origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Win win));
PROGSIM_DECL(int, Get, (void *origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Win win));
PROGSIM_DECL(int, Accumulate, (const void *origin_addr, int origin_count,
                               MPI_Datatype origin_datatype, int target_rank,
                               MPI_Aint target_disp, int target_count,
                               MPI_Datatype target_datatype, MPI_Op op,
                               MPI_Win win));
PROGSIM_DECL(int, Get_accumulate,
             (const void *origin_addr, int origin_count,
              MPI_Datatype origin_datatype, void *result_addr,
              int result_count, MPI_Datatype result_datatype,
              int target_rank, MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
PROGSIM_DECL(int, Fetch_and_op, (const void *origin_addr, void *result_addr,
                                 MPI_Datatype datatype, int target_rank,
                                 MPI_Aint target_disp, MPI_Op op,
                                 MPI_Win win));
PROGSIM_DECL(int, Compare_and_swap, (const void *origin_addr,
                                     const void *compare_addr,
                                     void *result_addr, MPI_Datatype datatype,
                                     int target_rank, MPI_Aint target_disp,
                                     MPI_Win win));

/* Request-based communication calls */
PROGSIM_DECL(int, Rput, (const void *origin_addr, int origin_count,
                         MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request *request));
PROGSIM_DECL(int, Rget, (void *origin_addr, int origin_count,
                         MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request *request));
PROGSIM_DECL(int, Raccumulate, (const void *origin_addr, int origin_count,
                                MPI_Datatype origin_datatype,
                                int target_rank, MPI_Aint target_disp,
                                int target_count,
                                MPI_Datatype target_datatype, MPI_Op op,
                                MPI_Win win, MPI_Request *request));
PROGSIM_DECL(int, Rget_accumulate,
             (const void *origin_addr, int origin_count,
              MPI_Datatype origin_datatype, void *result_addr,
              int result_count, MPI_Datatype result_datatype,
              int target_rank, MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
              MPI_Request *request));

/* Active target synchronization: fence and PSCW */
PROGSIM_DECL(int, Win_fence, (int assert, MPI_Win win));
PROGSIM_DECL(int, Win_start, (MPI_Group group, int assert, MPI_Win win));
PROGSIM_DECL(int, Win_complete, (MPI_Win win));
PROGSIM_DECL(int, Win_post, (MPI_Group group, int assert, MPI_Win win));
PROGSIM_DECL(int, Win_wait, (MPI_Win win));
PROGSIM_DECL(int, Win_test, (MPI_Win win, int *flag));

/* Passive target synchronization */
PROGSIM_DECL(int, Win_lock, (int lock_type, int rank, int assert,
                             MPI_Win win));
PROGSIM_DECL(int, Win_lock_all, (int assert, MPI_Win win));
PROGSIM_DECL(int, Win_unlock, (int rank, MPI_Win win));
PROGSIM_DECL(int, Win_unlock_all, (MPI_Win win));
PROGSIM_DECL(int, Win_flush, (int rank, MPI_Win win));
PROGSIM_DECL(int, Win_flush_all, (MPI_Win win));
PROGSIM_DECL(int, Win_flush_local, (int rank, MPI_Win win));
PROGSIM_DECL(int, Win_flush_local_all, (MPI_Win win));
PROGSIM_DECL(int, Win_sync, (MPI_Win win));

/* ======================================================================
 * MPI-4.1 §13 External interfaces
 * ====================================================================== */

PROGSIM_DECL(int, Grequest_start,
             (MPI_Grequest_query_function *query_fn,
              MPI_Grequest_free_function *free_fn,
              MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
              MPI_Request *request));
PROGSIM_DECL(int, Grequest_complete, (MPI_Request request));
PROGSIM_DECL(int, Status_set_elements, (MPI_Status *status,
                                        MPI_Datatype datatype, int count));
PROGSIM_DECL(int, Status_set_elements_x, (MPI_Status *status,
                                          MPI_Datatype datatype,
                                          MPI_Count count));
PROGSIM_DECL(int, Status_set_elements_c, (MPI_Status *status,
                                          MPI_Datatype datatype,
                                          MPI_Count count));
PROGSIM_DECL(int, Status_set_cancelled, (MPI_Status *status, int flag));

/* ======================================================================
 * MPI-4.1 §14 I/O (declared only; not implemented)
 * ====================================================================== */

/* File manipulation */
PROGSIM_DECL(int, File_open, (MPI_Comm comm, const char *filename, int amode,
                              MPI_Info info, MPI_File *fh));
PROGSIM_DECL(int, File_close, (MPI_File *fh));
PROGSIM_DECL(int, File_delete, (const char *filename, MPI_Info info));
PROGSIM_DECL(int, File_set_size, (MPI_File fh, MPI_Offset size));
PROGSIM_DECL(int, File_preallocate, (MPI_File fh, MPI_Offset size));
PROGSIM_DECL(int, File_get_size, (MPI_File fh, MPI_Offset *size));
PROGSIM_DECL(int, File_get_group, (MPI_File fh, MPI_Group *group));
PROGSIM_DECL(int, File_get_amode, (MPI_File fh, int *amode));
PROGSIM_DECL(int, File_set_info, (MPI_File fh, MPI_Info info));
PROGSIM_DECL(int, File_get_info, (MPI_File fh, MPI_Info *info_used));

/* File views */
PROGSIM_DECL(int, File_set_view, (MPI_File fh, MPI_Offset disp,
                                  MPI_Datatype etype, MPI_Datatype filetype,
                                  const char *datarep, MPI_Info info));
PROGSIM_DECL(int, File_get_view, (MPI_File fh, MPI_Offset *disp,
                                  MPI_Datatype *etype, MPI_Datatype *filetype,
                                  char *datarep));

/* Data access with explicit offsets */
PROGSIM_DECL(int, File_read_at, (MPI_File fh, MPI_Offset offset, void *buf,
                                 int count, MPI_Datatype datatype,
                                 MPI_Status *status));
PROGSIM_DECL(int, File_read_at_all, (MPI_File fh, MPI_Offset offset,
                                     void *buf, int count,
                                     MPI_Datatype datatype,
                                     MPI_Status *status));
PROGSIM_DECL(int, File_write_at, (MPI_File fh, MPI_Offset offset,
                                  const void *buf, int count,
                                  MPI_Datatype datatype, MPI_Status *status));
PROGSIM_DECL(int, File_write_at_all, (MPI_File fh, MPI_Offset offset,
                                      const void *buf, int count,
                                      MPI_Datatype datatype,
                                      MPI_Status *status));
PROGSIM_DECL(int, File_iread_at, (MPI_File fh, MPI_Offset offset, void *buf,
                                  int count, MPI_Datatype datatype,
                                  MPI_Request *request));
PROGSIM_DECL(int, File_iwrite_at, (MPI_File fh, MPI_Offset offset,
                                   const void *buf, int count,
                                   MPI_Datatype datatype,
                                   MPI_Request *request));
PROGSIM_DECL(int, File_iread_at_all, (MPI_File fh, MPI_Offset offset,
                                      void *buf, int count,
                                      MPI_Datatype datatype,
                                      MPI_Request *request));
PROGSIM_DECL(int, File_iwrite_at_all, (MPI_File fh, MPI_Offset offset,
                                       const void *buf, int count,
                                       MPI_Datatype datatype,
                                       MPI_Request *request));

/* Data access with individual file pointers */
PROGSIM_DECL(int, File_read, (MPI_File fh, void *buf, int count,
                              MPI_Datatype datatype, MPI_Status *status));
PROGSIM_DECL(int, File_read_all, (MPI_File fh, void *buf, int count,
                                  MPI_Datatype datatype, MPI_Status *status));
PROGSIM_DECL(int, File_write, (MPI_File fh, const void *buf, int count,
                               MPI_Datatype datatype, MPI_Status *status));
PROGSIM_DECL(int, File_write_all, (MPI_File fh, const void *buf, int count,
                                   MPI_Datatype datatype,
                                   MPI_Status *status));
PROGSIM_DECL(int, File_iread, (MPI_File fh, void *buf, int count,
                               MPI_Datatype datatype, MPI_Request *request));
PROGSIM_DECL(int, File_iwrite, (MPI_File fh, const void *buf, int count,
                                MPI_Datatype datatype, MPI_Request *request));
PROGSIM_DECL(int, File_iread_all, (MPI_File fh, void *buf, int count,
                                   MPI_Datatype datatype,
                                   MPI_Request *request));
PROGSIM_DECL(int, File_iwrite_all, (MPI_File fh, const void *buf, int count,
                                    MPI_Datatype datatype,
                                    MPI_Request *request));
PROGSIM_DECL(int, File_seek, (MPI_File fh, MPI_Offset offset, int whence));
PROGSIM_DECL(int, File_get_position, (MPI_File fh, MPI_Offset *offset));
PROGSIM_DECL(int, File_get_byte_offset, (MPI_File fh, MPI_Offset offset,
                                         MPI_Offset *disp));

/* Data access with shared file pointers */
PROGSIM_DECL(int, File_read_shared, (MPI_File fh, void *buf, int count,
                                     MPI_Datatype datatype,
                                     MPI_Status *status));
PROGSIM_DECL(int, File_write_shared, (MPI_File fh, const void *buf,
                                      int count, MPI_Datatype datatype,
                                      MPI_Status *status));
PROGSIM_DECL(int, File_iread_shared, (MPI_File fh, void *buf, int count,
                                      MPI_Datatype datatype,
                                      MPI_Request *request));
PROGSIM_DECL(int, File_iwrite_shared, (MPI_File fh, const void *buf,
                                       int count, MPI_Datatype datatype,
                                       MPI_Request *request));
PROGSIM_DECL(int, File_read_ordered, (MPI_File fh, void *buf, int count,
                                      MPI_Datatype datatype,
                                      MPI_Status *status));
PROGSIM_DECL(int, File_write_ordered, (MPI_File fh, const void *buf,
                                       int count, MPI_Datatype datatype,
                                       MPI_Status *status));
PROGSIM_DECL(int, File_seek_shared, (MPI_File fh, MPI_Offset offset,
                                     int whence));
PROGSIM_DECL(int, File_get_position_shared, (MPI_File fh,
                                             MPI_Offset *offset));

/* Split collective data access */
PROGSIM_DECL(int, File_read_at_all_begin, (MPI_File fh, MPI_Offset offset,
                                           void *buf, int count,
                                           MPI_Datatype datatype));
PROGSIM_DECL(int, File_read_at_all_end, (MPI_File fh, void *buf,
                                         MPI_Status *status));
PROGSIM_DECL(int, File_write_at_all_begin, (MPI_File fh, MPI_Offset offset,
                                            const void *buf, int count,
                                            MPI_Datatype datatype));
PROGSIM_DECL(int, File_write_at_all_end, (MPI_File fh, const void *buf,
                                          MPI_Status *status));
PROGSIM_DECL(int, File_read_all_begin, (MPI_File fh, void *buf, int count,
                                        MPI_Datatype datatype));
PROGSIM_DECL(int, File_read_all_end, (MPI_File fh, void *buf,
                                      MPI_Status *status));
PROGSIM_DECL(int, File_write_all_begin, (MPI_File fh, const void *buf,
                                         int count, MPI_Datatype datatype));
PROGSIM_DECL(int, File_write_all_end, (MPI_File fh, const void *buf,
                                       MPI_Status *status));
PROGSIM_DECL(int, File_read_ordered_begin, (MPI_File fh, void *buf,
                                            int count,
                                            MPI_Datatype datatype));
PROGSIM_DECL(int, File_read_ordered_end, (MPI_File fh, void *buf,
                                          MPI_Status *status));
PROGSIM_DECL(int, File_write_ordered_begin, (MPI_File fh, const void *buf,
                                             int count,
                                             MPI_Datatype datatype));
PROGSIM_DECL(int, File_write_ordered_end, (MPI_File fh, const void *buf,
                                           MPI_Status *status));

/* File interoperability and consistency */
PROGSIM_DECL(int, File_get_type_extent, (MPI_File fh, MPI_Datatype datatype,
                                         MPI_Aint *extent));
PROGSIM_DECL(int, Register_datarep,
             (const char *datarep,
              MPI_Datarep_conversion_function *read_conversion_fn,
              MPI_Datarep_conversion_function *write_conversion_fn,
              MPI_Datarep_extent_function *dtype_file_extent_fn,
              void *extra_state));
PROGSIM_DECL(int, File_set_atomicity, (MPI_File fh, int flag));
PROGSIM_DECL(int, File_get_atomicity, (MPI_File fh, int *flag));
PROGSIM_DECL(int, File_sync, (MPI_File fh));

/* ======================================================================
 * MPI-4.1 §15 Tool support (profiling control)
 * ====================================================================== */

PROGSIM_DECL(int, Pcontrol, (const int level, ...));

/* ======================================================================
 * MPI-4.1 §16 Deprecated interfaces that are still part of MPI-4.1
 * ====================================================================== */

PROGSIM_DECL(int, Keyval_create, (MPI_Copy_function *copy_fn,
                                  MPI_Delete_function *delete_fn,
                                  int *keyval, void *extra_state));
PROGSIM_DECL(int, Keyval_free, (int *keyval));
PROGSIM_DECL(int, Attr_put, (MPI_Comm comm, int keyval,
                             void *attribute_val));
PROGSIM_DECL(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val,
                             int *flag));
PROGSIM_DECL(int, Attr_delete, (MPI_Comm comm, int keyval));
PROGSIM_DECL(int, Info_get, (MPI_Info info, const char *key, int valuelen,
                             char *value, int *flag));
PROGSIM_DECL(int, Info_get_valuelen, (MPI_Info info, const char *key,
                                      int *valuelen, int *flag));

/* ======================================================================
 * Removed in MPI-3.0 (MPI-4.1 §16.2), still provided by MPICH and by Open MPI
 * for old codes and test suites: each is its MPI-2 replacement under the
 * old name (MPI_Type_lb/ub/extent read MPI_Type_get_extent).
 * ====================================================================== */

PROGSIM_DECL(int, Address, (void *location, MPI_Aint *address));
PROGSIM_DECL(int, Type_hvector, (int count, int blocklength, MPI_Aint stride,
                                 MPI_Datatype oldtype, MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_hindexed, (int count, int array_of_blocklengths[],
                                  MPI_Aint array_of_displacements[],
                                  MPI_Datatype oldtype, MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_struct, (int count, int array_of_blocklengths[],
                                MPI_Aint array_of_displacements[],
                                MPI_Datatype array_of_types[],
                                MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_extent, (MPI_Datatype datatype, MPI_Aint *extent));
PROGSIM_DECL(int, Type_lb, (MPI_Datatype datatype, MPI_Aint *displacement));
PROGSIM_DECL(int, Type_ub, (MPI_Datatype datatype, MPI_Aint *displacement));
PROGSIM_DECL(int, Errhandler_create, (MPI_Comm_errhandler_function *function,
                                      MPI_Errhandler *errhandler));
PROGSIM_DECL(int, Errhandler_set, (MPI_Comm comm, MPI_Errhandler errhandler));
PROGSIM_DECL(int, Errhandler_get, (MPI_Comm comm, MPI_Errhandler *errhandler));

/* ======================================================================
 * MPI-4.1 §19 Language bindings: Fortran support and handle conversion
 * ====================================================================== */

PROGSIM_DECL(int, Type_create_f90_real, (int p, int r,
                                         MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_f90_complex, (int p, int r,
                                            MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_create_f90_integer, (int r, MPI_Datatype *newtype));
PROGSIM_DECL(int, Type_match_size, (int typeclass, int size,
                                    MPI_Datatype *datatype));

PROGSIM_DECL(MPI_Fint, Comm_c2f, (MPI_Comm comm));
PROGSIM_DECL(MPI_Comm, Comm_f2c, (MPI_Fint comm));
PROGSIM_DECL(MPI_Fint, Errhandler_c2f, (MPI_Errhandler errhandler));
PROGSIM_DECL(MPI_Errhandler, Errhandler_f2c, (MPI_Fint errhandler));
PROGSIM_DECL(MPI_Fint, File_c2f, (MPI_File file));
PROGSIM_DECL(MPI_File, File_f2c, (MPI_Fint file));
PROGSIM_DECL(MPI_Fint, Group_c2f, (MPI_Group group));
PROGSIM_DECL(MPI_Group, Group_f2c, (MPI_Fint group));
PROGSIM_DECL(MPI_Fint, Info_c2f, (MPI_Info info));
PROGSIM_DECL(MPI_Info, Info_f2c, (MPI_Fint info));
PROGSIM_DECL(MPI_Fint, Message_c2f, (MPI_Message message));
PROGSIM_DECL(MPI_Message, Message_f2c, (MPI_Fint message));
PROGSIM_DECL(MPI_Fint, Op_c2f, (MPI_Op op));
PROGSIM_DECL(MPI_Op, Op_f2c, (MPI_Fint op));
PROGSIM_DECL(MPI_Fint, Request_c2f, (MPI_Request request));
PROGSIM_DECL(MPI_Request, Request_f2c, (MPI_Fint request));
PROGSIM_DECL(MPI_Fint, Session_c2f, (MPI_Session session));
PROGSIM_DECL(MPI_Session, Session_f2c, (MPI_Fint session));
PROGSIM_DECL(MPI_Fint, Type_c2f, (MPI_Datatype datatype));
PROGSIM_DECL(MPI_Datatype, Type_f2c, (MPI_Fint datatype));
PROGSIM_DECL(MPI_Fint, Win_c2f, (MPI_Win win));
PROGSIM_DECL(MPI_Win, Win_f2c, (MPI_Fint win));
PROGSIM_DECL(int, Status_c2f, (const MPI_Status *c_status,
                               MPI_Fint *f_status));
PROGSIM_DECL(int, Status_f2c, (const MPI_Fint *f_status,
                               MPI_Status *c_status));

/* ======================================================================
 * progsim extensions (not part of MPI)
 * ====================================================================== */

#define PROGSIM 1
#define PROGSIM_VERSION "0.1.0"

/* Charges `seconds` of simulated CPU time on the calling rank's host. */
PROGSIM_EXPORT double progsim_compute(double seconds);

/*
 * Busy-waiting on memory. Watches `bytes` at `addr` (globals, heap or
 * stack): while a rank spins re-reading an unchanged value there, it blocks
 * until another rank writes the range, simulated time passes, and the time
 * is reported as its memory polling time; if nothing can ever write it, the
 * run ends in deadlock naming `name`. Returns 1 when watched, 0 when memory
 * watching is off (--cfg memory-watch=no) or unsupported (nothing is done),
 * -1 on a bad argument. Unwatch before a watched stack variable goes out
 * of scope. progsim_unwatch_memory(addr) removes the watches starting at
 * addr (1; 0 when watching is off; -1 when there is none).
 */
PROGSIM_EXPORT int progsim_watch_memory(volatile void *addr, __SIZE_TYPE__ bytes, const char *name);
PROGSIM_EXPORT int progsim_unwatch_memory(volatile void *addr);

/*
 * Functions the library must define besides MPI_* and PMPI_*:
 *
 *   progsim_comm_null_copy_fn    MPI_COMM_NULL_COPY_FN    MPI_Comm_copy_attr_function
 *   progsim_comm_null_delete_fn  MPI_COMM_NULL_DELETE_FN  MPI_Comm_delete_attr_function
 *   progsim_comm_dup_fn          MPI_COMM_DUP_FN          MPI_Comm_copy_attr_function
 *   progsim_type_null_copy_fn    MPI_TYPE_NULL_COPY_FN    MPI_Type_copy_attr_function
 *   progsim_type_null_delete_fn  MPI_TYPE_NULL_DELETE_FN  MPI_Type_delete_attr_function
 *   progsim_type_dup_fn          MPI_TYPE_DUP_FN          MPI_Type_copy_attr_function
 *   progsim_win_null_copy_fn     MPI_WIN_NULL_COPY_FN     MPI_Win_copy_attr_function
 *   progsim_win_null_delete_fn   MPI_WIN_NULL_DELETE_FN   MPI_Win_delete_attr_function
 *   progsim_win_dup_fn           MPI_WIN_DUP_FN           MPI_Win_copy_attr_function
 *   progsim_null_copy_fn         MPI_NULL_COPY_FN         MPI_Copy_function
 *   progsim_null_delete_fn       MPI_NULL_DELETE_FN       MPI_Delete_function
 *   progsim_dup_fn               MPI_DUP_FN               MPI_Copy_function
 *   progsim_compute              (progsim extension)
 *   progsim_watch_memory         (progsim extension)
 *   progsim_unwatch_memory       (progsim extension)
 *
 * The NULL_COPY functions set *flag = 0 and return MPI_SUCCESS; the
 * NULL_DELETE functions return MPI_SUCCESS; the DUP functions store
 * attribute_val_in into *(void **)attribute_val_out, set *flag = 1 and
 * return MPI_SUCCESS.
 */

#undef PROGSIM_DECL
#undef PROGSIM_EXPORT

#ifdef __cplusplus
}
#endif

#endif /* PROGSIM_MPI_H */

// MPI reduction operations engine (MPI-4.1 §6.9): the predefined operations
// applied to the predefined datatypes of datatype/PredefinedTypes.def, and the
// call into user-defined operations.
//
// Pure C++, no simulator dependency. Everything here is deterministic: the
// same inputs give the same output bytes on every run.
//
// Semantics of apply(op, type, in, inout, count), for i in [0, count):
//     inout[i] = in[i] op inout[i]
// element by element, in index order, with exactly one operation per element
// (no reassociation, no pairwise/tree summation, no FMA contraction).
//
//  * Buffers may be unaligned: every element is read and written with memcpy.
//    `in` and `inout` must either not overlap or be the same pointer.
//  * Element i lives at byte offset i * sizeof(CTYPE) (the type's extent).
//  * Signed integer SUM/PROD wrap modulo 2^N (computed in the unsigned type).
//  * MAX/MIN follow MPICH: MAX keeps inout if inout > in, else takes in
//    (MIN: inout < in). So with a NaN on either side the result is `in`, and
//    for +0.0 vs -0.0 the result is `in`.
//  * Logical ops (LAND, LOR, LXOR) treat any nonzero value as true (for bool
//    types: any nonzero byte) and store exactly 0 or 1 in the element's type.
//  * MINLOC/MAXLOC (§6.9.4): the extreme value wins; on equal values the
//    smaller index is kept. Comparisons with a NaN are false, so a NaN value
//    on either side leaves inout unchanged (as in MPICH).
//  * Complex PROD is complex multiplication with the C99 Annex G semantics of
//    GCC's complex `*` (what MPICH/Open MPI get from `_Complex` types).
//  * Only the value bytes of an element are written: the struct padding of
//    pair types and the 6 padding bytes of x86 80-bit long double keep their
//    previous contents, so the output never contains stray stack bytes.
//  * REPLACE copies in to inout (byte copy, memmove); NO_OP does nothing.
//    Both apply to every predefined type (they are used by RMA accumulate).
#pragma once

#include <cstdint>

namespace progsim::ops {

// Values are the MPI_Op handle indices of docs/design/handles.md
// (handle = 0x58000000 | index).
enum class OpId : int {
    Max = 1,
    Min,
    Sum,
    Prod,
    Land,
    Band,
    Lor,
    Bor,
    Lxor,
    Bxor,
    Minloc,
    Maxloc,
    Replace,
    NoOp
};

inline constexpr int kNumPredefinedOps = 14;

// True if `op` is defined on the predefined datatype with handle index
// `primitive_index` (low 24 bits of its MPI_Datatype handle). False for
// unknown ops or indices. See ReductionOp.cpp for the full table.
bool op_applies(OpId op, int primitive_index) noexcept;

// inout[i] = in[i] op inout[i] for i in [0, count). count == 0 touches
// nothing (null pointers are fine then). Throws std::invalid_argument if
// !op_applies(op, primitive_index) or count < 0; callers should check
// op_applies first and report MPI_ERR_OP themselves.
void apply(OpId op, int primitive_index, const void* in, void* inout, std::int64_t count);

// "MPI_MAX", "MPI_SUM", ..., "MPI_NO_OP"; "MPI_OP_NULL" for 0 and
// "(invalid MPI_Op)" for anything else.
const char* op_name(OpId op) noexcept;

// A user-defined operation (MPI_Op_create). c_fn has the MPI_User_function
// signature, with MPI_Datatype being int in progsim's mpi.h.
struct UserOp {
    void (*c_fn)(void* invec, void* inoutvec, int* len, int* datatype_handle) = nullptr;
    bool commutative = true;
};

// Calls op.c_fn(in, inout, &count, &datatype_handle) on local copies of
// count and datatype_handle. Throws std::invalid_argument if op.c_fn is null
// or count < 0.
void apply_user(const UserOp& op, const void* in, void* inout, int count, int datatype_handle);

}  // namespace progsim::ops

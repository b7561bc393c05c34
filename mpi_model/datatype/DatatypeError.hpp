// Errors reported by the datatype engine: an MPI error class plus a message.
// The C bindings catch DatatypeError and raise error_class() on the
// communicator (or return it), so the numbers below are the MPI error classes
// of progsim's mpi.h (Open MPI numbering: MPI_ERR_ARG = 13, ...).
#pragma once

#include <stdexcept>
#include <string>

namespace progsim::dt {

enum class ErrorClass : int {
    Success = 0,   // MPI_SUCCESS
    Buffer = 1,    // MPI_ERR_BUFFER
    Count = 2,     // MPI_ERR_COUNT: negative count
    Type = 3,      // MPI_ERR_TYPE: null or unusable datatype
    Rank = 6,      // MPI_ERR_RANK: darray rank out of range
    Arg = 13,      // MPI_ERR_ARG: any other invalid argument
    Truncate = 15, // MPI_ERR_TRUNCATE: data does not fit (pack/unpack)
    Other = 16,    // MPI_ERR_OTHER: sizes or displacements overflow 64 bits
};

class DatatypeError : public std::runtime_error {
public:
    DatatypeError(ErrorClass error_class, const std::string& message)
        : std::runtime_error(message), error_class_(error_class) {}

    ErrorClass error_class() const noexcept { return error_class_; }

private:
    ErrorClass error_class_;
};

}  // namespace progsim::dt

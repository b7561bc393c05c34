// Type signatures and send/receive type matching (MPI-4.1 §3.3.1, §5.1).
// A signature is the sequence of basic element types, without displacements;
// pair types contribute their two components (MPI_DOUBLE_INT = DOUBLE, INT).
// Comparisons use the composable hashes of SignatureHash.hpp: no cost per
// element, any count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "datatype/Datatype.hpp"
#include "datatype/SignatureHash.hpp"

namespace progsim::dt {

// Signature of `count` items.
SigHash message_signature(const Datatype& type, std::int64_t count);

// Signature of the first `elements` basic elements of `count` items
// (0 <= elements <= count * num_elements(), else ErrorClass::Arg).
SigHash signature_prefix(const Datatype& type, std::int64_t count, std::int64_t elements);

// Type matching of a message: true if the shorter of the two sequences
// (scount items of stype, rcount items of rtype) is a prefix of the other.
// A longer send is a truncation, reported separately from the byte counts.
// MPI_PACKED and MPI_BYTE anywhere in either type match anything (§3.3.1
// for MPI_PACKED; for MPI_BYTE this is more lenient than the standard, as no
// implementation checks it).
bool signatures_match(const Datatype& stype, std::int64_t scount, const Datatype& rtype, std::int64_t rcount);

// What a message's envelope carries of its signature (MPI-4.1 §3.3.1), so
// that the receiver checks type matching when the message matches: the hash
// of the whole signature and its length. 16 bytes in the header, computed
// in O(log count). Unchecked (elements < 0) when MPI_BYTE or MPI_PACKED
// occurs in the send type: those match any type (§3.3.1, §5.2).
struct EnvelopeSignature {
    std::uint64_t hash = 0;
    std::int64_t elements = -1;
    bool checked() const noexcept { return elements >= 0; }
};
EnvelopeSignature envelope_signature(const Datatype& type, std::int64_t count);
// Whether a message sent with signature `sent` matches a receive of `count`
// items of `type`: the sent signature is a prefix of the receive's. A
// message longer than the receive is a truncation (MPI_ERR_TRUNCATE), not
// checked here; neither is a receive type holding MPI_BYTE or MPI_PACKED.
bool receive_accepts(const EnvelopeSignature& sent, const Datatype& type, std::int64_t count);
// Both never throw: counts whose element numbers overflow are not checked.

// `count` items in words, for diagnostics: "4 x MPI_FLOAT", "2 x a derived
// datatype (MPI_INT x 2, MPI_DOUBLE x 1)" (its first runs of one item).
std::string items_text(const Datatype& type, std::int64_t count);

// The signature of `count` items as a run-length list, consecutive equal
// types merged: {INT x 3, DOUBLE x 1, ...}. For tests and diagnostics; stops
// after max_runs runs.
struct SignatureRun {
    PrimitiveId id;
    std::int64_t count;
    friend bool operator==(const SignatureRun& a, const SignatureRun& b) noexcept {
        return a.id == b.id && a.count == b.count;
    }
};
std::vector<SignatureRun> signature_runs(const Datatype& type, std::int64_t count = 1,
                                         std::size_t max_runs = 1u << 20);

}  // namespace progsim::dt

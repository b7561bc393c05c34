// Storage layouts of the predefined pair types used by MPI_MINLOC/MPI_MAXLOC
// (MPI-4.1 §6.9.4): a value followed by an int index, with C struct padding.
#pragma once

namespace progsim {

struct FloatInt { float value; int index; };
struct DoubleInt { double value; int index; };
struct LongInt { long value; int index; };
struct TwoInt { int value; int index; };
struct ShortInt { short value; int index; };
struct LongDoubleInt { long double value; int index; };
struct TwoFloat { float value; float index; };
struct TwoDouble { double value; double index; };

}  // namespace progsim

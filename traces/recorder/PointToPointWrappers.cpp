// Point-to-point: the blocking and nonblocking sends and receives (standard,
// synchronous, buffered, ready), MPI_Sendrecv(_replace) and the attached buffer.
#include "traces/recorder/RecorderInternals.hpp"

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

#define PROGSIM_FORMS "traces/recorder/PointToPointCalls.inc"
#include "traces/recorder/CountForms.inc"
#undef PROGSIM_FORMS

}  // extern "C"

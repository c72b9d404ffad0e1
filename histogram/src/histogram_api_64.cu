// Instances of the compiled histogram API (<upsweep/histogram.hpp>) for samples: uint64_t int64_t double.
#include "histogram_api.cuh"

UPSWEEP_DEFINE_HISTOGRAM_API(std::uint64_t)
UPSWEEP_DEFINE_HISTOGRAM_API(std::int64_t)
UPSWEEP_DEFINE_HISTOGRAM_API(double)

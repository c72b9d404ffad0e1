// Instances of the compiled histogram API (<upsweep/histogram.hpp>) for samples: uint32_t int32_t float.
#include "histogram_api.cuh"

UPSWEEP_DEFINE_HISTOGRAM_API(std::uint32_t)
UPSWEEP_DEFINE_HISTOGRAM_API(std::int32_t)
UPSWEEP_DEFINE_HISTOGRAM_API(float)

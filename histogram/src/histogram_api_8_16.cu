// Instances of the compiled histogram API (<upsweep/histogram.hpp>) for samples: uint8_t int8_t uint16_t int16_t.
#include "histogram_api.cuh"

UPSWEEP_DEFINE_HISTOGRAM_API(std::uint8_t)
UPSWEEP_DEFINE_HISTOGRAM_API(std::int8_t)
UPSWEEP_DEFINE_HISTOGRAM_API(std::uint16_t)
UPSWEEP_DEFINE_HISTOGRAM_API(std::int16_t)

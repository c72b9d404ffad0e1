// Instances of the compiled compaction API (<upsweep/compact.hpp>) for uint32_t int32_t float.
#include "compact_api.cuh"

UPSWEEP_DEFINE_COMPACT_API(std::uint32_t)
UPSWEEP_DEFINE_COMPACT_API(std::int32_t)
UPSWEEP_DEFINE_COMPACT_API(float)

// Instances of the compiled compaction API (<upsweep/compact.hpp>) for uint8_t int8_t uint16_t int16_t.
#include "compact_api.cuh"

UPSWEEP_DEFINE_COMPACT_API(std::uint8_t)
UPSWEEP_DEFINE_COMPACT_API(std::int8_t)
UPSWEEP_DEFINE_COMPACT_API(std::uint16_t)
UPSWEEP_DEFINE_COMPACT_API(std::int16_t)

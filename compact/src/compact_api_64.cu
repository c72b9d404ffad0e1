// Instances of the compiled compaction API (<upsweep/compact.hpp>) for uint64_t int64_t double.
#include "compact_api.cuh"

UPSWEEP_DEFINE_COMPACT_API(std::uint64_t)
UPSWEEP_DEFINE_COMPACT_API(std::int64_t)
UPSWEEP_DEFINE_COMPACT_API(double)

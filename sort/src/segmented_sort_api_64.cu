// Instances of the compiled segmented sort API (<upsweep/segmented_sort.hpp>) for keys: double std::int64_t
// std::uint64_t.
#include "segmented_sort_api.cuh"

UPSWEEP_DEFINE_SEGMENTED_SORT_API(double)
UPSWEEP_DEFINE_SEGMENTED_SORT_API(std::int64_t)
UPSWEEP_DEFINE_SEGMENTED_SORT_API(std::uint64_t)

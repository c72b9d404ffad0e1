// Instances of the compiled segmented sort API (<upsweep/segmented_sort.hpp>) for keys: float std::int32_t
// std::uint32_t.
#include "segmented_sort_api.cuh"

UPSWEEP_DEFINE_SEGMENTED_SORT_API(float)
UPSWEEP_DEFINE_SEGMENTED_SORT_API(std::int32_t)
UPSWEEP_DEFINE_SEGMENTED_SORT_API(std::uint32_t)

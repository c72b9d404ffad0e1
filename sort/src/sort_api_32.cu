// Instances of the compiled radix-sort API (<upsweep/sort.hpp>) for keys: uint32_t int32_t float.
#include "sort_api.cuh"

UPSWEEP_DEFINE_SORT_API(std::uint32_t)
UPSWEEP_DEFINE_SORT_API(std::int32_t)
UPSWEEP_DEFINE_SORT_API(float)

// Instances of the compiled radix-sort API (<upsweep/sort.hpp>, <upsweep/host_sort.hpp>) for keys: uint32_t int32_t float.
#include "host_sort_api.cuh"
#include "sort_api.cuh"

UPSWEEP_DEFINE_SORT_API(std::uint32_t)
UPSWEEP_DEFINE_HOST_SORT_API(std::uint32_t)
UPSWEEP_DEFINE_SORT_API(std::int32_t)
UPSWEEP_DEFINE_HOST_SORT_API(std::int32_t)
UPSWEEP_DEFINE_SORT_API(float)
UPSWEEP_DEFINE_HOST_SORT_API(float)

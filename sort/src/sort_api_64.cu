// Instances of the compiled radix-sort API (<upsweep/sort.hpp>, <upsweep/host_sort.hpp>) for keys: uint64_t int64_t double.
#include "host_sort_api.cuh"
#include "sort_api.cuh"

UPSWEEP_DEFINE_SORT_API(std::uint64_t)
UPSWEEP_DEFINE_HOST_SORT_API(std::uint64_t)
UPSWEEP_DEFINE_SORT_API(std::int64_t)
UPSWEEP_DEFINE_HOST_SORT_API(std::int64_t)
UPSWEEP_DEFINE_SORT_API(double)
UPSWEEP_DEFINE_HOST_SORT_API(double)

// Instances of the compiled radix-sort API (<upsweep/sort.hpp>) for keys: uint64_t int64_t double.
#include "sort_api.cuh"

UPSWEEP_DEFINE_SORT_API(std::uint64_t)
UPSWEEP_DEFINE_SORT_API(std::int64_t)
UPSWEEP_DEFINE_SORT_API(double)

// Instances of the compiled radix-sort API (<upsweep/sort.hpp>, <upsweep/host_sort.hpp>) for keys: uint8_t int8_t uint16_t int16_t.
#include "host_sort_api.cuh"
#include "sort_api.cuh"

UPSWEEP_DEFINE_SORT_API(std::uint8_t)
UPSWEEP_DEFINE_HOST_SORT_API(std::uint8_t)
UPSWEEP_DEFINE_SORT_API(std::int8_t)
UPSWEEP_DEFINE_HOST_SORT_API(std::int8_t)
UPSWEEP_DEFINE_SORT_API(std::uint16_t)
UPSWEEP_DEFINE_HOST_SORT_API(std::uint16_t)
UPSWEEP_DEFINE_SORT_API(std::int16_t)
UPSWEEP_DEFINE_HOST_SORT_API(std::int16_t)

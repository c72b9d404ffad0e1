// Instances of the compiled group-by API (<upsweep/group_by.hpp>) for int64_t and uint64_t keys, which share
// their kernels.
#include "group_by_api.cuh"

UPSWEEP_DEFINE_GROUP_BY_KEYS(std::int64_t)
UPSWEEP_DEFINE_GROUP_BY_KEYS(std::uint64_t)

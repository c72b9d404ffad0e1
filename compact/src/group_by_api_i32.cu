// Instances of the compiled group-by API (<upsweep/group_by.hpp>) for int32_t and uint32_t keys, which share
// their kernels.
#include "group_by_api.cuh"

UPSWEEP_DEFINE_GROUP_BY_KEYS(std::int32_t)
UPSWEEP_DEFINE_GROUP_BY_KEYS(std::uint32_t)

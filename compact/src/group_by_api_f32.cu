// Instances of the compiled group-by API (<upsweep/group_by.hpp>) for float keys.
#include "group_by_api.cuh"

UPSWEEP_DEFINE_GROUP_BY_KEYS(float)

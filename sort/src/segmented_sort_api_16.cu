// Instances of the compiled segmented sort API (<upsweep/segmented_sort.hpp>) for keys: __half __nv_bfloat16.
#include "segmented_sort_api.cuh"

UPSWEEP_DEFINE_SEGMENTED_SORT_API(__half)
UPSWEEP_DEFINE_SEGMENTED_SORT_API(__nv_bfloat16)

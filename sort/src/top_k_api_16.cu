// Instances of the compiled top-k API (<upsweep/top_k.hpp>) for keys: __half __nv_bfloat16.
#include "top_k_api.cuh"

UPSWEEP_DEFINE_TOP_K_API(__half)
UPSWEEP_DEFINE_TOP_K_API(__nv_bfloat16)

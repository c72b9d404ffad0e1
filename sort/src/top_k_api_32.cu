// Instances of the compiled top-k API (<upsweep/top_k.hpp>) for keys: float std::int32_t std::uint32_t.
#include "top_k_api.cuh"

UPSWEEP_DEFINE_TOP_K_API(float)
UPSWEEP_DEFINE_TOP_K_API(std::int32_t)
UPSWEEP_DEFINE_TOP_K_API(std::uint32_t)

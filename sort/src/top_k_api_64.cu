// Instances of the compiled top-k API (<upsweep/top_k.hpp>) for keys: double std::int64_t std::uint64_t.
#include "top_k_api.cuh"

UPSWEEP_DEFINE_TOP_K_API(double)
UPSWEEP_DEFINE_TOP_K_API(std::int64_t)
UPSWEEP_DEFINE_TOP_K_API(std::uint64_t)

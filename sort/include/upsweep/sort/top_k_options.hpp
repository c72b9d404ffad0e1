// Top-k's options, shared by the template layer (device_top_k.cuh) and the compiled API
// (<upsweep/top_k.hpp>): plain enums, so a g++ translation unit can name them.
#pragma once

namespace upsweep {

enum class top_k_select { largest, smallest };
enum class top_k_output { sorted, unsorted };

}  // namespace upsweep

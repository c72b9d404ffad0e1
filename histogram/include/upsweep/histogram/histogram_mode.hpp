// What a histogram call does with the counts already in d_counts. Plain C++, shared by the
// template layer and the compiled API (<upsweep/histogram.hpp>).
#pragma once

namespace upsweep {

// Overwritten (zeroed first, also when there are no samples) or added to.
enum class histogram_mode { overwrite, accumulate };

}  // namespace upsweep

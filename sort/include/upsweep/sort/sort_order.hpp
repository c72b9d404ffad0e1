// The order of the segmented sort's rows forms and compiled API, shared by the template layer
// (device_segmented_sort.cuh) and <upsweep/segmented_sort.hpp>: an enum class, so it never
// converts to the template forms' begin_bit.
#pragma once

namespace upsweep {

enum class sort_order { ascending, descending };

}  // namespace upsweep

// The output capacity each rank of upsweep-sort's sort across ranks allocates: the library's bound
// on what one rank can receive.
#include "sort_dist_backend.hpp"

#include <upsweep/sort/dist_radix_sort.cuh>

namespace upsweep::apps {

std::int64_t dist_receive_capacity(std::int64_t total_items, int ranks) {
  return upsweep::dist_receive_bound(total_items, ranks);
}

}  // namespace upsweep::apps

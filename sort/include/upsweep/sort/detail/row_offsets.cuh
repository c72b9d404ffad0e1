// Segment offsets of fixed-width rows, for the batched forms that take rows one after another.
#pragma once

namespace upsweep::detail {

// Segment i's offsets, for rows of `width` items one after another (end: shift = width).
struct row_offsets {
  long long width;
  long long shift;
  __host__ __device__ long long operator[](long long row) const { return row * width + shift; }
};

}  // namespace upsweep::detail

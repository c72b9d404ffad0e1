// Host references: sequential left folds in the accumulator type, the order the contracts promise.
#pragma once

#include <cmath>
#include <limits>
#include <cstdint>
#include <vector>

namespace upsweep::test {

template <class Acc, class In, class Op>
std::vector<Acc> reference_inclusive_scan(const std::vector<In>& in, Op op) {
  std::vector<Acc> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i)
    out[i] = i == 0 ? static_cast<Acc>(in[0]) : op(out[i - 1], static_cast<Acc>(in[i]));
  return out;
}

template <class Acc, class In, class Op>
std::vector<Acc> reference_exclusive_scan(const std::vector<In>& in, Acc init, Op op) {
  std::vector<Acc> out(in.size());
  Acc running = init;
  for (std::size_t i = 0; i < in.size(); ++i) {
    out[i] = running;
    running = op(running, static_cast<Acc>(in[i]));
  }
  return out;
}

template <class Acc, class In, class Op>
Acc reference_reduce(const std::vector<In>& in, Acc init, Op op) {
  Acc total = init;
  for (const In& x : in) total = op(total, static_cast<Acc>(x));
  return total;
}

// Error bound for a float sum of n terms in any association order: n * eps * sum |x|.
template <class T, class In>
double float_sum_bound(const std::vector<In>& in, std::size_t count) {
  double magnitude = 0;
  for (std::size_t i = 0; i < count; ++i) magnitude += std::fabs(static_cast<double>(in[i]));
  return static_cast<double>(count) * static_cast<double>(std::numeric_limits<T>::epsilon()) * magnitude + 1e-30;
}

}  // namespace upsweep::test

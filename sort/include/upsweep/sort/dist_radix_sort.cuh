// Sort across ranks (GPUs or processes), template layer: every rank holds a slice in device memory;
// afterwards rank r holds the r-th part of the globally sorted sequence. A collective call: every
// rank of the exchange calls it, with its own slice and stream.
//  - Order: the radix sort's (sort.hpp: CUB's order), stable across ranks: equal keys keep rank
//    order, then input order. Descending and bit windows as in the device sort.
//  - Balance: no rank receives more than dist_receive_bound(N, P) items (N the total over all
//    ranks): the fair share N/P plus 2N/(64P) + 2P, even when every key is equal. With
//    options.rebalance the ranks end with equal slices (the first N mod P ranks one item more).
//  - Output: *num_out items at d_keys_out (and d_values_out), which hold out_capacity items. If
//    any rank's share exceeds its out_capacity, every rank returns cudaErrorInvalidValue and writes
//    nothing to its output.
//  - Core layer: caller temporary storage (a size query with d_temp == nullptr, which depends on
//    num_items, out_capacity and the number of ranks); no allocation. It does synchronise the host
//    with the stream once, on a small all-gather (the send counts), because the exchange needs
//    every size on the host; so it cannot be captured in a CUDA graph. A kernel writes the
//    counts into exchange.host_staging() when it offers page-locked memory that the device can
//    write (the NCCL and loopback exchanges own 64 KiB, made with them: plans of up to 45 ranks),
//    and the host polls a flag there that the kernel raises, asking the stream for errors as it
//    waits; else they are copied into pageable memory.
//  - Input and output may be the same array. num_items per rank below 2^59 (the device sort's),
//    and their total over all ranks below 2^62 (the bound's and the plan's arithmetic).
//  - The exchange: up to 8 ranks, in options.rounds rounds (by default 4 from 2^24 items a rank
//    on average where exchange.transfers_overlap_kernels(), else 1), each a key range of every
//    rank's share, so that the merge of one round's runs overlaps the transfer of the next; the
//    transfers go on a stream of the call's own (created and released in the call, of the
//    highest priority), forked from and joined to the caller's. Keys and values of a round go in
//    one group of the exchange's. Every piece leaves from and lands on a 128-byte boundary (NCCL
//    copies a misaligned piece several times slower), carrying along up to 127 bytes of the piece
//    before it. The pieces of a round are padded to the round's longest, with the items around
//    them, where every receiver has room (NCCL ran unequal pieces near 128 and 256 MB a peer up
//    to 1.4x slower): the temporary storage holds 256 bytes a piece and a sixteenth of
//    out_capacity more for the received runs, and 128 bytes past the sorted slice. A rank's piece
//    for itself does not go through the exchange (its all-to-all sends and receives 0 bytes
//    there): the merge reads it where the local sort left it (with more than 8 ranks, or items
//    of a size that does not divide 256 bytes, it goes through the exchange like the others).
//  - Errors: CUDA's, and cudaErrorUnknown for a transport failure (exchange.last_failure() says
//    which call). Invalid arguments on one rank are not seen by the others, which then wait.
#pragma once

#include <upsweep/sort/detail/dist_sort_dispatch.cuh>
#include <upsweep/sort/dist_exchange.hpp>
#include <upsweep/util/error.hpp>
#include <upsweep/util/stream_allocation.hpp>

#include <cstdint>

namespace upsweep {

using detail::dist_receive_bound;

namespace detail {

template <bool Descending, class Key, class Value>
cudaError_t dispatch_dist_sort(void* d_temp_storage, std::size_t& temp_storage_bytes, dist_exchange& exchange,
                               const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in, Value* d_values_out,
                               std::int64_t num_items, std::int64_t out_capacity, std::int64_t* num_out,
                               dist_sort_options options, cudaStream_t stream) {
  const int end_bit = options.end_bit < 0 ? key_bits_v<Key> : options.end_bit;
  if (num_items < 0 || out_capacity < 0 || options.begin_bit < 0 || options.begin_bit > end_bit ||
      end_bit > key_bits_v<Key> || exchange.size() < 1 || exchange.rank() < 0 || exchange.rank() >= exchange.size() ||
      (options.rounds != 0 && options.rounds != 1 && options.rounds != 2 && options.rounds != 4))
    return cudaErrorInvalidValue;
  dist_sort_run<Descending, Key, Value> run(
      exchange, {d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, out_capacity}, options.begin_bit,
      end_bit, options.rebalance, options.rounds, options.phases, stream);
  UPSWEEP_CUDA_RETURN(run.carve(d_temp_storage, temp_storage_bytes));
  if (d_temp_storage == nullptr) return cudaSuccess;  // the size query needs no arrays
  constexpr bool has_values = has_values_v<Value>;
  if ((num_items > 0 && (d_keys_in == nullptr || (has_values && d_values_in == nullptr))) ||
      (out_capacity > 0 && (d_keys_out == nullptr || (has_values && d_values_out == nullptr))) || num_out == nullptr)
    return cudaErrorInvalidValue;
  return run.run(*num_out);
}

// Convenience: temporary storage from the stream-ordered allocator; returns *num_out.
template <bool Descending, class Key, class Value>
std::int64_t dist_sort_convenience(const char* what, dist_exchange& exchange, const Key* d_keys_in, Key* d_keys_out,
                                   const Value* d_values_in, Value* d_values_out, std::int64_t num_items,
                                   std::int64_t out_capacity, dist_sort_options options, cudaStream_t stream) {
  std::size_t bytes = 0;
  std::int64_t num_out = 0;
  throw_if_failed(dispatch_dist_sort<Descending>(nullptr, bytes, exchange, d_keys_in, d_keys_out, d_values_in,
                                                 d_values_out, num_items, out_capacity, &num_out, options, stream),
                  what, __FILE__, __LINE__);
  stream_allocation temp(bytes, stream);
  const cudaError_t status =
      dispatch_dist_sort<Descending>(temp.get(), bytes, exchange, d_keys_in, d_keys_out, d_values_in, d_values_out,
                                     num_items, out_capacity, &num_out, options, stream);
  if (status == cudaErrorUnknown && !exchange.last_failure().empty())
    throw cuda_error(status, exchange.last_failure().c_str(), __FILE__, __LINE__);
  throw_if_failed(status, what, __FILE__, __LINE__);
  temp.release();
  return num_out;
}

}  // namespace detail

// ---- core layer -------------------------------------------------------------------------------
template <class Key>
cudaError_t dist_sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, dist_exchange& exchange,
                           const Key* d_keys_in, Key* d_keys_out, std::int64_t num_items, std::int64_t out_capacity,
                           std::int64_t* num_out, dist_sort_options options = {}, cudaStream_t stream = 0) {
  return detail::dispatch_dist_sort<false>(d_temp_storage, temp_storage_bytes, exchange, d_keys_in, d_keys_out,
                                           static_cast<const detail::no_values*>(nullptr),
                                           static_cast<detail::no_values*>(nullptr), num_items, out_capacity, num_out,
                                           options, stream);
}

template <class Key>
cudaError_t dist_sort_keys_descending(void* d_temp_storage, std::size_t& temp_storage_bytes, dist_exchange& exchange,
                                      const Key* d_keys_in, Key* d_keys_out, std::int64_t num_items,
                                      std::int64_t out_capacity, std::int64_t* num_out, dist_sort_options options = {},
                                      cudaStream_t stream = 0) {
  return detail::dispatch_dist_sort<true>(d_temp_storage, temp_storage_bytes, exchange, d_keys_in, d_keys_out,
                                          static_cast<const detail::no_values*>(nullptr),
                                          static_cast<detail::no_values*>(nullptr), num_items, out_capacity, num_out,
                                          options, stream);
}

template <class Key, class Value>
cudaError_t dist_sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, dist_exchange& exchange,
                            const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in, Value* d_values_out,
                            std::int64_t num_items, std::int64_t out_capacity, std::int64_t* num_out,
                            dist_sort_options options = {}, cudaStream_t stream = 0) {
  return detail::dispatch_dist_sort<false>(d_temp_storage, temp_storage_bytes, exchange, d_keys_in, d_keys_out,
                                           d_values_in, d_values_out, num_items, out_capacity, num_out, options, stream);
}

template <class Key, class Value>
cudaError_t dist_sort_pairs_descending(void* d_temp_storage, std::size_t& temp_storage_bytes, dist_exchange& exchange,
                                       const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in,
                                       Value* d_values_out, std::int64_t num_items, std::int64_t out_capacity,
                                       std::int64_t* num_out, dist_sort_options options = {}, cudaStream_t stream = 0) {
  return detail::dispatch_dist_sort<true>(d_temp_storage, temp_storage_bytes, exchange, d_keys_in, d_keys_out,
                                          d_values_in, d_values_out, num_items, out_capacity, num_out, options, stream);
}

// ---- convenience layer: allocates stream-ordered, throws cuda_error, returns the items this rank
// holds afterwards ------------------------------------------------------------------------------
template <class Key>
std::int64_t dist_sort_keys(dist_exchange& exchange, const Key* d_keys_in, Key* d_keys_out, std::int64_t num_items,
                            std::int64_t out_capacity, dist_sort_options options = {}, cudaStream_t stream = 0) {
  return detail::dist_sort_convenience<false>("upsweep::dist_sort_keys", exchange, d_keys_in, d_keys_out,
                                              static_cast<const detail::no_values*>(nullptr),
                                              static_cast<detail::no_values*>(nullptr), num_items, out_capacity,
                                              options, stream);
}

template <class Key>
std::int64_t dist_sort_keys_descending(dist_exchange& exchange, const Key* d_keys_in, Key* d_keys_out,
                                       std::int64_t num_items, std::int64_t out_capacity,
                                       dist_sort_options options = {}, cudaStream_t stream = 0) {
  return detail::dist_sort_convenience<true>("upsweep::dist_sort_keys_descending", exchange, d_keys_in, d_keys_out,
                                             static_cast<const detail::no_values*>(nullptr),
                                             static_cast<detail::no_values*>(nullptr), num_items, out_capacity,
                                             options, stream);
}

template <class Key, class Value>
std::int64_t dist_sort_pairs(dist_exchange& exchange, const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in,
                             Value* d_values_out, std::int64_t num_items, std::int64_t out_capacity,
                             dist_sort_options options = {}, cudaStream_t stream = 0) {
  return detail::dist_sort_convenience<false>("upsweep::dist_sort_pairs", exchange, d_keys_in, d_keys_out,
                                              d_values_in, d_values_out, num_items, out_capacity, options, stream);
}

template <class Key, class Value>
std::int64_t dist_sort_pairs_descending(dist_exchange& exchange, const Key* d_keys_in, Key* d_keys_out,
                                        const Value* d_values_in, Value* d_values_out, std::int64_t num_items,
                                        std::int64_t out_capacity, dist_sort_options options = {},
                                        cudaStream_t stream = 0) {
  return detail::dist_sort_convenience<true>("upsweep::dist_sort_pairs_descending", exchange, d_keys_in, d_keys_out,
                                             d_values_in, d_values_out, num_items, out_capacity, options, stream);
}

}  // namespace upsweep

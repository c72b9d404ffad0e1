// The loopback exchange itself, which the tests of the sort across ranks stand on (on_ranks in
// dist_ranks.hpp): its all-to-all and all-gather against the host's arithmetic, byte by byte.
// Fresh random data, seed printed.
#include "../support/device_buffer.hpp"
#include "../support/device_random.cuh"
#include "../support/gpu_test.hpp"
#include "../support/seed.hpp"
#include "dist_ranks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace upsweep::test;

class DistLoopback : public gpu_test {};

// The loopback itself, which the tests above stand on: an all-to-all of pieces of any length
// (0, 1, odd, past one copy kernel's block share) from and to any byte offset, and an all-gather
// of odd sizes; ten ranks, 100 pieces, past one launch's 64. Rank 0's first three pieces have both
// ends on 16, 8 and 4 bytes, so every word width of the copy runs. Buffers poisoned first; every
// byte checked against the host's arithmetic, the gaps between the pieces too.
TEST_F(DistLoopback, TheLoopbackMovesPiecesOfAnyLengthFromAnyOffset) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const int p = 10;
  std::vector<std::size_t> bytes(p * p), offset(p * p);  // [from * p + to]
  for (int i = 0; i < p * p; ++i) {
    const std::uint64_t r = mix64(seed + static_cast<std::uint64_t>(i));
    const std::size_t lengths[] = {0, 1, 3, 16, 100003, r % 70001};
    bytes[i] = lengths[r % 6];
    offset[i] = (r >> 8) % 61;  // the gap before the piece, in the sender's and the receiver's buffers
  }
  bytes[0] = 100000, offset[0] = 0;  // rank 0 to itself: both ends at the buffers' starts
  bytes[1] = 4104, offset[1] = 8;    // to rank 1: from 100008, to 8 (16 | 100000, 8 | 4104)
  bytes[2] = 1001, offset[2] = 4;    // to rank 2: from 104116, to 4
  auto byte_of = [&](int from, std::size_t at) { return static_cast<unsigned char>(mix64(seed ^ (from * 1000003ull + at))); };
  constexpr std::size_t gather_bytes = 13;
  std::vector<std::string> problems(p);
  on_ranks(p, [&](int r, upsweep::dist_exchange& exchange, cudaStream_t stream) {
    std::vector<std::size_t> send_bytes(p), send_offsets(p), recv_bytes(p), recv_offsets(p);
    std::size_t sent = 0, received = 0;
    for (int t = 0; t < p; ++t) {
      send_offsets[t] = sent + offset[r * p + t];
      send_bytes[t] = bytes[r * p + t];
      sent = send_offsets[t] + send_bytes[t];
      recv_offsets[t] = received + offset[t * p + r];
      recv_bytes[t] = bytes[t * p + r];
      received = recv_offsets[t] + recv_bytes[t];
    }
    std::vector<unsigned char> send(std::max(sent, gather_bytes + 1));
    for (std::size_t i = 0; i < send.size(); ++i) send[i] = byte_of(r, i);
    device_buffer<unsigned char> d_send(send), d_recv(static_cast<std::int64_t>(std::max<std::size_t>(received, 1)));
    device_buffer<unsigned char> d_gathered(static_cast<std::int64_t>(gather_bytes * p));
    check(cudaMemsetAsync(d_recv.data(), 0xA5, received, stream), "cudaMemset");
    check(cudaMemsetAsync(d_gathered.data(), 0xA5, gather_bytes * p, stream), "cudaMemset");
    check(exchange.all_to_all_v(d_send.data(), send_bytes.data(), send_offsets.data(), d_recv.data(), recv_bytes.data(),
                                recv_offsets.data(), stream),
          "all_to_all_v");
    check(exchange.all_gather(d_send.data() + 1, d_gathered.data(), gather_bytes, stream), "all_gather");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    const std::vector<unsigned char> got = d_recv.download(), gathered = d_gathered.download();
    std::vector<bool> inside(got.size(), false);
    for (int q = 0; q < p; ++q)
      std::fill_n(inside.begin() + static_cast<std::ptrdiff_t>(recv_offsets[q]), recv_bytes[q], true);
    for (std::size_t i = 0; i < received; ++i)
      if (!inside[i] && got[i] != 0xA5) {
        problems[r] = "byte " + std::to_string(i) + ", between the pieces, was written";
        return;
      }
    for (int q = 0; q < p; ++q) {
      std::size_t from = 0;  // where rank q's piece for r starts in q's send buffer
      for (int t = 0; t <= r; ++t) from += offset[q * p + t] + (t < r ? bytes[q * p + t] : 0);
      for (std::size_t i = 0; i < recv_bytes[q]; ++i)
        if (got[recv_offsets[q] + i] != byte_of(q, from + i)) {
          problems[r] = "byte " + std::to_string(i) + " of the piece from rank " + std::to_string(q);
          return;
        }
      for (std::size_t i = 0; i < gather_bytes; ++i)
        if (gathered[q * gather_bytes + i] != byte_of(q, 1 + i)) {
          problems[r] = "byte " + std::to_string(i) + " of rank " + std::to_string(q) + "'s all-gather block";
          return;
        }
    }
  });
  for (int r = 0; r < p; ++r) EXPECT_EQ("", problems[r]) << "rank " << r;
}

}  // namespace

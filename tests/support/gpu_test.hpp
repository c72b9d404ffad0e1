// GoogleTest fixture for tests that need a GPU: skips from SetUp, with the CUDA error as the
// reason, when no usable device is present (CI has none).
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

namespace upsweep::test {

// Empty when a device is usable, otherwise why not.
inline std::string gpu_unavailable_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    return std::string("no usable CUDA device: ") + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")";
  }
  if (count == 0) return "no CUDA device found";
  return {};
}

class gpu_test : public ::testing::Test {
 protected:
  void SetUp() override {
    static const std::string reason = gpu_unavailable_reason();
    if (!reason.empty()) GTEST_SKIP() << reason;
  }
};

template <class Param>
class gpu_param_test : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    static const std::string reason = gpu_unavailable_reason();
    if (!reason.empty()) GTEST_SKIP() << reason;
  }
};

}  // namespace upsweep::test

// Every CUDA call in a test is checked.
#define CUDA_OK(call) ASSERT_EQ(cudaSuccess, (call)) << #call

// Capture of a core-layer call into a CUDA graph, replayed: capture fails if the call allocates
// or synchronises, so a passing replay proves it does neither.
#pragma once

#include "gpu_test.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

namespace upsweep::test {

// Captures `call(stream)` on a new non-blocking stream (`mode`: whose other work capture may not
// touch) and replays the graph twice; before each replay `prepare(stream)` poisons the outputs,
// after it `check()` asserts on them. Both return nothing and may use gtest assertions.
template <class Call, class Prepare, class Check>
void expect_graph_replays(Call call, Prepare prepare, Check check,
                          cudaStreamCaptureMode mode = cudaStreamCaptureModeThreadLocal) {
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph = nullptr;
  CUDA_OK(cudaStreamBeginCapture(stream, mode));
  const cudaError_t captured = call(stream);
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  CUDA_OK(captured);
  CUDA_OK(ended);
  cudaGraphExec_t exec = nullptr;
  CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 2 && !::testing::Test::HasFatalFailure(); ++replay) {
    SCOPED_TRACE("replay " + std::to_string(replay));
    prepare(stream);
    CUDA_OK(cudaGraphLaunch(exec, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    check();
  }
  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphDestroy(graph));
  CUDA_OK(cudaStreamDestroy(stream));
}

}  // namespace upsweep::test

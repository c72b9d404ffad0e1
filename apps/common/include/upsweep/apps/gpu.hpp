// What the tools' host code (g++, no CUDA headers) needs to know about the GPU side: the error
// that carries a ready-to-print message and the device probe.
#pragma once

#include <stdexcept>
#include <string>

namespace upsweep::apps {

// No usable device, too little memory, a CUDA failure or a failed verification: what() is the
// message to print after the program's name.
class gpu_error : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The name of device 0; throws gpu_error naming the CUDA error (cudaGetErrorName and
// cudaGetErrorString) when there is none.
std::string probe_device();

}  // namespace upsweep::apps

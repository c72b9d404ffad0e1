// Symbol visibility of the compiled API. The libraries are built with hidden visibility, so only
// the functions marked UPSWEEP_API leave a shared build (libupsweep_*.so); kernels, CCCL code and
// template instances stay inside. Plain C++; g++ and nvcc consumers include it alike.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
// Marks a function of the compiled API; a no-op for consumers and in static builds' linking.
#define UPSWEEP_API __attribute__((visibility("default")))
// Exception types thrown across the library boundary keep one typeinfo in every module.
#define UPSWEEP_EXCEPTION __attribute__((visibility("default")))
#else
#define UPSWEEP_API
#define UPSWEEP_EXCEPTION
#endif

// Umbrella header of the histogram template API (nvcc only).
#pragma once

#include <upsweep/histogram/device_histogram.cuh>

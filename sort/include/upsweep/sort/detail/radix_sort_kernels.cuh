// Radix sort kernels, Onesweep design (Adinets and Merrill, "Onesweep: A Faster Least Significant
// Digit Radix Sort for GPUs", 2022): one kernel counts every digit position in one read of the
// keys, one block scans those counts and plans the passes, then one kernel per digit pass ranks a
// tile's keys, finds each digit's place across the grid by a per-digit decoupled look-back and
// scatters keys (and values) stably through shared memory.
#pragma once

// The parts, each including those it builds on:
#include <upsweep/sort/detail/radix_sort_control.cuh>        // shared types, the plan
#include <upsweep/sort/detail/radix_look_back.cuh>           // per-digit look-back words
#include <upsweep/sort/detail/radix_histogram_kernels.cuh>   // kernels 1 and 2: counts, plan
#include <upsweep/sort/detail/radix_pass_storage.cuh>        // a pass's shared memory and loads
#include <upsweep/sort/detail/radix_rank.cuh>                // ranking a tile by one digit
#include <upsweep/sort/detail/radix_pass_kernel.cuh>         // kernels 3 and 4: the pass, the copy
#include <upsweep/sort/detail/radix_single_tile_kernel.cuh>  // inputs up to one tile

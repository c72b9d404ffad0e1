#!/usr/bin/env python3
"""PyTorch's rows for upsweep-bench's topk and segsort suites, on the same shapes and key
distributions, timed like upsweep-bench (CUDA events, L2 flushed before every call, the median of
--reps calls), written as Google Benchmark JSON that bench/report.py merges with upsweep-bench's:

    python3 bench/torch_bench.py --json torch.json [--suite topk,segsort] [--reps 50] [--max-log2 28]

topk (keys uniform in [-1, 1), f32 and bf16): topk/top_k_<type>_k<k>/torch/<n> (torch.topk,
sorted=False) and .../torch_sorted/<n> (sorted=True); topk/batched_top_k_<type>_64rows_k50/...
(torch.topk(dim=-1) of 64 rows of 128k keys).
segsort (random i32 keys): segsort/rows_i32_<rows>x<width>/torch/<n> (torch.sort(dim=-1)) and
.../torch_stable/<n> (stable=True), for 2^20 x 32 and 1000 x 1000.
"""

import argparse
import datetime
import json
import statistics
import sys


def timed_ms(torch, fn, flush, reps):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    fn()  # warm-up
    times = []
    for _ in range(reps):
        flush.zero_()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def row(name, ms):
    return {"name": name, "run_name": name, "run_type": "aggregate", "aggregate_name": "median",
            "real_time": ms, "time_unit": "ms"}


def segsort_rows(torch, device, flush, reps):
    rows_out = []
    for rows, width in ((1 << 20, 32), (1000, 1000)):
        keys = torch.randint(-(1 << 31), (1 << 31) - 1, (rows, width), dtype=torch.int32, device=device)
        for impl, stable in (("torch", False), ("torch_stable", True)):
            ms = timed_ms(torch, lambda: torch.sort(keys, dim=-1, stable=stable), flush, reps)
            rows_out.append(row(f"segsort/rows_i32_{rows}x{width}/{impl}/{rows * width}", ms))
        del keys
    return rows_out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", required=True, help="output file")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--max-log2", type=int, default=28)
    parser.add_argument("--suite", default="topk,segsort", help="comma-separated: topk, segsort")
    args = parser.parse_args()
    try:
        import torch
    except ImportError as e:
        print(f"torch_bench.py: PyTorch is not importable here: {e}", file=sys.stderr)
        return 1
    if not torch.cuda.is_available():
        print("torch_bench.py: no CUDA device", file=sys.stderr)
        return 1
    device = torch.device("cuda")
    l2 = torch.cuda.get_device_properties(device).L2_cache_size
    flush = torch.empty(2 * l2, dtype=torch.uint8, device=device)
    suites = args.suite.split(",")
    out_rows = []
    if "segsort" in suites:
        out_rows += segsort_rows(torch, device, flush, args.reps)
    for type_name, dtype in (() if "topk" not in suites else (("f32", torch.float32), ("bf16", torch.bfloat16))):
        for log2 in (20, 26, 28):
            if log2 > args.max_log2:
                continue
            n = 1 << log2
            keys = (torch.rand(n, device=device) * 2 - 1).to(dtype)
            for k in (1, 32, 1024, 65536):
                for impl, is_sorted in (("torch", False), ("torch_sorted", True)):
                    ms = timed_ms(torch, lambda: torch.topk(keys, k, sorted=is_sorted), flush, args.reps)
                    out_rows.append(row(f"topk/top_k_{type_name}_k{k}/{impl}/{n}", ms))
            del keys
        rows, row_length, k = 64, 131072, 50
        keys = (torch.rand(rows, row_length, device=device) * 2 - 1).to(dtype)
        for impl, is_sorted in (("torch", False), ("torch_sorted", True)):
            ms = timed_ms(torch, lambda: torch.topk(keys, k, dim=-1, sorted=is_sorted), flush, args.reps)
            rows_name = f"topk/batched_top_k_{type_name}_{rows}rows_k{k}/{impl}/{rows * row_length}"
            out_rows.append(row(rows_name, ms))
        del keys
    context = {"gpu": torch.cuda.get_device_name(device), "torch": torch.__version__,
               "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    with open(args.json, "w") as f:
        json.dump({"context": context, "benchmarks": out_rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""PyTorch's rows for upsweep-bench's topk suite: torch.topk on the same shapes and key
distribution (uniform in [-1, 1), f32 and bf16), timed like upsweep-bench (CUDA events, L2 flushed
before every call, the median of --reps calls), written as Google Benchmark JSON that
bench/report.py merges with upsweep-bench's:

    python3 bench/torch_topk.py --json torch.json [--reps 50] [--max-log2 28]

Rows: topk/top_k_<type>_k<k>/torch/<n> (torch.topk, sorted=False) and
topk/top_k_<type>_k<k>/torch_sorted/<n> (sorted=True); topk/batched_top_k_<type>_64rows_k50/...
(torch.topk(dim=-1) of 64 rows of 128k keys).
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", required=True, help="output file")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--max-log2", type=int, default=28)
    args = parser.parse_args()
    try:
        import torch
    except ImportError as e:
        print(f"torch_topk.py: PyTorch is not importable here: {e}", file=sys.stderr)
        return 1
    if not torch.cuda.is_available():
        print("torch_topk.py: no CUDA device", file=sys.stderr)
        return 1
    device = torch.device("cuda")
    l2 = torch.cuda.get_device_properties(device).L2_cache_size
    flush = torch.empty(2 * l2, dtype=torch.uint8, device=device)
    out_rows = []
    for type_name, dtype in (("f32", torch.float32), ("bf16", torch.bfloat16)):
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

#!/usr/bin/env python3
"""Markdown tables (and optional log-log plots) from an upsweep-bench JSON file.

    upsweep-bench --benchmark_repetitions=5 --benchmark_out=run.json --benchmark_out_format=json
    python3 bench/report.py run.json [--plot DIR]

Tables: (a) the seed scan ladder, median ms per n, with CUB, Thrust and the copy ceiling from the
core suite; (b) the reduce ladder, GB/s and speed-up over the previous rung; (c) the core suite,
median ms with the ratio to `cub` and the fraction of the copy row's GB/s. Medians come from the
`median` aggregates when present, else from the repetitions themselves.
"""
import argparse
import json
import os
import statistics
import sys
from collections import defaultdict

SCAN_LADDER = ["fenwick", "blelloch_bcao", "scan_then_fan", "reduce_then_scan_recursive",
               "reduce_then_scan_two_pass", "warp_kogge_stone_smem", "warp_kogge_stone_padded",
               "warp_shfl_up", "warp_shfl_ptx", "decoupled_look_back"]
REDUCE_LADDER = ["reduce0_interleaved_modulo", "reduce1_strided_index", "reduce2_sequential",
                 "reduce3_first_add_on_load", "reduce4_last_warp_shuffle", "reduce5_unrolled",
                 "reduce6_multi_element", "tree_add_mask", "unrolled_last_warp_volatile"]
CORE_SCAN_OP = "inclusive_sum_i32"  # the core rows placed beside the scan ladder
TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def split_name(run_name):
    """'seeds/scan/fenwick/1000/manual_time' -> ('seeds', 'scan', 'fenwick', 1000)."""
    parts = [p for p in run_name.split("/") if p and not p.startswith(("manual_time", "real_time",
                                                                         "min_time", "iterations"))]
    if len(parts) != 4 or not parts[3].isdigit():
        return None
    return parts[0], parts[1], parts[2], int(parts[3])


def load(path):
    """{(suite, op, impl, n): {'ms': median ms, 'gbps': median GB/s}}."""
    with open(path) as f:
        data = json.load(f)
    medians, samples = {}, defaultdict(list)
    for b in data.get("benchmarks", []):
        key = split_name(b.get("run_name", b["name"]))
        if key is None or b.get("error_occurred"):
            continue
        ms = b["real_time"] * TO_MS.get(b.get("time_unit", "ns"), 1e-6)
        gbps = b.get("GB/s")
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[key] = {"ms": ms, "gbps": gbps}
        else:
            samples[key].append((ms, gbps))
    for key, runs in samples.items():
        if key not in medians:
            rates = [g for _, g in runs if g is not None]
            medians[key] = {"ms": statistics.median(m for m, _ in runs),
                            "gbps": statistics.median(rates) if rates else None}
    return medians, data.get("context", {})


def fmt(x, digits=3):
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.{digits}g}"


def fmt_n(n):
    e = len(str(n)) - 1
    return f"1e{e}" if n == 10 ** e else str(n)


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def scan_rows(results):
    """[(label, {n: entry})] for the scan ladder plus the core suite's cub/thrust/copy."""
    rows = []
    for impl in SCAN_LADDER:
        row = {n: v for (s, op, i, n), v in results.items() if (s, op, i) == ("seeds", "scan", impl)}
        if row:
            rows.append((impl, row))
    for impl in ("cub", "thrust", "copy"):
        row = {n: v for (s, op, i, n), v in results.items()
               if (s, op, i) in (("seeds", "scan", impl), ("core", CORE_SCAN_OP, impl))}
        if row:
            rows.append((impl, row))
    return rows


def reduce_rows(results):
    rows = []
    for impl in REDUCE_LADDER:
        row = {n: v for (s, op, i, n), v in results.items() if (s, op, i) == ("seeds", "reduce", impl)}
        if row:
            rows.append((impl, row))
    return rows


def sizes_of(rows):
    return sorted({n for _, row in rows for n in row})


def scan_table(results):
    rows = scan_rows(results)
    if not rows:
        return None
    sizes = sizes_of(rows)
    body = [[label] + [fmt(row[n]["ms"]) if n in row else "-" for n in sizes] for label, row in rows]
    return "### Scan ladder: median ms (int32 inclusive sum)\n\n" + table(["variant"] + [fmt_n(n) for n in sizes], body)


def reduce_table(results):
    rows = reduce_rows(results)
    if not rows:
        return None
    sizes = sizes_of(rows)
    body, previous = [], None
    for label, row in rows:
        cells = []
        for n in sizes:
            if n not in row:
                cells.append("-")
                continue
            gbps = row[n]["gbps"]
            speedup = ""
            if previous is not None and n in previous:
                speedup = f" (x{previous[n]['ms'] / row[n]['ms']:.2f})"
            cells.append(fmt(gbps) + speedup)
        body.append([label] + cells)
        previous = row
    return ("### Reduce ladder: GB/s (speed-up over the rung above)\n\n" +
            table(["rung"] + [fmt_n(n) for n in sizes], body))


def copy_gbps(results, op, n):
    for key in (("core", op, "copy", n), ("core", CORE_SCAN_OP, "copy", n), ("seeds", "scan", "copy", n)):
        if key in results and results[key]["gbps"]:
            return results[key]["gbps"]
    for (s, o, i, m), v in results.items():
        if s == "core" and i == "copy" and m == n and v["gbps"]:
            return v["gbps"]
    return None


def core_tables(results, suite="core"):
    """One table per op of `suite`; ratios against the core suite's cub row at the same n."""
    ops = sorted({op for (s, op, _, _) in results if s == suite})
    out = []
    for op in ops:
        impls = sorted({i for (s, o, i, _) in results if (s, o) == (suite, op)},
                       key=lambda i: (i != "upsweep", i))
        sizes = sorted({n for (s, o, _, n) in results if (s, o) == (suite, op)})
        body = []
        for impl in impls:
            cells = []
            for n in sizes:
                v = results.get((suite, op, impl, n))
                if v is None:
                    cells.append("-")
                    continue
                cub = results.get(("core", op, "cub", n))
                # Throughput relative to CUB: above 1 is faster than CUB.
                ratio = f"{cub['ms'] / v['ms']:.2f}x cub" if cub else ""
                ceiling = copy_gbps(results, op, n)
                frac = f"{100 * v['gbps'] / ceiling:.0f}% copy" if ceiling and v["gbps"] else ""
                extra = ", ".join(x for x in (ratio, frac) if x)
                cells.append(fmt(v["ms"]) + (f" ({extra})" if extra else ""))
            body.append([impl] + cells)
        out.append(f"### {suite}/{op}: median ms (throughput relative to cub, fraction of copy GB/s)\n\n" +
                   table(["impl"] + [fmt_n(n) for n in sizes], body))
    return out


def plot(results, directory):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not importable: no plots written", file=sys.stderr)
        return
    os.makedirs(directory, exist_ok=True)
    figures = [("seeds_scan.png", "Scan ladder (int32 inclusive sum)", scan_rows(results), "ms"),
               ("seeds_reduce.png", "Reduce ladder (int32 sum)", reduce_rows(results), "ms")]
    for op in sorted({op for (s, op, _, _) in results if s == "core"}):
        rows = []
        for impl in sorted({i for (s, o, i, _) in results if (s, o) == ("core", op)}):
            rows.append((impl, {n: v for (s, o, i, n), v in results.items() if (s, o, i) == ("core", op, impl)}))
        figures.append((f"core_{op}.png", f"core/{op}", rows, "ms"))
    for filename, title, rows, unit in figures:
        if not rows:
            continue
        fig, ax = plt.subplots(figsize=(8, 5))
        for label, row in rows:
            ns = sorted(row)
            ax.plot(ns, [row[n][unit] for n in ns], marker="o", label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("items")
        ax.set_ylabel("median ms")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize="small")
        fig.tight_layout()
        fig.savefig(os.path.join(directory, filename), dpi=120)
        plt.close(fig)
        print(f"wrote {os.path.join(directory, filename)}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", help="Google Benchmark JSON (--benchmark_out)")
    parser.add_argument("--plot", metavar="DIR", help="also write log-log PNG plots to DIR")
    args = parser.parse_args()
    results, context = load(args.json)
    if not results:
        sys.exit(f"{args.json}: no benchmark rows named <suite>/<op>/<impl>/<n>")
    gpu = context.get("gpu")
    if gpu:
        print(f"GPU: {gpu}, {context.get('sm_count', '?')} SMs, CUDA runtime {context.get('cuda_runtime', '?')}\n")
    has_seeds = any(s == "seeds" for (s, _, _, _) in results)
    sections = ([scan_table(results), reduce_table(results)] if has_seeds else []) + core_tables(results) + \
        core_tables(results, "tune")
    print("\n\n".join(s for s in sections if s))
    if args.plot:
        plot(results, args.plot)


if __name__ == "__main__":
    main()

"""upsweep-bench JSON rows for bench/report.py: the suites' names and ladders, loading and merging
the files into medians per suite/case/impl/n, and the number formats the tables share."""

import json
import statistics
from collections import defaultdict


# The seed documents' scans (../shared/seeds/README.md), in the order of the seed table.
SCAN_LADDER = [
    ("fenwick", "Fenwick tree (BIT)"),
    ("blelloch_bcao", "Blelloch + BCAO"),
    ("scan_then_fan", "scan-then-fan"),
    ("reduce_then_scan_recursive", "reduce-then-scan, recursive"),
    ("reduce_then_scan_two_pass", "reduce-then-scan, two-pass"),
    ("warp_kogge_stone_smem", "warp scan: Kogge-Stone, shared memory"),
    ("warp_kogge_stone_padded", "warp scan: Kogge-Stone, zero-padded"),
    ("warp_shfl_up", "warp scan: __shfl_up_sync"),
    ("warp_shfl_ptx", "warp scan: predicated shfl.sync.up (PTX)"),
    ("decoupled_look_back", "decoupled look-back (Upsweep)"),
]
REFERENCE_LABELS = {"cub": "CUB", "thrust": "Thrust", "copy": "device copy (floor)"}
# Reduce rungs with the rung each one changes (its file header says so): seed 001's ladder, then
# seed 003's mask test on rung 0 and seed 004's volatile last warp on rung 3.
REDUCE_LADDER = [
    ("reduce0_interleaved_modulo", "reduce0: interleaved, modulo", None),
    ("reduce1_strided_index", "reduce1: strided index", "reduce0_interleaved_modulo"),
    ("reduce2_sequential", "reduce2: sequential addressing", "reduce1_strided_index"),
    ("reduce3_first_add_on_load", "reduce3: first add during load", "reduce2_sequential"),
    ("reduce4_last_warp_shuffle", "reduce4: last warp by shuffle", "reduce3_first_add_on_load"),
    ("reduce5_unrolled", "reduce5: fully unrolled", "reduce4_last_warp_shuffle"),
    ("reduce6_multi_element", "reduce6: many items per thread", "reduce5_unrolled"),
    ("tree_add_mask", "tree addition, offset and mask", "reduce0_interleaved_modulo"),
    ("unrolled_last_warp_volatile", "unrolled last warp, volatile", "reduce3_first_add_on_load"),
]
REDUCE_SHORT = {impl: label.split(":")[0] for impl, label, _ in REDUCE_LADDER}
# Seed 000's table (RTX 4090, ms), for comparison with the rows measured here.
SEED_000 = {"lengths": [10 ** e for e in range(2, 10)],
            "rows": [("BIT (Fenwick)", [0.19, 0.19, 0.19, 0.19, 0.22, 0.39, 2.11, 19.46]),
                     ("BCAO", [0.02, 0.02, 0.03, 0.03, 0.08, 0.31, 2.23, 19.59]),
                     ("CUB", [0.03, 0.03, 0.03, 0.04, 0.04, 0.07, 0.87, 8.69])]}
CORE_OF_SEEDS = {"scan": "inclusive_sum_i32", "reduce": "reduce_sum_i32"}  # the core rows beside each ladder
TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
IMPL_ORDER = {"upsweep": 0, "upsweep_sorted": 1, "cub": 2, "cub32": 3, "cub64": 4, "cub35": 5, "cub35_32": 6,
              "cub35_64": 7, "thrust": 8, "torch": 9, "torch_sorted": 10, "copy": 11}
SUITES = ["core", "sort", "compact", "histogram", "topk", "tune"]
PLOTTED_SUITES = ["core", "sort", "compact", "histogram"]
MATPLOTLIB_HINT = ("--plot needs matplotlib, which this python3 cannot import: install python3-matplotlib "
                   "(apt-get install -y python3-matplotlib) or `pip install matplotlib`")


def split_name(run_name):
    """'seeds/scan/fenwick/1000/manual_time' -> ('seeds', 'scan', 'fenwick', 1000)."""
    parts = [p for p in run_name.split("/") if p and not p.startswith(("manual_time", "real_time",
                                                                         "min_time", "iterations"))]
    if len(parts) != 4 or not parts[3].isdigit():
        return None
    return parts[0], parts[1], parts[2], int(parts[3])


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def load(path):
    """({(suite, case, impl, n): {'ms', 'gbps', 'keys_per_s'}} of medians, context, {key or name: error})."""
    with open(path) as f:
        data = json.load(f)
    medians, samples, errors = {}, defaultdict(list), {}
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        key = split_name(name)
        if b.get("error_occurred"):
            errors[key or name] = b.get("error_message", "")
            continue
        if key is None:
            continue
        entry = {"ms": b["real_time"] * TO_MS.get(b.get("time_unit", "ns"), 1e-6),
                 "gbps": b.get("GB/s"), "keys_per_s": b.get("keys/s")}
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[key] = entry
        else:
            samples[key].append(entry)
    for key, runs in samples.items():
        if key not in medians:
            medians[key] = {field: median_or_none(r[field] for r in runs) for field in ("ms", "gbps", "keys_per_s")}
    context = dict(data.get("context", {}))
    context["repetitions"] = max((b.get("repetitions", 1) for b in data.get("benchmarks", [])), default=0)
    return medians, context, errors


def load_all(paths):
    results, errors, contexts = {}, {}, []
    for path in paths:
        medians, context, errs = load(path)
        for key in medians:
            errors.pop(key, None)
        for key in errs:
            if isinstance(key, tuple):
                results.pop(key, None)
        results.update(medians)
        errors.update(errs)
        contexts.append((path, context))
    return results, errors, contexts


def fmt(x, digits=3):
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.{digits}g}"


def fmt_ratio(r):
    """2 decimals, 3 where 2 would round a ratio below 1.0 up to 1.00."""
    return f"{r:.3f}x" if 0.995 <= r < 1.0 else f"{r:.2f}x"


def fmt_n(n):
    e = len(str(n)) - 1
    if n == 10 ** e:
        return f"1e{e}"
    if n > 0 and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    return str(n)


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def row_of(results, suite, case, impl):
    return {n: v for (s, c, i, n), v in results.items() if (s, c, i) == (suite, case, impl)}

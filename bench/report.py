#!/usr/bin/env python3
"""Markdown tables (and optional log-log plots) from an upsweep-bench JSON file.

    upsweep-bench --benchmark_repetitions=5 --benchmark_out=run.json --benchmark_out_format=json
    python3 bench/report.py run.json [--plot DIR]

Tables: (a) the seed scan ladder, median ms per n, with CUB, Thrust and the copy ceiling from the
core suite; (b) the reduce ladder, GB/s and speed-up over the previous rung; (c) one table per op
of the core, sort, compact, histogram and tune suites: median ms with the throughput relative to
CUB (core and tune also with the fraction of the copy row's GB/s, sort with G keys/s); (d) the
issues' bars (sort, compaction) met or missed; (e) rows that ended in an error, with the reason.
Medians come from the `median` aggregates when present, else from the repetitions themselves.

Rows are named suite/op/impl/n. The CUB reference of a row is the fastest row at the same suite,
op and n whose impl starts with `cub`: where two CUB configurations are measured (sort: `cub32`
and `cub64`, CUB's 32- and 64-bit offsets; the headline partition: `cub` and `cub32`), the ratio
is against the faster of them, so Upsweep is compared with CUB's best. Tune rows without CUB rows
of their own compare with the core suite's `cub` row of the same op.
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


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def load(path):
    """({(suite, op, impl, n): {'ms', 'gbps', 'keys_per_s'}} of medians, context, {name: error})."""
    with open(path) as f:
        data = json.load(f)
    medians, samples, errors = {}, defaultdict(list), {}
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if b.get("error_occurred"):
            errors[name] = b.get("error_message", "")
            continue
        key = split_name(name)
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
    return medians, data.get("context", {}), errors


def fmt(x, digits=3):
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.{digits}g}"


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


def cub_reference(results, suite, op, n):
    """The fastest row at (suite, op, n) whose impl starts with 'cub' (cub, cub32, cub64), as
    (impl, entry); tune falls back on the core suite's cub row of the op."""
    rows = [(i, v) for (s, o, i, m), v in results.items() if (s, o, m) == (suite, op, n) and i.startswith("cub")]
    if not rows and suite == "tune" and ("core", op, "cub", n) in results:
        rows = [("cub", results[("core", op, "cub", n)])]
    return min(rows, key=lambda row: row[1]["ms"]) if rows else (None, None)


IMPL_ORDER = {"upsweep": 0, "cub": 1, "cub32": 2, "cub64": 3, "thrust": 4, "copy": 5}
SUITES = ["core", "sort", "compact", "histogram", "tune"]


def suite_tables(results, suite):
    """One table per op of `suite`: median ms, throughput relative to the CUB reference."""
    ops = sorted({op for (s, op, _, _) in results if s == suite})
    with_copy = suite in ("core", "tune")
    out = []
    for op in ops:
        impls = sorted({i for (s, o, i, _) in results if (s, o) == (suite, op)},
                       key=lambda i: (IMPL_ORDER.get(i, 10), i))
        sizes = sorted({n for (s, o, _, n) in results if (s, o) == (suite, op)})
        cub_impls = {i for i in impls if i.startswith("cub")}
        body = []
        for impl in impls:
            cells = []
            for n in sizes:
                v = results.get((suite, op, impl, n))
                if v is None:
                    cells.append("-")
                    continue
                _, cub = cub_reference(results, suite, op, n)
                # Throughput relative to CUB (the faster configuration): above 1 is faster.
                extras = [f"{cub['ms'] / v['ms']:.2f}x cub"] if cub else []
                if with_copy:
                    ceiling = copy_gbps(results, op, n)
                    if ceiling and v["gbps"]:
                        extras.append(f"{100 * v['gbps'] / ceiling:.0f}% copy")
                if v.get("keys_per_s"):
                    extras.append(f"{v['keys_per_s'] / 1e9:.3g} Gkeys/s")
                cells.append(fmt(v["ms"]) + (f" ({', '.join(extras)})" if extras else ""))
            body.append([impl] + cells)
        reference = "the faster of " + "/".join(sorted(cub_impls)) if len(cub_impls) > 1 else "cub"
        notes = ", fraction of copy GB/s" if with_copy else (", G keys/s" if suite == "sort" else "")
        out.append(f"### {suite}/{op}: median ms (throughput relative to {reference}{notes})\n\n" +
                   table(["impl"] + [fmt_n(n) for n in sizes], body))
    return out


# The issues' bars: (suite, op, n, minimum Upsweep throughput relative to CUB's best).
BARS = [
    ("sort", "keys_u32", 1 << 28, 1.0),
    ("sort", "pairs_u32_u32", 1 << 28, 1.0),
    ("sort", "keys_u64", 1 << 28, 1.0),
    ("sort", "keys_u32", 1 << 16, 1.0),
    ("sort", "keys_u32_low8", 1 << 28, 2.0),
    ("compact", "select_if_i32_50pct", 10 ** 9, 1.05),
    ("compact", "partition_i32_50pct", 10 ** 9, 1.0),
    ("compact", "unique_i32_50pct", 10 ** 9, 1.0),
    ("compact", "run_length_encode_i32_50pct", 10 ** 9, 1.0),
] + [("compact", "select_if_i32_50pct", 10 ** e, 1.0) for e in range(2, 6)]


def bars_table(results):
    body = []
    for suite, op, n, bar in BARS:
        if not any((s, o) == (suite, op) for (s, o, _, _) in results):
            continue
        mine = results.get((suite, op, "upsweep", n))
        impl, cub = cub_reference(results, suite, op, n)
        if mine and cub:
            ratio = cub["ms"] / mine["ms"]
            verdict = "met" if ratio >= bar else "missed"
            body.append([f"{suite}/{op} {fmt_n(n)}", fmt(mine["ms"]), f"{fmt(cub['ms'])} ({impl})",
                         f"{ratio:.2f}x", f">= {bar:.2f}x: {verdict}"])
        elif mine or cub:
            missing = "no Upsweep row" if cub else "no CUB row"
            body.append([f"{suite}/{op} {fmt_n(n)}", fmt(mine["ms"]) if mine else "-",
                         fmt(cub["ms"]) if cub else "-", "-", f">= {bar:.2f}x: {missing}"])
    if not body:
        return None
    return ("### Bars (issues 4 and 5): throughput relative to CUB's faster configuration\n\n" +
            table(["row", "Upsweep ms", "CUB ms", "Upsweep / CUB", "bar"], body))


def errors_section(errors):
    if not errors:
        return None
    lines = [f"- `{name}`: {message}" for name, message in sorted(errors.items())]
    return "### Rows that ended in an error (left out above)\n\n" + "\n".join(lines)


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
    for suite in ("core", "sort", "compact", "histogram"):
        for op in sorted({op for (s, op, _, _) in results if s == suite}):
            rows = []
            for impl in sorted({i for (s, o, i, _) in results if (s, o) == (suite, op)}):
                rows.append((impl, {n: v for (s, o, i, n), v in results.items() if (s, o, i) == (suite, op, impl)}))
            figures.append((f"{suite}_{op}.png", f"{suite}/{op}", rows, "ms"))
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
    results, context, errors = load(args.json)
    if not results and not errors:
        sys.exit(f"{args.json}: no benchmark rows named <suite>/<op>/<impl>/<n>")
    gpu = context.get("gpu")
    if gpu:
        print(f"GPU: {gpu}, {context.get('sm_count', '?')} SMs, CUDA runtime {context.get('cuda_runtime', '?')}\n")
    has_seeds = any(s == "seeds" for (s, _, _, _) in results)
    sections = ([scan_table(results), reduce_table(results)] if has_seeds else [])
    for suite in SUITES + sorted({s for (s, _, _, _) in results} - set(SUITES) - {"seeds"}):
        sections += suite_tables(results, suite)
    sections += [bars_table(results), errors_section(errors)]
    print("\n\n".join(s for s in sections if s))
    if args.plot:
        plot(results, args.plot)


if __name__ == "__main__":
    main()

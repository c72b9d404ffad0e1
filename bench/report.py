#!/usr/bin/env python3
"""Markdown tables, a CSV and PNG charts from upsweep-bench JSON files.

    upsweep-bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true --json run.json
    python3 bench/report.py run.json [more.json ...] [--markdown FILE] [--csv FILE] [--plot DIR]
    tools/bench-report.sh run.json [DIR]      # all three into DIR (default: run/ beside run.json)

upsweep-bench --markdown/--csv/--plot runs this script on its own JSON after the run.

Markdown (stdout unless --markdown FILE): (a) the seed scan table, median ms per n for every
scan of the seed documents with CUB, Thrust and the copy floor from the core suite, beside seed
000's own table; (b) the reduce ladder, GB/s and speed-up of each rung over the one it improves
on; (c) one table per case of the core, sort, compact, histogram and tune suites: median ms with
the throughput relative to CUB (core and tune also the fraction of the copy row's GB/s, sort
G keys/s); (d) the issues' bars met or missed; (e) rows that ended in an error, with the reason;
(f) with --plot and --markdown FILE, links to the charts.

CSV: one line per row: suite, case, impl, n, median ms, GB/s, throughput relative to CUB, error.

Charts (--plot DIR, needs matplotlib: python3-matplotlib): for each case of core, sort, compact and
histogram, GB/s against n (log x), one line per implementation and the copy roofline (the core
suite's device copy: its own curve in core, its peak elsewhere); seeds_scan.png (ms against n,
log-log) and seeds_reduce.png (GB/s against n, log-log).

Rows are named suite/case/impl/n; medians come from the `median` aggregates when present, else
from the repetitions themselves. Several JSON files are merged (a later file's row replaces an
earlier one's). The CUB reference of a row is the fastest row at the same suite, case and n whose
impl starts with `cub` (sort: `cub32` and `cub64`; the headline partition: `cub` and `cub32`), so
Upsweep is compared with CUB's best. Seeds rows compare with the core suite's `cub` row (scan:
inclusive_sum_i32, reduce: reduce_sum_i32); tune rows without CUB rows of their own with the core
or histogram suite's `cub` row of the same case.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
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
IMPL_ORDER = {"upsweep": 0, "cub": 1, "cub32": 2, "cub64": 3, "thrust": 4, "copy": 5}
SUITES = ["core", "sort", "compact", "histogram", "tune"]
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
    return medians, data.get("context", {}), errors


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


# ---- the seed ladders --------------------------------------------------------------------------

def scan_rows(results):
    """[(impl, label, {n: entry})]: the scan ladder, then the core suite's cub, thrust and copy."""
    rows = [(impl, label, row_of(results, "seeds", "scan", impl)) for impl, label in SCAN_LADDER]
    for impl, label in REFERENCE_LABELS.items():
        rows.append((impl, label, row_of(results, "core", CORE_OF_SEEDS["scan"], impl)))
    return [r for r in rows if r[2]]


def reduce_rows(results):
    rows = [(impl, label, row_of(results, "seeds", "reduce", impl)) for impl, label, _ in REDUCE_LADDER]
    return [r for r in rows if r[2]]


def seed_sizes(results):
    return sorted({n for (s, _, _, n) in results if s == "seeds"})


def scan_table(results):
    ladder = [r for r in scan_rows(results) if r[0] not in REFERENCE_LABELS]
    if not ladder:
        return None
    sizes = seed_sizes(results)
    body = [[label] + [fmt(row[n]["ms"]) if n in row else "-" for n in sizes] for _, label, row in scan_rows(results)]
    out = ("### Seed scan table: median ms, int32 inclusive sum (CUB, Thrust, copy: the core suite's rows)\n\n" +
           table(["scan"] + [fmt_n(n) for n in sizes], body))
    seed = table(["seed 000, RTX 4090"] + [fmt_n(n) for n in SEED_000["lengths"]],
                 [[label] + [fmt(v) for v in values] for label, values in SEED_000["rows"]])
    return out + "\n\nFor comparison, seed 000's own table (ms, RTX 4090):\n\n" + seed


def reduce_table(results):
    rows = reduce_rows(results)
    if not rows:
        return None
    sizes = seed_sizes(results)
    previous_of = {impl: prev for impl, _, prev in REDUCE_LADDER}
    body = []
    for impl, label, row in rows:
        prev = previous_of[impl]
        prev_row = row_of(results, "seeds", "reduce", prev) if prev else {}
        cells = []
        for n in sizes:
            if n not in row:
                cells.append("-")
                continue
            speedup = f" (x{prev_row[n]['ms'] / row[n]['ms']:.2f})" if n in prev_row else ""
            cells.append(fmt(row[n]["gbps"]) + speedup)
        body.append([label, REDUCE_SHORT[prev] if prev else "-"] + cells)
    cub = row_of(results, "core", CORE_OF_SEEDS["reduce"], "cub")
    if cub:
        body.append(["CUB (core suite)", "-"] + [fmt(cub[n]["gbps"]) if n in cub else "-" for n in sizes])
    return ("### Reduce ladder: GB/s, int32 sum (x speed-up over the rung it changes)\n\n" +
            table(["rung", "changes"] + [fmt_n(n) for n in sizes], body))


# ---- the comparative suites --------------------------------------------------------------------

def copy_gbps(results, case, n):
    for key in (("core", case, "copy", n), ("core", CORE_OF_SEEDS["scan"], "copy", n)):
        if key in results and results[key]["gbps"]:
            return results[key]["gbps"]
    for (s, c, i, m), v in results.items():
        if s == "core" and i == "copy" and m == n and v["gbps"]:
            return v["gbps"]
    return None


def cub_reference(results, suite, case, n):
    """The fastest row at (suite, case, n) whose impl starts with 'cub' (cub, cub32, cub64), as
    (impl, entry); seeds and tune fall back on the core (or histogram) suite's cub row."""
    rows = [(i, v) for (s, c, i, m), v in results.items() if (s, c, m) == (suite, case, n) and i.startswith("cub")]
    if not rows:
        fallback = None
        if suite == "seeds" and case in CORE_OF_SEEDS:
            fallback = ("core", CORE_OF_SEEDS[case], "cub", n)
        elif suite == "tune" and case.startswith("histogram_"):
            fallback = ("histogram", case[len("histogram_"):], "cub", n)
        elif suite == "tune":
            fallback = ("core", case, "cub", n)
        if fallback in results:
            rows = [("cub", results[fallback])]
    return min(rows, key=lambda row: row[1]["ms"]) if rows else (None, None)


def suite_cases(results, suite):
    return sorted({c for (s, c, _, _) in results if s == suite})


def case_impls(results, suite, case):
    return sorted({i for (s, c, i, _) in results if (s, c) == (suite, case)}, key=lambda i: (IMPL_ORDER.get(i, 10), i))


def suite_tables(results, suite):
    """One table per case of `suite`: median ms, throughput relative to the CUB reference."""
    with_copy = suite in ("core", "tune")
    out = []
    for case in suite_cases(results, suite):
        impls = case_impls(results, suite, case)
        sizes = sorted({n for (s, c, _, n) in results if (s, c) == (suite, case)})
        cub_impls = {i for i in impls if i.startswith("cub")}
        body = []
        for impl in impls:
            cells = []
            for n in sizes:
                v = results.get((suite, case, impl, n))
                if v is None:
                    cells.append("-")
                    continue
                _, cub = cub_reference(results, suite, case, n)
                # Throughput relative to CUB (the faster configuration): above 1 is faster.
                extras = [f"{cub['ms'] / v['ms']:.2f}x cub"] if cub else []
                if with_copy:
                    ceiling = copy_gbps(results, case, n)
                    if ceiling and v["gbps"]:
                        extras.append(f"{100 * v['gbps'] / ceiling:.0f}% copy")
                if v.get("keys_per_s"):
                    extras.append(f"{v['keys_per_s'] / 1e9:.3g} Gkeys/s")
                cells.append(fmt(v["ms"]) + (f" ({', '.join(extras)})" if extras else ""))
            body.append([impl] + cells)
        reference = "the faster of " + "/".join(sorted(cub_impls)) if len(cub_impls) > 1 else "cub"
        notes = ", fraction of copy GB/s" if with_copy else (", G keys/s" if suite == "sort" else "")
        out.append(f"### {suite}/{case}: median ms (throughput relative to {reference}{notes})\n\n" +
                   table(["impl"] + [fmt_n(n) for n in sizes], body))
    return out


# The issues' bars: (suite, case, n, minimum Upsweep throughput relative to CUB's best).
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
] + [("compact", f"{op}_i32_50pct", 10 ** e, 1.0)  # issue 5: n up to 10^5 no slower than CUB
      for op in ("select_if", "partition", "unique", "run_length_encode") for e in range(2, 6)]


def bars_table(results):
    body = []
    for suite, case, n, bar in BARS:
        if not any((s, c) == (suite, case) for (s, c, _, _) in results):
            continue
        mine = results.get((suite, case, "upsweep", n))
        impl, cub = cub_reference(results, suite, case, n)
        if mine and cub:
            ratio = cub["ms"] / mine["ms"]
            verdict = "met" if ratio >= bar else "missed"
            body.append([f"{suite}/{case} {fmt_n(n)}", fmt(mine["ms"]), f"{fmt(cub['ms'])} ({impl})",
                         f"{ratio:.2f}x", f">= {bar:.2f}x: {verdict}"])
        elif mine or cub:
            missing = "no Upsweep row" if cub else "no CUB row"
            body.append([f"{suite}/{case} {fmt_n(n)}", fmt(mine["ms"]) if mine else "-",
                         fmt(cub["ms"]) if cub else "-", "-", f">= {bar:.2f}x: {missing}"])
    if not body:
        return None
    return ("### Bars (issues 4 and 5): throughput relative to CUB's faster configuration\n\n" +
            table(["row", "Upsweep ms", "CUB ms", "Upsweep / CUB", "bar"], body))


def error_name(key):
    return "/".join(map(str, key)) if isinstance(key, tuple) else key


def errors_section(errors):
    if not errors:
        return None
    lines = [f"- `{error_name(key)}`: {message}" for key, message in sorted(errors.items(), key=lambda e: error_name(e[0]))]
    return "### Rows that ended in an error (left out above)\n\n" + "\n".join(lines)


def header(contexts):
    lines = []
    for path, context in contexts:
        gpu = context.get("gpu", "GPU not recorded")
        date = context.get("date", "")[:10] or "date not recorded"
        extras = [f"{context['sm_count']} SMs" if "sm_count" in context else None,
                  f"{int(context['l2_bytes']) / 1e6:.0f} MB L2" if "l2_bytes" in context else None,
                  f"CUDA runtime {context['cuda_runtime']}" if "cuda_runtime" in context else None]
        lines.append(f"- `{os.path.basename(path)}`: {gpu}, " + ", ".join(e for e in extras + [date] if e))
    return "Measured with upsweep-bench (CUDA events, L2 flushed before every iteration):\n\n" + "\n".join(lines)


# ---- CSV -----------------------------------------------------------------------------------------

def write_csv(results, errors, path):
    rows = []
    for (suite, case, impl, n), v in results.items():
        _, cub = cub_reference(results, suite, case, n)
        ratio = cub["ms"] / v["ms"] if cub and v["ms"] else None
        rows.append([suite, case, impl, n, v["ms"], v["gbps"], ratio, ""])
    for key, message in errors.items():
        if isinstance(key, tuple):
            rows.append(list(key) + [None, None, None, message])
        else:
            rows.append([key, "", "", None, None, None, None, message])
    rows.sort(key=lambda r: (r[0], r[1], IMPL_ORDER.get(r[2], 10), r[2], r[3] or 0))

    def num(x, spec):
        return "" if x is None else format(x, spec)

    out = sys.stdout if path == "-" else open(path, "w", newline="")
    try:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["suite", "case", "impl", "n", "median_ms", "gb_per_s", "ratio_to_cub", "error"])
        for suite, case, impl, n, ms, gbps, ratio, error in rows:
            writer.writerow([suite, case, impl, "" if n is None else n, num(ms, ".6g"), num(gbps, ".6g"),
                             num(ratio, ".4f"), error])
    finally:
        if out is not sys.stdout:
            out.close()
    if path != "-":
        print(f"wrote {path} ({len(rows)} rows)", file=sys.stderr)


# ---- charts --------------------------------------------------------------------------------------

def import_pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        return None


def use_system_python_for_matplotlib():
    """A python3 without matplotlib (pyenv's, a venv's) hands the run over to the system's, which
    the python3-matplotlib package serves; returns only when there is none to hand over to."""
    system = "/usr/bin/python3"
    if os.environ.get("UPSWEEP_REPORT_SYSTEM_PYTHON") or not os.access(system, os.X_OK):
        return
    if os.path.realpath(sys.executable) == os.path.realpath(system):
        return
    if subprocess.call([system, "-c", "import matplotlib"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
        return
    os.environ["UPSWEEP_REPORT_SYSTEM_PYTHON"] = "1"
    sys.stdout.flush()
    os.execv(system, [system, os.path.abspath(sys.argv[0])] + sys.argv[1:])


STYLE = {"upsweep": dict(color="tab:red", linewidth=2.2, marker="o", zorder=5),
         "cub": dict(color="tab:blue", marker="s"), "cub32": dict(color="tab:cyan", marker="s"),
         "cub64": dict(color="tab:blue", marker="D"), "thrust": dict(color="tab:green", marker="^")}


def l2_items(row, l2_bytes):
    """n at which the row's bytes per run equal the L2 size, from its GB/s and ms."""
    for n, v in sorted(row.items()):
        if v.get("gbps") and v.get("ms"):
            bytes_per_item = v["gbps"] * 1e9 * v["ms"] * 1e-3 / n
            return l2_bytes / bytes_per_item if bytes_per_item > 0 else None
    return None


def throughput_chart(plt, results, suite, case, l2_bytes, path, gpu):
    impls = [i for i in case_impls(results, suite, case) if i != "copy"]
    fig, ax = plt.subplots(figsize=(8, 5))
    all_n = []
    for impl in impls:
        row = {n: v for n, v in row_of(results, suite, case, impl).items() if v.get("gbps")}
        ns = sorted(row)
        all_n += ns
        ax.plot(ns, [row[n]["gbps"] for n in ns], label=impl, **STYLE.get(impl, dict(marker="o")))
    own_copy = row_of(results, suite, case, "copy")  # core: the copy of the same bytes, measured as a row
    copy = {n: v for n, v in own_copy.items() if v.get("gbps")}
    if copy:
        ns = sorted(copy)
        ax.plot(ns, [copy[n]["gbps"] for n in ns], color="grey", linestyle="--", marker=".",
                label="copy roofline (device copy of the same bytes)")
    else:
        peak = max((v["gbps"] for (s, _, i, _), v in results.items() if s == "core" and i == "copy" and v.get("gbps")),
                   default=None)
        if peak:
            ax.axhline(peak, color="grey", linestyle="--", label=f"copy roofline (peak device copy, {peak:.0f} GB/s)")
    upsweep = row_of(results, suite, case, "upsweep") or (row_of(results, suite, case, impls[0]) if impls else {})
    l2_n = l2_items(upsweep, l2_bytes) if l2_bytes and upsweep else None
    if l2_n and all_n and min(all_n) / 4 <= l2_n <= max(all_n) * 4:
        ax.axvline(l2_n, color="black", linestyle=":", linewidth=1, label=f"working set = L2 ({l2_bytes / 1e6:.0f} MB)")
    ax.set_xscale("log")
    # A roofline far above every line (sort makes several passes over its bytes) would flatten
    # them on a linear axis.
    lines_top = max((y for line in ax.get_lines()[:len(impls)] for y in line.get_ydata()), default=0)
    roof_top = max((y for line in ax.get_lines()[len(impls):] if "roofline" in str(line.get_label())
                    for y in line.get_ydata()), default=0)
    if lines_top and roof_top > 3 * lines_top:
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)
    ax.set_xlabel("n (items)")
    ax.set_ylabel("GB/s (algorithmic bytes, median)")
    ax.set_title(f"{suite}/{case}" + (f" ({gpu})" if gpu else ""))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def ladder_chart(plt, rows, field, ylabel, title, path):
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for impl, label, row in rows:
        ns = sorted(n for n in row if row[n].get(field))
        style = dict(marker="o", markersize=3)
        if impl in REFERENCE_LABELS or impl.startswith("core_"):
            style = dict(linestyle="--", marker="s", markersize=3, color={"cub": "tab:blue", "thrust": "tab:green"}.get(
                impl.replace("core_", ""), "grey"))
        if impl == "decoupled_look_back":
            style = dict(color="tab:red", linewidth=2.2, marker="o", markersize=3)
        ax.plot(ns, [row[n][field] for n in ns], label=label, **style)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n (int32 items)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="x-small", ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot(results, contexts, directory):
    """Writes the charts; returns [(title, file name)]."""
    plt = import_pyplot()
    if plt is None:
        sys.exit(f"report.py: {MATPLOTLIB_HINT}")
    os.makedirs(directory, exist_ok=True)
    gpu = " + ".join(dict.fromkeys(c["gpu"] for _, c in contexts if c.get("gpu")))
    l2_bytes = next((int(c["l2_bytes"]) for _, c in contexts if c.get("l2_bytes")), 0)
    written = []

    def done(title, name):
        written.append((title, name))
        print(f"wrote {os.path.join(directory, name)}", file=sys.stderr)

    scans = scan_rows(results)
    if any(impl not in REFERENCE_LABELS for impl, _, _ in scans):
        ladder_chart(plt, scans, "ms", "median ms", f"Seed scans, int32 inclusive sum ({gpu})",
                     os.path.join(directory, "seeds_scan.png"))
        done("Seed scans: ms against n", "seeds_scan.png")
    reduces = reduce_rows(results)
    if reduces:
        for impl in ("cub", "thrust"):
            row = row_of(results, "core", CORE_OF_SEEDS["reduce"], impl)
            if row:
                reduces.append(("core_" + impl, REFERENCE_LABELS[impl] + " (core suite)", row))
        ladder_chart(plt, reduces, "gbps", "GB/s (median)", f"Reduce ladder, int32 sum ({gpu})",
                     os.path.join(directory, "seeds_reduce.png"))
        done("Reduce ladder: GB/s against n", "seeds_reduce.png")
    for suite in PLOTTED_SUITES:
        for case in suite_cases(results, suite):
            name = f"{suite}_{case}.png"
            throughput_chart(plt, results, suite, case, l2_bytes, os.path.join(directory, name), gpu)
            done(f"{suite}/{case}", name)
    return written


def charts_section(charts, directory, markdown_path):
    base = os.path.dirname(os.path.abspath(markdown_path))
    lines = []
    for title, name in charts:
        rel = os.path.relpath(os.path.join(os.path.abspath(directory), name), base)
        lines.append(f"#### {title}\n\n![{title}]({rel})")
    return "### Charts\n\n" + "\n\n".join(lines)


# ---- main ----------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="Exit status: 0 done, 1 bad input, 3 --plot without matplotlib.")
    parser.add_argument("json", nargs="*", help="Google Benchmark JSON files (upsweep-bench --json FILE)")
    parser.add_argument("--markdown", metavar="FILE", default="-", help="markdown tables to FILE ('-': stdout, the default)")
    parser.add_argument("--csv", metavar="FILE", help="one line per row: suite,case,impl,n,median_ms,gb_per_s,ratio_to_cub,error")
    parser.add_argument("--plot", metavar="DIR", help="PNG charts into DIR (needs matplotlib: python3-matplotlib)")
    parser.add_argument("--check", action="store_true",
                        help="only check that the outputs asked for can be made (matplotlib for --plot), read nothing")
    args = parser.parse_args()
    if args.plot and import_pyplot() is None:
        use_system_python_for_matplotlib()
        print(f"report.py: {MATPLOTLIB_HINT}", file=sys.stderr)
        sys.exit(3)
    if args.check:
        return
    if not args.json:
        parser.error("no JSON file given")
    try:
        results, errors, contexts = load_all(args.json)
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"report.py: {e}")
    if not results and not errors:
        sys.exit(f"report.py: {', '.join(args.json)}: no benchmark rows named <suite>/<case>/<impl>/<n>")

    charts = plot(results, contexts, args.plot) if args.plot else []
    if args.csv:
        write_csv(results, errors, args.csv)
    sections = [header(contexts)]
    if any(s == "seeds" for (s, _, _, _) in results):
        sections += [scan_table(results), reduce_table(results)]
    for suite in SUITES + sorted({s for (s, _, _, _) in results} - set(SUITES) - {"seeds"}):
        sections += suite_tables(results, suite)
    sections += [bars_table(results), errors_section(errors)]
    if charts and args.markdown != "-":
        sections.append(charts_section(charts, args.plot, args.markdown))
    text = "\n\n".join(s for s in sections if s) + "\n"
    if args.markdown == "-":
        sys.stdout.write(text)
    else:
        with open(args.markdown, "w") as f:
            f.write(text)
        print(f"wrote {args.markdown}", file=sys.stderr)


if __name__ == "__main__":
    main()

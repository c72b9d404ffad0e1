"""The markdown tables of bench/report.py (the seed ladders, one per case of each suite, the bars
met or missed, the rows in error) and its CSV."""

import csv
import os
import sys

from report_data import (CORE_OF_SEEDS, IMPL_ORDER, REDUCE_LADDER, REDUCE_SHORT, REFERENCE_LABELS,
    SCAN_LADDER, SEED_000, fmt, fmt_n, fmt_ratio, row_of, table)


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
    """The fastest row at (suite, case, n) whose impl starts with 'cub' (cub, cub32, cub64, cub35), as
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
    return sorted({i for (s, c, i, _) in results if (s, c) == (suite, case)},
                  key=lambda i: (IMPL_ORDER.get(i, len(IMPL_ORDER)), i))


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
        relative = f" (throughput relative to {reference}{notes})" if cub_impls or with_copy else ""
        out.append(f"### {suite}/{case}: median ms{relative}\n\n" + table(["impl"] + [fmt_n(n) for n in sizes], body))
    return out


# The issues' bars: (suite, case, n, minimum Upsweep throughput relative to CUB's best).
# Issue 29's headline moonshots: sort keys u32 1.25x, pairs u32/u32 1.15x, keys u64 1.15x, keys f32
# 1.2x at 2^28; select_if int32 50 % 1.15x at 10^9 (and the inclusive sum's floor, FLOOR_BARS).
BARS = [
    ("sort", "keys_u32", 1 << 28, 1.25),
    ("sort", "pairs_u32_u32", 1 << 28, 1.15),
    ("sort", "keys_u64", 1 << 28, 1.15),
    ("sort", "keys_f32", 1 << 28, 1.2),
    ("sort", "keys_u32", 1 << 16, 1.0),
    ("sort", "keys_u32_low8", 1 << 28, 2.0),
    ("compact", "select_if_i32_50pct", 10 ** 9, 1.15),
    ("compact", "unique_i32_50pct", 10 ** 9, 1.0),
    ("compact", "run_length_encode_i32_50pct", 10 ** 9, 1.0),
] + [("compact", f"{op}_i32_50pct", 10 ** e, 1.0)  # issue 5: n up to 10^5 no slower than CUB
      for op in ("select_if", "unique", "run_length_encode") for e in range(2, 6)]

# Issue 29, the key and value types users sort beside the headline ones: 1.0x CUB at every size.
SORT_TYPE_CASES = ["keys_u8", "keys_u16", "keys_i64", "keys_f64", "keys_f16", "keys_bf16", "pairs_u32_u64",
                   "pairs_u32_v16", "pairs_u64_u64"]
BARS += [("sort", case, 1 << e, 1.0) for case in SORT_TYPE_CASES for e in (20, 24, 28)]

# Issue 27, the group-by family and the partitions: 1.05x CUB from 10^6 items, 1.0x below; the
# segmented sum 1.2x; CUB's partition contract 1.05x at 10^9 (int32, 50 %) and 1.0x elsewhere.
GROUP_CASES = [f"{op}_{t}_{run}" for op in ("reduce_by_key", "unique_by_key", "inclusive_scan_by_key")
               for t in ("i32", "i64") for run in ("run1.5", "run16", "run1000")]
GROUP_CASES += [f"non_trivial_runs_i32_{run}" for run in ("run1.5", "run16", "run1000")]
GROUP_CASES += ["exclusive_scan_by_key_i32_run16", "reduce_by_key_i32_i64_run16", "inclusive_scan_by_key_i32_i64_run16"]
BARS += [("compact", case, 10 ** e, 1.05 if e >= 6 else 1.0) for case in GROUP_CASES for e in range(2, 10)]
BARS += [("compact", "segmented_sum_i32_avg100", 10 ** e, 1.2 if e >= 6 else 1.0) for e in range(4, 9)]
BARS += [("compact", f"partition_{case}", 10 ** e, 1.05 if (case, e) == ("i32_50pct", 9) else 1.0)
         for case in ("i32_1pct", "i32_50pct", "i32_99pct", "i64_50pct") for e in range(2, 10)]
BARS += [("compact", f"partition_three_way_{t}_50pct", 10 ** e, 1.0) for t in ("i32", "i64") for e in range(2, 10)]

# Issue 28, top-k: 1.2x the newest CUB's DeviceTopK (cub35 rows, from upsweep-bench-cub35).
TOP_K_CASES = [f"top_k_{t}_k{k}" for t in ("f32", "bf16") for k in (1, 32, 1024, 65536)]
BARS += [("topk", case, 1 << e, 1.2) for case in TOP_K_CASES for e in (20, 26, 28)]

BARS += [("topk", f"batched_top_k_{t}_64rows_k50", 64 << 17, 1.2) for t in ("f32", "bf16")]

# Issue 28, segmented sort: 1.5x CUB's faster segmented sort on 10^6 small segments, 1.1x on 100
# segments of 10^6; rows at least 3x torch.sort(dim=-1) (and no slower than CUB).
SEGMENTED_SHAPES = [("avg32", 32 * 10 ** 6, 1.5), ("avg1000", 10 ** 9, 1.5), ("100x1M", 10 ** 8, 1.1)]
BARS += [("segsort", f"{kind}_{shape}", n, bar) for kind in ("keys_u32", "pairs_u32") for shape, n, bar in SEGMENTED_SHAPES]
SEGMENTED_ROWS = [("rows_i32_1048576x32", 1 << 25), ("rows_i32_1000x1000", 10 ** 6)]
BARS += [("segsort", case, n, 1.0) for case, n in SEGMENTED_ROWS]

# Bars against PyTorch (torch rows, from bench/torch_bench.py): (suite, case, n, minimum speed-up).
TORCH_BARS = [("topk", "batched_top_k_bf16_64rows_k50", 64 << 17, 5.0)]
TORCH_BARS += [("segsort", case, n, 3.0) for case, n in SEGMENTED_ROWS]

# Floors: (suite, case, n, the floor as a multiple of the copy row's time, the most the Upsweep
# row may take relative to that floor, the case holding the copy row). The stable partition moves
# 3n words where the copy moves 2n; top-k at 2^28 within 2x of one read of its input (half a copy).
FLOOR_BARS = [("compact", "stable_partition_i32_50pct", 10 ** 9, 1.5, 1.10, "stable_partition_i32_50pct"),
              ("core", "inclusive_sum_i32", 10 ** 9, 1.0, 1.04, "inclusive_sum_i32")]
FLOOR_BARS += [("topk", case, 1 << 28, 0.5, 2.0, case[:case.rfind("_k")]) for case in TOP_K_CASES]


def bars_table(results, summary=False):
    """The bars met or missed; with summary, only the moonshots (above 1.05x) and the bars missed,
    and a count of the others met."""
    body, met_at_one = [], 0
    for suite, case, n, bar in BARS:
        if not any((s, c) == (suite, case) for (s, c, _, _) in results):
            continue
        mine = results.get((suite, case, "upsweep", n))
        impl, cub = cub_reference(results, suite, case, n)
        if mine and cub:
            ratio = cub["ms"] / mine["ms"]
            verdict = "met" if ratio >= bar else "missed"
            if summary and bar <= 1.05 and ratio >= bar:
                met_at_one += 1
                continue
            body.append([f"{suite}/{case} {fmt_n(n)}", fmt(mine["ms"]), f"{fmt(cub['ms'])} ({impl})",
                         fmt_ratio(ratio), f">= {bar:.2f}x: {verdict}"])
        elif mine or cub:
            missing = "no Upsweep row" if cub else "no CUB row"
            body.append([f"{suite}/{case} {fmt_n(n)}", fmt(mine["ms"]) if mine else "-",
                         fmt(cub["ms"]) if cub else "-", "-", f">= {bar:.2f}x: {missing}"])
    for suite, case, n, bar in TORCH_BARS:
        mine, torch = results.get((suite, case, "upsweep", n)), results.get((suite, case, "torch", n))
        if mine and torch:
            ratio = torch["ms"] / mine["ms"]
            verdict = "met" if ratio >= bar else "missed"
            body.append([f"{suite}/{case} {fmt_n(n)}", fmt(mine["ms"]), f"{fmt(torch['ms'])} (torch)",
                         fmt_ratio(ratio), f">= {bar:.2f}x torch: {verdict}"])
    for suite, case, n, floor_factor, bar, copy_case in FLOOR_BARS:
        mine, copy = results.get((suite, case, "upsweep", n)), results.get((suite, copy_case, "copy", n))
        if mine and copy:
            ratio = mine["ms"] / (floor_factor * copy["ms"])
            verdict = "met" if ratio <= bar else "missed"
            body.append([f"{suite}/{case} {fmt_n(n)}", fmt(mine["ms"]), f"floor {fmt(floor_factor * copy['ms'])}",
                         f"{ratio:.2f}x floor", f"<= {bar:.2f}x floor: {verdict}"])
    if not body and not met_at_one:
        return None
    met = f"\n\nAnd {met_at_one} bars of 1.0x or 1.05x met, not listed." if met_at_one else ""
    return ("### Bars: throughput relative to CUB's faster configuration (or time against a floor)\n\n" +
            table(["row", "Upsweep ms", "CUB ms", "Upsweep / CUB", "bar"], body) + met)


# Issue 29: every Upsweep row of the comparative suites at least 1.0x the faster CUB, at every
# size but the compaction at 1 % below 10^7.
EVERY_ROW_SUITES = ("core", "sort", "compact", "histogram")


def rows_against_cub(results):
    """[(suite, case, impl, n, Upsweep ms, CUB impl, CUB ms)] for every Upsweep row the bar covers."""
    rows = []
    for (suite, case, impl, n), mine in sorted(results.items()):
        if suite not in EVERY_ROW_SUITES or not impl.startswith("upsweep") or ("_1pct" in case and n < 10 ** 7):
            continue
        cub_impl, cub = cub_reference(results, suite, case, n)
        if cub and mine["ms"] and cub["ms"]:
            rows.append((suite, case, impl, n, mine["ms"], cub_impl, cub["ms"]))
    return rows


def behind_table(results):
    rows = rows_against_cub(results)
    if not rows:
        return None
    behind = [r for r in rows if r[6] / r[4] < 1.0]
    body = [[f"{s}/{c}/{i} {fmt_n(n)}", fmt(ms), f"{fmt(cub_ms)} ({cub_impl})", fmt_ratio(cub_ms / ms)]
            for s, c, i, n, ms, cub_impl, cub_ms in behind]
    head = (f"### Every row against the faster CUB (at least 1.0x)\n\n{len(rows) - len(behind)} of {len(rows)} "
            f"Upsweep rows of {', '.join(EVERY_ROW_SUITES)} at 1.0x or more")
    if not behind:
        return head + "."
    return head + "; behind:\n\n" + table(["row", "Upsweep ms", "CUB ms", "Upsweep / CUB"], body)


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
                  f"CUDA runtime {context['cuda_runtime']}" if "cuda_runtime" in context else None,
                  f"CUB_VERSION {context['cub_version']}" if "cub_version" in context else None,
                  f"commit {context['upsweep_commit']}" if "upsweep_commit" in context else None]
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
    rows.sort(key=lambda r: (r[0], r[1], IMPL_ORDER.get(r[2], len(IMPL_ORDER)), r[2], r[3] or 0))

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

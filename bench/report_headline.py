"""The README's performance table: a fixed set of rows from one run, Upsweep against the faster
CUB configuration of the same run (report.py --headline FILE)."""

from report_data import fmt, fmt_n, table
from report_tables import cub_reference

# (label, suite, case, sizes): the rows a newcomer asks about first.
HEADLINE_ROWS = [
    ("inclusive sum, int32", "core", "inclusive_sum_i32", [10**9, 10**8, 10**5, 10**2]),
    ("reduce (sum), int32", "core", "reduce_sum_i32", [10**9, 10**5]),
    ("sort keys, u32", "sort", "keys_u32", [2**28, 2**16]),
    ("sort keys, u64", "sort", "keys_u64", [2**28]),
    ("sort keys, f32", "sort", "keys_f32", [2**28]),
    ("sort pairs, u32/u32", "sort", "pairs_u32_u32", [2**28]),
    ("sort keys u32, 8 random low bits", "sort", "keys_u32_low8", [2**28]),
    ("select_if, 50 % kept, int32", "compact", "select_if_i32_50pct", [10**9, 10**5]),
    ("unique, 50 %, int32", "compact", "unique_i32_50pct", [10**9, 10**5]),
    ("run-length encode, 50 %, int32", "compact", "run_length_encode_i32_50pct", [10**9, 10**5]),
    ("partition (CUB's order), 50 %, int32", "compact", "partition_i32_50pct", [10**9, 10**5]),
    ("histogram, 256 bins, u32", "histogram", "even_u32_256", [2**28]),
    ("histogram, 256 bins, u8", "histogram", "even_u8_256", [2**30]),
]


def fmt_time(ms):
    return f"{fmt(ms * 1000)} us" if ms < 0.1 else f"{fmt(ms)} ms"


def headline_table(results):
    body = []
    for label, suite, case, sizes in HEADLINE_ROWS:
        for n in sizes:
            ours = results.get((suite, case, "upsweep", n))
            impl, cub = cub_reference(results, suite, case, n)
            if not ours or not cub or not ours["ms"] or not cub["ms"]:
                continue
            body.append([label, fmt_n(n), fmt_time(ours["ms"]), f"{fmt_time(cub['ms'])} ({impl})",
                         f"{cub['ms'] / ours['ms']:.2f}x"])
    return table(["operation", "n", "Upsweep", "CUB (faster config)", "Upsweep / CUB"], body)

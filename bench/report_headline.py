"""The README's performance table: a fixed set of rows from one run, Upsweep against the faster
CUB configuration of the same run (report.py --headline FILE)."""

from report_data import fmt, fmt_n, fmt_ratio, table
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
    ("sort keys, u16", "sort", "keys_u16", [2**28]),
    ("sort pairs, u64/u32", "sort", "pairs_u64_u32", [2**28]),
    ("reduce_by_key, int32, runs of 16", "compact", "reduce_by_key_i32_run16", [10**9]),
]


def fmt_time(ms):
    return f"{fmt(ms * 1000)} us" if ms < 0.1 else f"{fmt(ms)} ms"


def cub_version(number):
    """CUB_VERSION (300500) as 3.5.0."""
    return f"{number // 100000}.{number // 100 % 1000}.{number % 100}"


def caption(contexts):
    """Which run the table is: GPU, date, commit, CUDA, the CUB versions of its JSON files."""
    first = contexts[0][1] if contexts else {}
    versions = sorted({int(c["cub_version"]) for _, c in contexts if c.get("cub_version", "").isdigit()})
    cubs = " and ".join(f"CUB {cub_version(v)}" for v in versions) or "CUB (version not recorded)"
    runtime = first.get("cuda_runtime", "")
    cuda = f"CUDA {int(runtime) // 1000}.{int(runtime) % 1000 // 10}" if runtime.isdigit() else "CUDA"
    reps = first.get("repetitions", 1)
    timing = f"medians of {reps} repetitions" if reps > 1 else "each row's mean over its iterations"
    return (f"One run of `upsweep-bench --suite all` on an {first.get('gpu', 'unrecorded GPU')} "
            f"({first.get('date', '')[:10] or 'date not recorded'}, commit {first.get('upsweep_commit', 'not recorded')}, "
            f"{cuda}, {cubs} in the same run; {timing}, CUDA events, L2 flushed before every iteration, "
            f"fresh random data). CUB is the faster of its versions and 32- or 64-bit offset configurations.")


def headline_table(results, contexts=()):
    body = []
    for label, suite, case, sizes in HEADLINE_ROWS:
        for n in sizes:
            ours = results.get((suite, case, "upsweep", n))
            impl, cub = cub_reference(results, suite, case, n)
            if not ours or not cub or not ours["ms"] or not cub["ms"]:
                continue
            body.append([label, fmt_n(n), fmt_time(ours["ms"]), f"{fmt_time(cub['ms'])} ({impl})",
                         fmt_ratio(cub['ms'] / ours['ms'])])
    return caption(contexts) + "\n\n" + table(["operation", "n", "Upsweep", "CUB (faster config)", "Upsweep / CUB"],
                                               body)

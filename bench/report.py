#!/usr/bin/env python3
"""Markdown tables, a CSV and PNG charts from upsweep-bench JSON files.

    upsweep-bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true --json run.json
    python3 bench/report.py run.json [more.json ...] [--markdown FILE] [--csv FILE] [--plot DIR]
    tools/bench-report.sh run.json [DIR]      # all three into DIR (default: run/ beside run.json)

upsweep-bench --markdown/--csv/--plot runs this script on its own JSON after the run.

--summary (upsweep-bench's default after a run): to stdout only the header, the bars above 1.0x
and those missed, every row behind CUB, and the rows in error.

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
impl starts with `cub` (sort: `cub32` and `cub64`, and CUB 3.5's `cub35` and `cub35_64` from
upsweep-bench-cub35; the headline partition: `cub` and `cub32`), so Upsweep is compared with CUB's
best. Seeds rows compare with the core suite's `cub` row (scan:
inclusive_sum_i32, reduce: reduce_sum_i32); tune rows without CUB rows of their own with the core
or histogram suite's `cub` row of the same case.
"""

import argparse
import sys

from report_data import MATPLOTLIB_HINT, SUITES, load_all
from report_tables import (bars_table, behind_table, errors_section, header, reduce_table, scan_table,
    suite_tables, write_csv)
from report_headline import headline_table
from report_charts import charts_section, import_pyplot, plot, use_system_python_for_matplotlib


# ---- main ----------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="Exit status: 0 done, 1 bad input, 3 --plot without matplotlib.")
    parser.add_argument("json", nargs="*", help="Google Benchmark JSON files (upsweep-bench --json FILE)")
    parser.add_argument("--markdown", metavar="FILE", default="-", help="markdown tables to FILE ('-': stdout, the default)")
    parser.add_argument("--csv", metavar="FILE", help="one line per row: suite,case,impl,n,median_ms,gb_per_s,ratio_to_cub,error")
    parser.add_argument("--plot", metavar="DIR", help="PNG charts into DIR (needs matplotlib: python3-matplotlib)")
    parser.add_argument("--headline", metavar="FILE",
                        help="the README's performance table (a fixed set of rows, Upsweep / CUB) to FILE")
    parser.add_argument("--summary", action="store_true",
                        help="to stdout only the bars above 1.0x and those missed, the rows behind CUB, the errors")
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
    if args.headline:
        with open(args.headline, "w") as f:
            f.write(headline_table(results, contexts) + "\n")
        print(f"wrote {args.headline}", file=sys.stderr)
    if args.summary:
        sections = [header(contexts), bars_table(results, summary=True), behind_table(results),
                    errors_section(errors)]
        sys.stdout.write("\n" + "\n\n".join(s for s in sections if s) + "\n")
        return
    sections = [header(contexts)]
    if any(s == "seeds" for (s, _, _, _) in results):
        sections += [scan_table(results), reduce_table(results)]
    for suite in SUITES + sorted({s for (s, _, _, _) in results} - set(SUITES) - {"seeds"}):
        sections += suite_tables(results, suite)
    sections += [bars_table(results), behind_table(results), errors_section(errors)]
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

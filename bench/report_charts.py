"""The PNG charts of bench/report.py (matplotlib): GB/s against n per case with the copy roofline,
and the seed ladders' charts; and the markdown section that links them."""

import os
import subprocess
import sys

from report_data import CORE_OF_SEEDS, MATPLOTLIB_HINT, PLOTTED_SUITES, REFERENCE_LABELS, row_of
from report_tables import case_impls, reduce_rows, scan_rows, suite_cases


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
         "cub64": dict(color="tab:blue", marker="D"), "cub35": dict(color="tab:purple", marker="s"),
         "cub35_32": dict(color="tab:pink", marker="s"), "cub35_64": dict(color="tab:purple", marker="D"),
         "thrust": dict(color="tab:green", marker="^")}


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

#!/usr/bin/env bash
# Turns upsweep-bench JSON (from a GPU run) into markdown tables, a CSV and PNG charts, in one
# folder; no GPU needed. Installs python3-matplotlib through apt-get when it is missing.
#   tools/bench-report.sh RESULTS.json [MORE.json ...] [-o DIR]
# DIR defaults to the first JSON's path without .json (bench/results/X.json -> bench/results/X/);
# it receives report.md, headline.md (the README's performance table), results.csv and the
# charts (*.png), which report.md links.
set -euo pipefail
report=$(dirname "$0")/../bench/report.py

usage() { echo "usage: tools/bench-report.sh RESULTS.json [MORE.json ...] [-o DIR]" >&2; exit 2; }
jsons=()
out=""
while (($#)); do
  case $1 in
    -o|--out) (($# >= 2)) || usage; out=$2; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) usage ;;
    *) jsons+=("$1"); shift ;;
  esac
done
((${#jsons[@]})) || usage
for json in "${jsons[@]}"; do
  [ -r "$json" ] || { echo "bench-report: $json: cannot read" >&2; exit 1; }
done
[ -n "$out" ] || out=${jsons[0]%.json}

# report.py itself moves to /usr/bin/python3 when the python3 on PATH lacks matplotlib.
if ! python3 "$report" --check --plot "$out" 2>/dev/null; then
  echo "bench-report: installing python3-matplotlib (for the charts)"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q python3-matplotlib
fi

mkdir -p "$out"
python3 "$report" "${jsons[@]}" --markdown "$out/report.md" --csv "$out/results.csv" --headline "$out/headline.md" \
  --plot "$out"
echo "bench-report: $out/report.md, $out/headline.md (the README table), $out/results.csv and $(ls "$out"/*.png | wc -l) charts"

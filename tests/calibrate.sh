#!/usr/bin/env bash
# tests/calibrate.sh LAB [RUNS]: grade every version that matters for the
# fast stage RUNS times (default 3) and print one Markdown row per run:
# the fraction of the roof, the speedup over the baseline and the verdict.
# Thresholds in the lab's spec are set from this, with a margin both ways.
set -u
cd "$(dirname "$0")/.."
lab=$(basename "$(ls -d labs/${1:?usage: tests/calibrate.sh LAB [RUNS]}* | head -n 1)")
runs=${2:-3}
student=$(build/grade --lab "$lab" --lab-info | sed -n 's/^student_file=//p')
out=${CALIBRATE_OUT:-build/calibrate}
mkdir -p "$out"
BUILD=build
. tests/fixtures.sh # fixtures built on the reference are written out to grade them
files="labs/$lab/solution/$student"
for f in labs/"$lab"/tests/correct/*__fast.cu labs/"$lab"/tests/wrong/*__fast.cu; do
    [ -e "$f" ] || continue
    why=$(fixture_make "$f" "$out/fixtures") || { echo "calibrate: $f: $why" >&2; exit 2; }
    files="$files $(fixture_graded "$f" "$out/fixtures")"
done
field() { grep -o "\"$1\": [-0-9.e+]*" "$2" | head -n 1 | awk '{print $2}'; }
echo "| version | run | % of roof | speedup | fast |"
echo "|---|---|---|---|---|"
for f in $files; do
    for r in $(seq 1 "$runs"); do
        json=$out/$(basename "$f" .cu)-$r.json
        ./grade LAB="$lab" SUBMISSION="$f" RESULTS="$json" >"${json%.json}.log" 2>&1
        roof=$(field roofline_fraction "$json")
        speed=$(field speedup "$json")
        verdict=$(grep -o '"name": "fast", "status": "[a-z]*"' "$json" | sed 's/.*: "//; s/"//')
        printf '| %s | %d | %s | %s | %s |\n' "$(basename "$f" .cu)" "$r" \
            "$(awk -v x="${roof:-nan}" 'BEGIN{ if (x == "nan") print "-"; else printf "%.1f", 100 * x }')" \
            "$(awk -v x="${speed:-nan}" 'BEGIN{ if (x == "nan") print "-"; else printf "%.2fx", x }')" \
            "${verdict:-?}"
    done
done

#!/usr/bin/env bash
# tests/figures.sh [DIR]: the fast-stage figures of every end-to-end case
# that reached it in the last make test on a GPU (DIR defaults to
# build/test), one Markdown row each: % of roof, speedup, verdict. Used to
# calibrate thresholds together with make ladder.
set -u
dir=${1:-build/test}
field() { grep -o "\"$1\": [-0-9.e+]*" "$2" | head -n 1 | awk '{print $2}'; }
echo "| case | % of roof | speedup | fast |"
echo "|---|---|---|---|"
for json in "$dir"/e2e-*.json; do
    grep -q '"fast": {' "$json" 2>/dev/null || continue
    name=$(basename "$json" .json | sed 's/^e2e-//')
    roof=$(field roofline_fraction "$json")
    speed=$(field speedup "$json")
    verdict=$(grep -o '"name": "fast", "status": "[a-z]*"' "$json" | sed 's/.*: "//; s/"//')
    printf '| %s | %s | %s | %s |\n' "$name" \
        "$(awk -v x="${roof:-}" 'BEGIN{ if (x == "") print "-"; else printf "%.1f", 100 * x }')" \
        "$(awk -v x="${speed:-}" 'BEGIN{ if (x == "") print "-"; else printf "%.2fx", x }')" "$verdict"
done

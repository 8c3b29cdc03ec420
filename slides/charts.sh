#!/usr/bin/env bash
# slides/charts.sh [labs/NN-name/slides/ladder.json ...] - draw each measured
# ladder as a bar chart, ladder.png beside its data, with gnuplot (`make
# charts` runs it; with no file named, every lab's).
#
# The data are the grader's own ladder results (`make ladder LAB=NN
# RESULTS=labs/NN-name/slides/ladder.json` on the GPU), which record the GPU, the
# CUDA version and the date; the chart's title repeats them. Labs measured
# against copy bandwidth show each rung's % of copy, labs measured against a
# vendor library (matmul: cuBLAS) each rung's % of its speed, labs that
# count their instructions (02, 08) each rung's % of the instruction roof
# (the reference's instructions at full issue); the others show
# the speedup over the first rung, on a log scale when the ladder spans more
# than 50x. Vendor rungs (CUB, Thrust, cuBLAS) are drawn in another colour.
# A dotted line across marks the roof (what 100% is: the copy, the slowest
# part alone, the reference's instructions at full issue, or the vendor
# library), and a dashed one the vendor's rung
# where the roof is another, so each rung reads against both.
# Rungs named rN_... (another radius than the ladder's problem) are left out.
#
# slides/charts.sh --mine RESULT.json OUT.png LADDER.json (`make plot`) draws
# one lab's ladder with the kernel of a grading beside its rungs: the fast
# stage's figures from the grader's JSON report, as the same measure (its %
# of copy or of the vendor library, timed in that grading; or the ladder's
# first rung's time over its own), in a third colour, with a dashed line
# across at its height, so the student sees which rungs it beats; and for a
# lab that counts FLOPs, OUT-roofline.png: the kernel under the roofline.
set -u
cd "$(dirname "$0")/.."
if ! command -v gnuplot >/dev/null; then
    echo "make charts: gnuplot not found. On Debian or Ubuntu: sudo apt-get install gnuplot-nox" >&2
    exit 2
fi
mine="" out=""
if [ "${1:-}" = --mine ]; then
    mine=${2:-} out=${3:-}
    shift 3 2>/dev/null || set --
    if [ -z "$out" ] || [ $# -ne 1 ]; then
        echo "usage: slides/charts.sh --mine RESULT.json OUT.png LADDER.json" >&2
        exit 2
    fi
    if [ ! -s "$mine" ]; then
        echo "make plot: no report $mine: grade first (make grade LAB=NN STAGE=fast on a GPU)" >&2
        exit 2
    fi
    if ! grep -q '"submission_ms": [0-9]' "$mine"; then
        echo "make plot: $mine has no fast-stage figures: grade with the fast stage on a GPU first" >&2
        exit 2
    fi
    if [ ! -s "$1" ]; then
        echo "make plot: no measured ladder $1 for this lab" >&2
        exit 2
    fi
fi
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(labs/[0-9][0-9]-*/slides/ladder.json)

# One field of the JSON header line: "key": "text" or "key": number.
field() { grep -o "\"$2\": \"\\?[^\",]*" "$1" | head -n 1 | sed 's/.*: "\?//'; }
# A number field (nothing for null or a text).
number() { grep -o "\"$2\": [-+0-9.eE]*" "$1" | head -n 1 | sed 's/.*: //'; }

# roofline REPORT PNG TITLE: where a graded kernel of a lab with an
# arithmetic peak (the report's gflops and peak_gflops) sits under the
# roofline: the copy's bandwidth times the kernel's FLOP per byte of the
# data it must move, up to the peak. Nothing for the other labs.
roofline() {
    local report=$1 png=$2 title=$3 gflops gbps copy peak
    gflops=$(number "$report" gflops)
    peak=$(number "$report" peak_gflops)
    gbps=$(number "$report" gbps)
    copy=$(number "$report" copy_gbps)
    [ -n "$gflops" ] && [ -n "$peak" ] && [ -n "$gbps" ] && [ -n "$copy" ] || return 0
    local intensity roof label
    intensity=$(awk -v f="$gflops" -v b="$gbps" 'BEGIN { printf "%.6g", f / b }')
    roof=$(awk -v i="$intensity" -v c="$copy" -v p="$peak" 'BEGIN { r = i * c; printf "%.6g", r < p ? r : p }')
    label=$(awk -v f="$gflops" -v r="$roof" -v i="$intensity" \
        'BEGIN { printf "%.0f GFLOP/s = %.0f%% of the roof at %.3g FLOP per byte", f, 100 * f / r, i }')
    gnuplot <<GP || return 1
set terminal pngcairo size 1200,675 font "DejaVu Sans,14"
set output "$png"
set title "$title: your kernel under the roofline" font ",15"
set logscale xy
set xrange [$intensity / 100 : $intensity * 100 > $peak / $copy * 10 ? $intensity * 100 : $peak / $copy * 10]
set yrange [$gflops / 100 : $peak * 3]
set xlabel "FLOP per byte the problem must move"
set ylabel "GFLOP/s"
set grid
set key top left
roof(x) = x * $copy < $peak ? x * $copy : $peak
set label 1 "$label" at $intensity, $gflops offset -1.5,-1.2 right tc rgb '#7570b3'
plot roof(x) with lines lw 3 lc rgb '#1b9e77' title "the roof: copy bandwidth ($(printf '%.0f' "$copy") GB/s), then the peak ($(printf '%.0f' "$peak") GFLOP/s)", \
     '-' with points pt 7 ps 2.5 lc rgb '#7570b3' title "your kernel"
$intensity $gflops
e
GP
    [ -s "$png" ] && echo "drew $png (your kernel: $label)"
}

# across N Y TEXT COLOUR DASH [BELOW]: gnuplot's lines for a labelled
# dashed line across the chart at height Y (arrow and label number N), the
# label above the line, or below it when BELOW is given (so two lines at
# nearly the same height keep their labels apart). Labels are plain text:
# names like d_in are not subscripts.
across() {
    local offset=0.7
    [ -n "${6:-}" ] && offset=-0.9
    echo "set arrow $1 from graph 0, first $2 to graph 1, first $2 nohead dt $5 lw 2 lc rgb '$4' back"
    echo "set label $1 \"$3\" at graph 0.01, first $2 offset 0,$offset font ',11' tc rgb '$4' noenhanced"
}
status=0
for json in "${files[@]}"; do
    lab=$(basename "$(dirname "$(dirname "$json")")") # labs/NN-name/slides/ladder.json
    png=${out:-$(dirname "$json")/ladder.png}
    mkdir -p "$(dirname "$png")" # make plot's build/last/ may not exist yet
    roof=$(field "$json" roof)
    # The problem as the grader describes it ("n=67108864 (typical values)"),
    # without the remark in brackets; older files have only the sizes.
    problem=$(grep -o '"problem": "[^"(]*' "$json" | sed 's/.*: "//; s/ *$//')
    [ -n "$problem" ] || problem=$(grep -o '"dims": \[[^]]*\]' "$json" | sed 's/.*\[//; s/\]//')
    date=$(field "$json" date | cut -c1-10)
    # A bound of one part is named ("reading d_in alone"); of several, the slowest.
    bound="the slowest part timed alone"
    parts=$(grep -o '"part": "[^"]*"' "$json" | sed 's/.*: "//; s/"$//')
    [ -n "$parts" ] && [ "$(printf '%s\n' "$parts" | wc -l)" = 1 ] && bound="$parts alone"
    title="Lab $lab, $problem\n$(field "$json" device), CUDA $(field "$json" cuda_runtime), $date"
    # One row per rung: index, name, value, label, vendor (0/1).
    dat=$(mktemp)
    # Labs measured against a vendor library: % of that rung's speed.
    vendor_ms=$(grep '"name": "vendor_' "$json" | head -n 1 | grep -o '"ms": [^,]*' | sed 's/.*: //')
    vendor=$(grep -o '"name": "vendor_[^"]*' "$json" | head -n 1 | sed 's/.*vendor_//; s/_/ /g')
    # Roofs whose rungs read as a % of it straight from roofline_fraction
    # (a graded kernel's: issue_fraction for the instruction roof).
    percent=0
    case $roof in copy | parts | issue) percent=1 ;; esac
    awk -v percent="$percent" -v roof="$roof" -v vendor_ms="${vendor_ms:-0}" '
        /"name":/ {
            match($0, /"name": "[^"]*"/); name = substr($0, RSTART + 9, RLENGTH - 10)
            # Rungs named rN_... run at another radius than the problem of the
            # ladder (lab 11 times radius 7 so): measured against the wrong
            # bytes, they stay in the table and out of the chart.
            if (name ~ /^r[0-9]+_/) next
            match($0, /"roofline_fraction": [^,]*/); frac = substr($0, RSTART + 21, RLENGTH - 21)
            match($0, /"total_speedup": [^,}]*/); total = substr($0, RSTART + 17, RLENGTH - 17)
            match($0, /"ms": [^,]*/); ms = substr($0, RSTART + 6, RLENGTH - 6)
            vendor = (name ~ /^(vendor|cub|thrust|cublas)_/) ? 1 : 0
            gsub(/_/, " ", name)
            if (percent) { v = 100 * frac; label = sprintf(v < 10 ? "%.1f%%" : "%.0f%%", v) }
            else if (roof == "vendor" && vendor_ms > 0) { v = 100 * vendor_ms / ms; label = sprintf("%.0f%%", v) }
            else { v = total; label = sprintf("%.3gx", v) }
            printf "%d \"%s\" %.6g \"%s\" %d %.6g\n", n++, name, v, label, vendor, ms
        }' "$json" >"$dat"
    if [ ! -s "$dat" ]; then
        echo "FAILED $json: no rungs found" >&2
        status=1
        rm -f "$dat"
        continue
    fi
    yours=""
    if [ -n "$mine" ]; then
        # The graded kernel as one more bar (kind 2), measured like the rungs.
        frac=$(number "$mine" "$([ "$roof" = issue ] && echo issue_fraction || echo roofline_fraction)")
        ms=$(number "$mine" submission_ms)
        yours=$(awk -v percent="$percent" -v roof="$roof" -v frac="${frac:-0}" -v ms="$ms" -v vendor_ms="${vendor_ms:-0}" '
            NR == 1 { first = $NF }
            END {
                if (percent || (roof == "vendor" && vendor_ms > 0)) {
                    v = 100 * frac; label = sprintf(v < 10 ? "%.1f%%" : "%.0f%%", v)
                } else { v = first / ms; label = sprintf("%.3gx", v) }
                printf "%d \"your kernel\" %.6g \"%s\" 2 %.6g\n", NR, v, label, ms
            }' "$dat")
        echo "$yours" >>"$dat"
    fi
    max=$(awk 'BEGIN { m = 0 } { if ($(NF-3) + 0 > m) m = $(NF-3) + 0 } END { print m }' "$dat")
    if [ "$roof" = copy ]; then
        ylabel="% of copy bandwidth (same run)"
        yrange="set yrange [0:110]"
    elif [ "$roof" = parts ]; then
        ylabel="% of the bound: $bound (same run)"
        yrange="set yrange [0:110]"
    elif [ "$roof" = issue ]; then
        ylabel="% of the instruction roof"
        yrange="set yrange [0:110]"
    elif [ "$roof" = vendor ] && [ -n "$vendor_ms" ]; then
        ylabel="% of $vendor (same run)"
        yrange="set yrange [0:115]"
    elif awk -v m="$max" 'BEGIN { exit !(m > 50) }'; then
        ylabel="speedup over the first rung (log scale)"
        yrange="set logscale y; set yrange [0.5:$max*4]"
    else
        ylabel="speedup over the first rung"
        yrange="set yrange [0:$max*1.2]"
    fi
    # Lines across: the roof (what 100% is), and the vendor's rung where
    # the roof is another, so every rung reads against both.
    lines=""
    case $roof in
    copy) lines=$(across 2 100 "the roof: a copy of the same bytes" '#555555' 3) ;;
    parts) lines=$(across 2 100 "the roof: $bound" '#555555' 3) ;;
    issue) lines=$(across 2 100 "the roof: the reference's instructions, every scheduler issuing one per clock" '#555555' 3) ;;
    vendor) [ -n "$vendor_ms" ] && lines=$(across 2 100 "the roof here: $vendor" '#555555' 3) ;;
    esac
    # The vendor's line at its fastest rung (lab 05 times two libraries).
    best_vendor='$(NF-1) == 1 && (!seen || $(NF-3) + 0 > best + 0) { seen = 1; best = $(NF-3); match($0, /"[^"]*"/); name = substr($0, RSTART + 1, RLENGTH - 2) }'
    vendor_at=$(awk "$best_vendor"' END { if (seen) print best }' "$dat")
    if [ -n "$vendor_at" ] && { [ "$roof" = copy ] || [ "$roof" = parts ]; }; then
        vendor_name=$(awk "$best_vendor"' END { sub(/^vendor /, "", name); print name }' "$dat")
        lines="$lines
$(across 3 "$vendor_at" "the vendor: $vendor_name" '#d95f02' 2 below)"
    fi
    gnuplot <<GP || status=1
set terminal pngcairo size 1200,675 font "DejaVu Sans,14"
set output "$png"
set title "$title" font ",15" noenhanced
set ylabel "$ylabel" noenhanced
$lines
$yrange
set style fill solid 0.85 border -1
set boxwidth 0.7
set grid ytics
set key off
set xtics rotate by 30 right nomirror font ",12"
set bmargin 9
set rmargin 4
set lmargin 16
$([ -n "$yours" ] && echo "set arrow from graph 0, first $(echo "$yours" | awk '{ print $(NF-3) }') to graph 1, first $(echo "$yours" | awk '{ print $(NF-3) }') nohead dt 2 lw 2 lc rgb '#7570b3'")
plot "$dat" using 1:3:(column(5) == 2 ? 0x7570b3 : column(5) > 0 ? 0xd95f02 : 0x1b9e77):xtic(2) with boxes lc rgb variable, \
     "$dat" using 1:3:4 with labels offset 0,0.8 font ",12"
GP
    rm -f "$dat"
    [ -s "$png" ] && echo "drew $png${yours:+ (your kernel: $(echo "$yours" | sed 's/.*" [0-9.e+-]* "\([^"]*\)".*/\1/'))}"
    [ -n "$mine" ] && { roofline "$mine" "${png%.png}-roofline.png" "Lab $lab\n$(field "$json" device)" || status=1; }
done
exit $status

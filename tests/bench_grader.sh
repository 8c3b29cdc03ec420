#!/usr/bin/env bash
# make bench-grader: how long grading takes, per lab and per stage, for the
# reference solution (every stage) and the skeleton (stops at work), one
# grading at a time; then the same submissions as an instructor grades them:
# one class batch per lab (JOBS=2), one after another. A benchmark, not a
# test: it prints a table, the references' fast lines and two totals, and
# checks nothing.
cd "$(dirname "$0")/.." || exit 2
# Every file built afresh, as a first grading builds it: no runner reused
# from build/cache (make's BUILD_CACHE), so the build column is honest.
export BUILD_CACHE=
out=${BUILD:-build}/bench-grader
mkdir -p "$out"

# seconds FILE KEY: a stage's seconds ("work", "right", "fast"), or one of
# the grading's own ("build", "total"), from a results JSON.
seconds() {
    case $2 in
    build | total | probe)
        grep -o '"seconds": {"probe": [^}]*' "$1" | grep -o "\"$2\": [0-9.e-]*" | sed 's/.*: //' ;;
    *)
        grep -o "\"name\": \"$2\", \"status\": .*" "$1" | head -n 1 |
            grep -o '"seconds": [0-9.e-]*' | head -n 1 | sed 's/.*: //' ;;
    esac
}

row() {
    local json=$1 label=$2
    printf '| %-28s |' "$label"
    for k in build work right fast total; do
        local v
        v=$(seconds "$json" "$k")
        if [ -n "$v" ] && [ "$v" != 0 ]; then printf ' %6.1f |' "$v"; else printf ' %6s |' "-"; fi
    done
    printf '\n'
}

# "LAB STUDENT_FILE" for every lab, or only LAB=NN's.
labs_and_files() {
    local dir lab
    for dir in labs/[0-9][0-9]-*/; do
        lab=$(basename "$dir")
        [ -z "${LAB:-}" ] || [ "$lab" = "$LAB" ] || [[ $lab == "$LAB"-* ]] || continue
        echo "$lab $("${BUILD:-build}"/grade --lab "$lab" --lab-info | sed -n 's/^student_file=//p')"
    done
}

start=$(date +%s.%N)
figures=
echo "| what                         |  build |   work |  right |   fast |  total |"
echo "|------------------------------|--------|--------|--------|--------|--------|"
while read -r lab student; do
    ./grade LAB="$lab" SUBMISSION="labs/$lab/solution/$student" RESULTS="$PWD/$out/$lab-solution.json" \
        </dev/null >"$out/$lab-solution.log" 2>&1
    row "$out/$lab-solution.json" "$lab reference"
    figures+="  $lab: $(grep -m 1 '^fast ' "$out/$lab-solution.log" | sed 's/^fast  *//')
"
    ./grade LAB="$lab" RESULTS="$PWD/$out/$lab-skeleton.json" </dev/null >"$out/$lab-skeleton.log" 2>&1
    row "$out/$lab-skeleton.json" "$lab skeleton"
done < <(labs_and_files)
echo
echo "all gradings, one after another: $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }') s (logs in $out)"
# The references' fast figures, to hold against the last run's (a change
# that makes grading faster must leave them where they were).
echo
echo "the references' fast stages:"
printf '%s' "$figures"
echo

# The class batches: each lab's reference and skeleton as two students.
start=$(date +%s.%N)
labs=0 bad=
while read -r lab student; do
    rm -rf "$out/class-$lab" "$out/class-$lab-in" && mkdir -p "$out/class-$lab-in"
    cp "labs/$lab/solution/$student" "$out/class-$lab-in/reference.cu"
    cp "labs/$lab/$student" "$out/class-$lab-in/skeleton.cu"
    make -s --no-print-directory class LAB="$lab" SUBMISSIONS="$out/class-$lab-in" OUT="$out/class-$lab" \
        JOBS=2 </dev/null >"$out/class-$lab.log" 2>&1 || bad="$bad $lab"
    labs=$((labs + 1))
done < <(labs_and_files)
echo "class batches of every reference and skeleton ($labs labs, one batch each, JOBS=2): $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }') s${bad:+; the batch failed for$bad (see $out/class-LAB.log)}"

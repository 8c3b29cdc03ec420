#!/usr/bin/env bash
# grader/status.sh BUILD [FORMAT] - every lab with its last result, for
# `make status` (FORMAT=md: a page with the ladder charts, BUILD/status.md).
#
# make grade keeps each lab's last report as BUILD/last/<lab>.json (the
# grader's --keep-last); this reads them: the verdict of each stage, the
# fast stage's figures, when, on what, and the next step.
set -u
cd "$(dirname "$0")/.."
build=${1:?usage: grader/status.sh BUILD [FORMAT]}
format=${2:-text}
case $format in
text | md) ;;
*)
    echo "make status: FORMAT is text or md, not '$format'" >&2
    exit 2
    ;;
esac

# A stage's status and message from one report: "pass<TAB>message".
stage_of() {
    grep -o "\"name\": \"$2\", \"status\": \"[a-z]*\", \"message\": \"\\([^\"\\\\]\\|\\\\.\\)*\"" "$1" |
        head -n 1 |
        sed 's/^"name": "[a-z]*", "status": "\([a-z]*\)", "message": "\(.*\)"$/\1\t\2/; s/\\"/"/g; s/\\\\/\\/g'
}

labs=(labs/[0-9][0-9]-*/)
rows=()
for dir in "${labs[@]}"; do
    lab=$(basename "$dir")
    json=$build/last/$lab.json
    if [ ! -s "$json" ]; then
        rows+=("$lab|-|-|-|never|make grade LAB=${lab%%-*}")
        continue
    fi
    mode=$(grep -o '"mode": "[a-z]*"' "$json" | head -n 1 | sed 's/.*: "//; s/"//')
    [ "$mode" = emulated ] && mode="CPU" || mode="GPU"
    when="$(date -r "$json" '+%Y-%m-%d %H:%M') ($mode)"
    verdicts=() next=""
    for stage in work right fast; do
        line=$(stage_of "$json" "$stage")
        status=${line%%$'\t'*}
        message=${line#*$'\t'}
        verdicts+=("${status:-?}")
        [ -n "$next" ] && continue
        case $status in
        pass) [ "$stage" = fast ] && next="passed: $message" ;;
        fail | error) next="$stage: $message (the report's hint says what to look at)" ;;
        skipped)
            case $message in
            *"needs a GPU"*) next="work and right pass on the CPU; fast needs a GPU" ;;
            *"not requested"*) next="$stage not graded yet: make grade LAB=${lab%%-*}" ;;
            *) next="$stage skipped: $message" ;;
            esac
            ;;
        esac
    done
    rows+=("$lab|${verdicts[0]}|${verdicts[1]}|${verdicts[2]}|$when|$next")
done

if [ "$format" = text ]; then
    printf '%-20s %-8s %-8s %-8s %-24s %s\n' lab work right fast "last graded" "next step"
    for row in "${rows[@]}"; do
        IFS='|' read -r lab w r f when next <<<"$row"
        printf '%-20s %-8s %-8s %-8s %-24s %s\n' "$lab" "$w" "$r" "$f" "$when" "$next"
    done
    exit 0
fi

page=$build/status.md
{
    echo "# Where you stand"
    echo
    echo "Each lab's last grading (\`make grade\`), as of $(date '+%Y-%m-%d %H:%M')."
    echo
    echo "| lab | work | right | fast | last graded | next step |"
    echo "|---|---|---|---|---|---|"
    for row in "${rows[@]}"; do
        IFS='|' read -r lab w r f when next <<<"$row"
        echo "| [$lab]($PWD/labs/$lab/README.md) | $w | $r | $f | $when | ${next//|/\\|} |"
    done
    for dir in "${labs[@]}"; do
        lab=$(basename "$dir")
        [ -e "$dir/slides/ladder.png" ] || continue
        echo
        mine=$build/last/$lab.png
        # make plot's drawing of the last grading, unless a grading came since.
        if [ -s "$mine" ] && ! [ "$build/last/$lab.json" -nt "$mine" ]; then
            last=$(cd "$build/last" && pwd) # the page's links are absolute
            echo "## $lab: your kernel on the solution's ladder"
            echo
            echo "![your kernel on the ladder of $lab]($last/$lab.png)"
            [ -s "$last/$lab-roofline.png" ] &&
                echo && echo "![your kernel under the roofline]($last/$lab-roofline.png)"
        else
            echo "## $lab: the solution's ladder, measured"
            echo
            echo "![the ladder of $lab]($PWD/labs/$lab/slides/ladder.png)"
            echo
            echo "After a fast stage on a GPU, \`make plot LAB=${lab%%-*}\` puts your kernel on it."
        fi
    done
} >"$page"
echo "wrote $page"

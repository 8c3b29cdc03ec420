#!/usr/bin/env bash
# templates/new_lab.sh NN-name - the starting point of a new lab, written
# from templates/lab/ (`make new-lab NAME=NN-name` runs it).
#
# Every file under templates/lab/ is copied to the same path in the
# repository with its placeholders filled in, in its name and in its text:
#   @ID@      the lab's folder name         10-scan
#   @NN@      its two-digit number          10
#   @TITLE@   its title (dashes to spaces)  scan
#   @ENTRY@   the entry point (dashes to underscores; the student's file is
#             @ENTRY@.cu)                   scan
#   @FILE@    the student's file            scan.cu
#   @SYMBOL@  the spec's symbol, which the Makefile expects every
#             labs/NN-name/trusted/spec.c to define LAB_10_SCAN
#   @BEFORE@, @NEXT@   the README's links to the labs on either side
#   @MIN_ROOFLINE_PCT@, @MIN_SPEEDUP@   the fast stage's thresholds, read
#             from the template's spec.c, so the README and the slides
#             quote the spec (tests/facts/check_facts.c holds them to it)
#
# The result is a complete lab for a placeholder problem, y[i] = 2 x[i] + 1:
# it builds, its skeleton fails work, its reference passes work and right,
# and its test files behave as named. Each "TODO(author)" in it marks what
# to replace. Nothing is overwritten: the script refuses (exit 2, one line)
# a malformed name, a number another lab has, a file that exists already,
# and a working directory other than the repository's root.
set -eu

die() {
    echo "make new-lab: $*" >&2
    exit 2
}

# The repository whose templates these are must be the working directory:
# the paths written are relative to it.
root=$(cd "$(dirname "$0")/.." && pwd -P)
[ "$root" = "$(pwd -P)" ] && [ -f Makefile ] && [ -d labs ] && [ -d templates/lab ] ||
    die "run it from the repository's root, $root (make new-lab NAME=NN-name does)"

[ $# -eq 1 ] && [ -n "$1" ] || die "which lab? NAME=NN-name, e.g. make new-lab NAME=10-scan"
name=$1

# Two digits, a dash, then a name that can also be a C identifier once its
# dashes are underscores: a lowercase letter first, then lowercase letters
# and digits in words joined by single dashes.
[[ $name =~ ^[0-9]{2}-[a-z][a-z0-9]*(-[a-z0-9]+)*$ ]] ||
    die "'$name' is not NN-name: two digits, a dash, then lowercase letters, digits and single dashes, starting with a letter (e.g. 10-scan)"

number=${name:0:2}
rest=${name:3}
title=${rest//-/ }
entry=${rest//-/_}
file=$entry.cu
symbol=LAB_$(echo "$name" | tr 'a-z-' 'A-Z_') # the Makefile's rule for the registry

# The entry point is an extern "C" function: it may not be a keyword or a
# function the runner or the math library already defines.
reserved=" auto break case char const continue default do double else enum extern float for
    goto if inline int long register restrict return short signed sizeof static struct switch
    typedef union unsigned void volatile while bool class delete new private public template
    this throw try typename virtual namespace operator friend main abs fabs sqrt exp log pow
    sin cos tan floor ceil round fma min max malloc free memcpy memset printf exit "
case " $(echo $reserved) " in
*" $entry "*) die "the entry point '$entry' would clash with a C or C++ name: pick another name" ;;
esac

[ ! -e "labs/$name" ] || die "labs/$name exists already"
for other in labs/"$number"-*; do
    if [ -e "$other" ]; then die "lab $number is taken by $other: pick another number"; fi
done

# The labs on either side, for the README's opening line.
lab_link() { # folder -> [Lab NN — title](../folder/README.md)
    local heading
    heading=$(sed -n '1s/^# //p' "labs/$1/README.md" 2>/dev/null)
    echo "[${heading:-Lab ${1:0:2}}](../$1/README.md)"
}
before="C, and the quick start of the [main README](../../README.md)"
next="the end of the workbook for now"
for dir in labs/[0-9][0-9]-*/; do
    [ -d "$dir" ] || continue
    other=$(basename "$dir")
    if [ "${other:0:2}" \< "$number" ]; then
        before=$(lab_link "$other") # the last one below wins
    elif [ "$next" = "the end of the workbook for now" ]; then
        next=$(lab_link "$other") # the first one above
    fi
done

# The thresholds, from the one place they are written.
spec_template=templates/lab/labs/@ID@/trusted/spec.c
min_roofline=$(sed -n 's/^ *\.min_roofline = \([0-9.]*\),.*/\1/p' "$spec_template")
min_speedup=$(sed -n 's/^ *\.min_speedup = \([0-9.]*\),.*/\1/p' "$spec_template")
[ -n "$min_roofline" ] && [ -n "$min_speedup" ] ||
    die "$spec_template lacks a '.min_roofline = ...,' or '.min_speedup = ...,' line"
min_roofline_pct=$(awk -v f="$min_roofline" 'BEGIN { printf "%g", 100 * f }')
min_speedup=$(awk -v f="$min_speedup" 'BEGIN { printf "%g", f }')

# A value as sed's replacement text: \, & and the | delimiter escaped.
quote() { printf '%s' "$1" | sed 's/[\\&|]/\\&/g'; }
fill=(-e "s|@ID@|$(quote "$name")|g" -e "s|@NN@|$number|g" -e "s|@TITLE@|$(quote "$title")|g"
      -e "s|@ENTRY@|$entry|g" -e "s|@FILE@|$file|g" -e "s|@SYMBOL@|$symbol|g"
      -e "s|@BEFORE@|$(quote "$before")|g" -e "s|@NEXT@|$(quote "$next")|g"
      -e "s|@MIN_ROOFLINE_PCT@|$min_roofline_pct|g" -e "s|@MIN_SPEEDUP@|$min_speedup|g")

# Every file is written into a scratch folder first and moved into place
# only when all of them are complete, so a failure leaves nothing behind.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
written=()
while IFS= read -r template; do
    path=$(printf '%s' "${template#templates/lab/}" | sed "${fill[@]}")
    [ ! -e "$path" ] || die "$path exists already"
    mkdir -p "$stage/$(dirname "$path")"
    sed "${fill[@]}" "$template" >"$stage/$path"
    written+=("$path")
done < <(find templates/lab -type f | LC_ALL=C sort)
[ ${#written[@]} -gt 0 ] || die "templates/lab holds no files"

# A placeholder the list above does not know would reach the lab as text.
left=$(grep -rnoE '@[A-Z][A-Z_]*@' "$stage" | head -n 1 || true)
[ -z "$left" ] || die "a placeholder has no value: ${left#"$stage"/}"

cp -R "$stage"/. .

echo "make new-lab: lab $name: title '$title', entry point $entry, student file $file, spec $symbol"
for path in "${written[@]}"; do echo "  wrote $path"; done
prev_readme=$(echo "$before" | sed -n 's|.*](\.\./\([^)]*\)).*|labs/\1|p')
cat <<EOF
next steps (each TODO(author) marks a place: grep -rn 'TODO(author)' labs/$name):
  1. replace the placeholder problem, y[i] = 2 * x[i] + 1, with the lab's own in trusted/spec.c, trusted/lab.cu, $file, the solution and the ladder; then make all and ./grade LAB=$number SUBMISSION=labs/$name/solution/$file STAGE=right EMU=1
  2. fill in labs/$name/README.md: what it teaches, the contract, the idea, what the grader checks, reading a failure, profiling
  3. calibrate the thresholds on a GPU with make ladder LAB=$number and tests/calibrate.sh $number 3, then set min_roofline and min_speedup in trusted/spec.c, the figures in labs/$name/INSTRUCTOR.md and the thresholds the README and the slides quote (now ${min_roofline_pct}% of copy and ${min_speedup}x, provisional)
  4. add at least 8 wrong files to labs/$name/tests/wrong/ and 3 correct ones to labs/$name/tests/correct/, named what__stage.cu after the stage that must first reject (or last pass) them
  5. write labs/$name/slides/deck.md and draw its chart: make ladder LAB=$number RESULTS=labs/$name/slides/ladder.json, then make charts (make test's slides/$name/data check fails until then)
  6. link the lab from the lab table in README.md${prev_readme:+ and from the 'Next:' of $prev_readme}, then run make test
EOF

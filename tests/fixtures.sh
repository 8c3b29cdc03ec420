# tests/fixtures.sh - sourced by tests/run.sh and tests/calibrate.sh.
#
# Many wrong and correct files are the lab's reference solution plus a
# wrapper (a cache, an answer table) or with one small change (another
# summation order, a capped grid). Such a file does not copy the
# reference: it says, in its first comment,
#
#   BUILDS-ON: the reference
#
# and holds only what it adds. The file graded is then the reference
# solution with its entry point renamed reference_<entry> (and made
# static), each line of the fixture
#
#   EDIT: <sed expression>
#
# applied to that reference in turn, followed by the whole fixture. A fix to
# the reference so reaches every file built on it, and an edit that no
# longer changes the reference is reported instead of grading the reference
# under the fixture's name. (A graded file cannot #include another: the
# grader refuses includes outside the submission's folder.)

# fixture_builds_on_reference FILE: FILE says it builds on the reference.
fixture_builds_on_reference() { grep -q 'BUILDS-ON: the reference' "$1"; }

# fixture_lab FILE: the lab of a test file, .../labs/LAB/tests/KIND/NAME.cu.
fixture_lab() { basename "${1%/tests/*}"; }

# fixture_graded FILE DIR: the path of the file to grade for FILE
# (labs/LAB/tests/KIND/NAME.cu): FILE itself, or for a file built on the
# reference, DIR/KIND/LAB/NAME.cu.
fixture_graded() {
    local file=$1 dir=$2
    if fixture_builds_on_reference "$file"; then
        local lab kind
        kind=$(basename "$(dirname "$file")")
        lab=$(fixture_lab "$file")
        echo "$dir/$kind/$lab/$(basename "$file")"
    else
        echo "$file"
    fi
}

# fixture_make FILE DIR: writes the file to grade for FILE (when it builds
# on the reference). Returns 1 with the reason on stdout when it cannot.
fixture_make() {
    local file=$1 dir=$2 out lab info entry ref text new expr
    out=$(fixture_graded "$file" "$dir")
    [ "$out" = "$file" ] && return 0
    lab=$(fixture_lab "$file")
    info=$("$BUILD/grade" --lab "$lab" --lab-info) || { echo "no lab $lab"; return 1; }
    entry=$(echo "$info" | sed -n 's/^entry=//p')
    ref=labs/$lab/solution/$(echo "$info" | sed -n 's/^student_file=//p')
    text=$(sed "s/^extern \"C\" cudaError_t $entry(/static cudaError_t reference_$entry(/" "$ref")
    if ! grep -q "^static cudaError_t reference_$entry(" <<<"$text"; then
        echo "$ref does not define $entry on a line of its own starting 'extern \"C\" cudaError_t $entry('"
        return 1
    fi
    while IFS= read -r expr; do
        new=$(sed -e "$expr" <<<"$text" 2>&1) || { echo "EDIT '$expr' is not a sed expression: $new"; return 1; }
        if [ "$new" = "$text" ]; then
            echo "EDIT '$expr' no longer changes $ref"
            return 1
        fi
        text=$new
    done < <(grep -o 'EDIT: .*' "$file" | cut -d' ' -f2-)
    mkdir -p "$(dirname "$out")"
    { printf '%s\n\n' "$text"; cat "$file"; } >"$out"
}

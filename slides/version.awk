# slides/version.awk - one deck source, two decks. A slide (from a "# " or
# "## " heading to the next) whose heading ends in {.answer} shows a stage's
# answer: only the instructor's deck has it. One whose heading ends in
# {.student} stands in for it in the student's deck (the idea without the
# code). Everything else is in both.
#   awk -v deck=student -f slides/version.awk labs/03-transpose/slides/deck.md
#   awk -v deck=instructor -f slides/version.awk labs/03-transpose/slides/deck.md
BEGIN {
    if (deck != "student" && deck != "instructor") {
        print "slides/version.awk: deck must be student or instructor" > "/dev/stderr"
        exit 2
    }
    keep = 1
}
/^[ \t]*```/ { in_code = !in_code }
!in_code && /^##? / {
    keep = 1
    if ($0 ~ /[ \t]*\{\.answer\}[ \t]*$/) keep = deck == "instructor"
    if ($0 ~ /[ \t]*\{\.student\}[ \t]*$/) keep = deck == "student"
    sub(/[ \t]*\{\.(answer|student)\}[ \t]*$/, "")
}
keep

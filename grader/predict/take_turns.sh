# take_turns.sh - sourced by predict.sh and profile.sh: take_turns DIR
# makes this run for the lab whose build folder is DIR the only one: two
# at once (make test's parts, or two terminals) would rebuild each other's
# objects and program under them. It waits, saying so, while another run
# holds DIR.lock; the lock is held on descriptor 9 until the program ends
# (the descriptor outlives exec). Uses the caller's $tool and $lab.
take_turns() {
    exec 9>"$1.lock"
    if command -v flock >/dev/null && ! flock -n 9; then
        echo "$tool: waiting for another run for lab $lab to end ($1.lock)" >&2
        flock 9
    fi
}

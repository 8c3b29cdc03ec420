#!/usr/bin/env bash
# slides/build.sh OUT_DIR [NN-name ...] - build the labs' decks into PDF
# with pandoc and LaTeX beamer (`make slides` runs it). With no lab named,
# every labs/NN-name/slides/deck.md is built, twice: NN-name.pdf for
# students, without the slides that show a stage's answer, and
# NN-name-instructor.pdf with them (slides/version.awk). Exit 0 when every deck built, 1 when one failed,
# 2 when the tools are missing (the message says what to install).
set -u
out=${1:?usage: slides/build.sh OUT_DIR [NN-name ...]}
shift
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."

missing=()
command -v pandoc >/dev/null || missing+=(pandoc)
command -v pdflatex >/dev/null || missing+=(pdflatex)
if command -v kpsewhich >/dev/null && [ -z "$(kpsewhich beamer.cls)" ]; then missing+=(beamer.cls); fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "make slides: ${missing[*]} not found. On Debian or Ubuntu:" >&2
    echo "  sudo apt-get install pandoc texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended lmodern" >&2
    exit 2
fi

labs=("$@")
[ ${#labs[@]} -eq 0 ] && labs=(labs/[0-9][0-9]-*/)
status=0
for lab in "${labs[@]}"; do
    lab=$(basename "$lab") # labs/04-reduction/ and 04-reduction alike
    deck=labs/$lab/slides/deck.md
    [ -e "$deck" ] || { echo "FAILED $lab: no $deck" >&2; status=1; continue; }
    for version in student instructor; do
        name=$lab
        [ "$version" = student ] || name=$name-$version
        log=$out/$name.log
        awk -v deck="$version" -f slides/version.awk "$deck" >"$out/$name.md"
        # Pictures are looked up beside the deck (ladder.png).
        if pandoc "$out/$name.md" -t beamer --slide-level=2 -H slides/preamble.tex \
            -V aspectratio=169 -V fontsize=10pt -M section-titles=false \
            --resource-path="$(dirname "$deck")" -o "$out/$name.pdf" >"$log" 2>&1; then
            echo "built $out/$name.pdf"
        else
            echo "FAILED $deck ($version): $(grep -m 3 -E '^!|Error|error' "$log" | tr '\n' ' ') (log: $log)" >&2
            status=1
        fi
    done
done
exit $status

# counters.awk - Nsight Compute's figures for make profile's two calls,
# as a table beside the reference's (grader/predict/profile.sh).
#
#   awk -v counters=FILE -v names=FILE [-v reference=FILE] -f counters.awk NCU.csv
#
# counters: the lab's counters, one per line: kind, metric, divisor, label
#   and lesson, tab-separated (grade --lab-info's counter= lines);
# names: the calls' names in order, one per line (what profile printed);
# reference: optional, "# where it was measured" and then "label<TAB>value"
#   lines (labs/NN-name/slides/counters.txt);
# NCU.csv: ncu --csv --print-units base, one row per kernel and metric. The
#   kernels between two profile_boundary launches are one call.
# Per counter, over a call's kernels: ratio = sum of the metric / sum of
# the divisor; average = the metric weighted by each kernel's divisor, or
# by its time (gpu__time_duration.sum) where there is none, so a call
# with nothing to weigh shows "-"; millions = sum of the metric / 10^6.
function shown(x) {
    if (x == "") return "-"
    if (x >= 100) return sprintf("%.0f", x)
    if (x >= 10) return sprintf("%.1f", x)
    return sprintf("%.2f", x)
}
BEGIN {
    while ((getline line < names) > 0) call[++ncalls] = line
    while ((getline line < counters) > 0) {
        n = split(line, f, "\t")
        if (n < 5) continue
        k++; kind[k] = f[1]; metric[k] = f[2]; per[k] = f[3]; label[k] = f[4]; lesson[k] = f[5]
    }
    if (reference != "")
        while ((getline line < reference) > 0) {
            if (line ~ /^# /) { where = substr(line, 3); continue }
            split(line, f, "\t")
            ref[f[1]] = f[2]
        }
}
# Every field is quoted: strip the outer quotes, split on ",".
/^"/ {
    line = $0; sub(/^"/, "", line); sub(/"$/, "", line)
    nf = split(line, v, "\",\"")
    if (!header) { for (i = 1; i <= nf; i++) col[v[i]] = i; header = 1; next }
    id = v[col["ID"]]
    if (id !~ /^[0-9]+$/) next
    if (!(id in call_of)) {
        if (v[col["Kernel Name"]] ~ /^profile_boundary/) { c++; boundary[id] = 1 }
        call_of[id] = c; ids[++nids] = id
        if (!boundary[id]) kernels[c]++
    }
    x = v[col["Metric Value"]]; gsub(/,/, "", x)
    value[id, v[col["Metric Name"]]] = x + 0
}
END {
    for (j = 1; j <= k; j++)
        for (s = 1; s <= ncalls; s++) {
            num = 0; den = 0
            for (i = 1; i <= nids; i++) {
                id = ids[i]
                if (boundary[id] || call_of[id] != s) continue
                if (kind[j] == "ratio") { num += value[id, metric[j]]; den += value[id, per[j]] }
                else if (kind[j] == "average") {
                    w = per[j] != "-" ? value[id, per[j]] : value[id, "gpu__time_duration.sum"]
                    num += value[id, metric[j]] * w; den += w
                } else { num += value[id, metric[j]]; den = 1e6 }
            }
            result[j, s] = den > 0 ? num / den : ""
        }
    for (s = 1; s <= ncalls; s++) column[call[s]] = s
    printf "  %-60s %9s %9s %9s\n", "", "yours", "baseline", "reference"
    for (j = 1; j <= k; j++) {
        yours = column["yours"] ? result[j, column["yours"]] : ""
        base = column["baseline"] ? result[j, column["baseline"]] : ""
        printf "  %-60s %9s %9s %9s\n", label[j], shown(yours), shown(base),
            (label[j] in ref) ? ref[label[j]] : "-"
        printf "      %s\n", lesson[j]
    }
    if (column["yours"] && !kernels[column["yours"]])
        print "  your call launched no kernel: there is nothing to count"
    print (where != "" ? "  reference: " where : "  reference: not measured yet for this lab (make profile LAB=NN RECORD=1 on the solution)")
    # For RECORD=1: the figures of "yours", one "label<TAB>value" line each.
    if (record != "")
        for (j = 1; j <= k; j++)
            if (column["yours"]) printf "%s\t%s\n", label[j], shown(result[j, column["yours"]]) > record
}

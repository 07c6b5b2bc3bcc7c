# Sourced by the suites that run every golden CLI case again in another
# mode (tests/spill/run.sh, tests/wide/run.sh): counts, outcomes and their
# ok/bad (tests/lib.sh's). The goldens hold the plain run's output (run_all.sh
# checks it), so passing them in another mode is being byte-identical to it.
. tests/lib.sh
# The reruns compare outputs byte for byte; the mutation cases check only
# exit codes on damaged files, which the plain and sanitized runs do.
CLI_SKIP=mutation
export CLI_SKIP
# golden_tally WHAT LOG: adds the outcome of `tests/cli/run.sh ... >LOG`.
golden_tally() {
    grep FAIL "$2" | head -20
    line=$(tail -1 "$2")
    p=$(echo "$line" | awk '{print $2}')
    f=$(echo "$line" | awk '{print $4}')
    case "$line" in
    "cli: "*" passed, 0 failed") pass=$((pass + p)) ;;
    *) bad "golden cases $1: $line"; fail=$((fail + ${f:-0})) ;;
    esac
}

# Out of memory is an error, never a short answer (issue 33 item 7): each
# command runs with its big allocations failing from the first on, then the
# second, ... (LEAKFIND_FAIL_BIG_ALLOC, cmd/main.c) until one run has enough.
# Every run must give exactly the full answer with exit 0, or exit 4 with an
# error; a run that exits 0 short of the answer fails the case.
# oom_ NAME ARGS... (the answer: what leakfind ARGS prints with no failure)
oom_() {
    name=$1
    shift
    "$LF" "$@" >"$tmp/oom.want" 2>/dev/null </dev/null
    want_code=$?
    n=1 why=""
    while [ $n -le 2000 ]; do
        # under `make asan`, what a run cut short leaves unfreed at its exit
        # is no wrong answer: LeakSanitizer would turn exit 4 into 1
        ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 LEAKFIND_FAIL_BIG_ALLOC=$n "$LF" "$@" \
            >"$tmp/oom.out" 2>"$tmp/oom.err" </dev/null
        code=$?
        if [ $code = $want_code ] && cmp -s "$tmp/oom.out" "$tmp/oom.want"; then
            break
        fi
        if [ $code != 4 ] || ! grep -q "error: " "$tmp/oom.err"; then
            why="failing from allocation $n: exit $code, $(wc -l <"$tmp/oom.out") lines, stderr: $(head -c 200 "$tmp/oom.err")"
            break
        fi
        n=$((n + 1))
    done
    if [ -z "$why" ] && [ $n -gt 1 ] && [ $n -le 2000 ]; then
        ok
    else
        bad "$name: ${why:-no run succeeded (or none failed)}"
    fi
}

oom_ oom_diff_owners diff $G/leak_before.txt $G/leak_after.txt --owners
oom_ oom_trend_owners trend $S --owners
oom_ oom_diff diff $G/leak_before.txt $G/leak_after.txt
oom_ oom_trend trend $S
oom_ oom_suspects suspects $G/leak_after.txt
oom_ oom_path_merge path $G/nested_class.txt --class Item --merge
oom_ oom_inspect inspect $G/nested_class.txt 0x6 --referrers
oom_ oom_report report $G/leak_after.txt -o "$tmp/oom.html"
oom_ oom_convert convert $G/leak_after.txt -o "$tmp/oom.lfs"
# labels decoded from the dump (JVM: of an array past 512 elements, into a
# big allocation), a top owner's holders (V8 tiny: the Item only a weak edge
# reaches)
oom_ oom_hprof_dominators dominators $J/planted_leak.hprof
oom_ oom_hprof_flat dominators $J/planted_leak.hprof --flat --top 0
oom_ oom_v8_dominators dominators $V/tiny.heapsnapshot

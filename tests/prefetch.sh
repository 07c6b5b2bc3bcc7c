#!/bin/sh
# The prefetches asked for are in the code built. GCC silently drops every
# call to a helper made of prefetches alone unless the helper is inlined
# first (core/base/prefetch.h): the dominators' search ran without its
# prefetch from 2026-11-25 to 2026-12-06 so, and two of the series' count's
# helpers were born dropped. Each C source's object must hold at least as
# many prefetch instructions as the source writes __builtin_prefetch calls,
# and one at least when it calls a header's helper (NAME_prefetch).
# usage: tests/prefetch.sh BUILD_DIR     (prints "N passed, M failed" last)
set -u
build=${1:-build}
cd "$(dirname "$0")/.."
. tests/lib.sh

for f in $(git grep -l -E '_prefetch\(' -- 'core/*.c' 'graph/*.c' 'cmd/*.c'); do
    o=$build/${f%.c}.o
    if [ ! -f "$o" ]; then
        bad "$f" "no object $o: build first"
        continue
    fi
    asked=$(grep -o '__builtin_prefetch(' "$f" | wc -l)
    helpers=$(grep -E '[a-z]_prefetch\(' "$f" | grep -vc '__builtin_prefetch(')
    [ "$asked" -gt 0 ] || [ "$helpers" -eq 0 ] || asked=1
    built=$(objdump -d "$o" | grep -c 'prefetch')
    if [ "$built" -ge "$asked" ]; then
        ok "$f: $built prefetch instructions for $asked asked"
    else
        bad "$f: $built prefetch instructions for $asked asked" \
            "a helper made of prefetches alone is dropped unless inlined: declare it LF_PREFETCH_HELPER"
    fi
done
finish

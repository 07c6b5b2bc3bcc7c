# leakfind threads (issue 37): threads, frame by frame, and what their
# locals keep alive. fixtures/java/src/StackLocal.java: thread "worker"'s
# run() (frame 5 of its trace) holds a long[100000] (800,016 B), "main"'s
# StackLocal.main an int[50000] (200,016 B), nothing else holding either;
# fixtures/ocaml/threaded.ml: thread 1's Threaded.worker holds a string of
# 50,000 bytes (50,016 B); domains.ml: domain 1's Domains.worker holds its
# 40,000-byte string (40,016 B).
help_ threads_help threads -h
rows_ threads_jvm_worker "0 worker 800472
1 frame 5: StackLocal\$Worker.run (StackLocal.java:43) 800016
2 long[] 800016" \
    '$2 == "worker" && ($1 == 0 || $3 ~ /Worker.run/) && !($1 == 2 && $5 != "long[]") {
         print $1, ($1 == 0 ? $2 : $1 == 1 ? $3 : $5), $7}' \
    threads $J/stack_local.hprof --format tsv
# main's frame keeps its int[] and its args, a String[0] (16 B): 200,032 B;
# the worker it also holds is the worker thread's, not counted
rows_ threads_jvm_main_frame "1 200032
2 int[] 200016" \
    '$2 == "main" && $3 ~ /StackLocal.main/ && ($1 == 1 || $5 == "int[]") {print $1, ($1 == 2 ? $5 " " : "") $7}' \
    threads $J/stack_local.hprof --format tsv
# the two planted threads first, largest retained first
rows_ threads_jvm_order "worker
main" 'NR > 1 && $1 == 0 && NR < 40 {print $2}' threads $J/stack_local.hprof --format tsv --top 2
rows_ threads_ocaml "0 thread 1  50016
1 thread 1 frame 0: Threaded.worker (threaded.ml:10) 50016
2 thread 1 frame 0: Threaded.worker (threaded.ml:10) 50016" \
    '$2 == "thread 1" {print $1, $2, $3, $7}' threads fixtures/ocaml/snapshots/threaded.lfs --format tsv
rows_ threads_ocaml5_domain "string 40016" \
    '$2 == "domain 1" && $1 == 2 && $3 ~ /Domains.worker/ {print $5, $7}' \
    threads fixtures/ocaml/snapshots5/domains.1.lfs --format tsv
# V8 keeps no stacks: said, exit 2.
case_ threads_v8 2 threads fixtures/node/dup_strings.heapsnapshot.gz -q

(* count.ml - the Memtrace library's own reader (Trace.Reader.iter, its
   backtraces decoded) over a trace, counting events: the peer
   tests/bench/memtrace.sh times leakfind against. *)
let () =
  let r = Memtrace.Trace.Reader.open_ ~filename:Sys.argv.(1) in
  let n = ref 0 in
  Memtrace.Trace.Reader.iter r (fun _ _ -> incr n);
  Memtrace.Trace.Reader.close r;
  Printf.printf "%d events\n" !n

(* load.ml - a program for tests/bench/memtrace.sh (issue 51): traced at a
   high MEMTRACE_RATE it writes a Memtrace trace of many events. N requests,
   each allocating through a few functions (so that backtraces vary) a small
   record and a list; one in seven of the lists is kept in a ring of 4096
   (live blocks stay bounded), the rest die young. *)
type item = { id : int; tag : int; next : int }

let ring = Array.make 4096 []

let[@inline never] make_item id = { id; tag = id land 15; next = id + 1 }
let[@inline never] make_list id = [ id; id + 1; id + 2 ]
let[@inline never] handle id =
  let it = make_item id in
  let l = make_list it.next in
  if id mod 7 = 0 then ring.(id land 4095) <- l;
  it.tag

let () =
  Memtrace.trace_if_requested ~context:"bench" ();
  let n = int_of_string Sys.argv.(1) in
  let sum = ref 0 in
  for id = 1 to n do
    sum := !sum + handle id
  done;
  Printf.printf "%d\n" !sum

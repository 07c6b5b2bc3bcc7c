(* Benchmark heap for the OCaml agent: about N live blocks (argv, default
   10,000,000) of common shapes: a hash table of records holding strings and
   float arrays, long lists, a tree. Writes bigheap.lfs with the agent and
   reports (LEAKFIND_AGENT_VERBOSE=1) the time and the agent's own memory. *)
type record = { id : int; name : string; values : float array; next : record option }

type tree = Leaf | Node of tree * int * tree

let rec build_tree depth = if depth = 0 then Leaf else Node (build_tree (depth - 1), depth, build_tree (depth - 1))

let () =
  let n = if Array.length Sys.argv > 1 then int_of_string Sys.argv.(1) else 10_000_000 in
  (* each table entry: bucket, record, string, float array, option = 5 blocks *)
  let entries = n * 6 / 10 / 5 in
  let table = Hashtbl.create entries in
  let prev = ref None in
  for i = 1 to entries do
    let r = { id = i; name = string_of_int i; values = [| float i; 0.5 |]; next = !prev } in
    if i mod 64 = 0 then prev := Some r else prev := None;
    Hashtbl.replace table i r
  done;
  let list = List.init (n * 3 / 10) (fun i -> i) in
  let tree = build_tree 20 (* 2^20 - 1 nodes *) in
  let t0 = Unix.gettimeofday () in
  Leakfind.dump "bigheap.lfs";
  Printf.printf "dump (with full_major) %.2f s; %d entries, list %d, tree %b\n"
    (Unix.gettimeofday () -. t0) (Hashtbl.length table) (List.length list) (tree <> Leaf)

(* Benchmark heap for the OCaml agent: about N live blocks (argv, default
   10,000,000) of common shapes: a hash table of records holding strings and
   float arrays, long lists, a tree. Writes bigheap.lfs with the agent and
   reports (LEAKFIND_AGENT_VERBOSE=1) the time and the agent's own memory,
   and the program's peak RSS during the dump over its RSS before it (the
   peak is reset first through /proc/self/clear_refs), which counts the
   writer's buffers too.
   With a second argument "series": three snapshots of a heap that grows,
   bigheap.1.lfs, bigheap.2.lfs and bigheap.3.lfs, the table filled to 80%,
   90% and all of its entries (the list and the tree stay), for `leakfind
   trend` and `suspects` over a series (tests/bench/series.sh). *)
type record = { id : int; name : string; values : float array; next : record option }

type tree = Leaf | Node of tree * int * tree

(* Held by globals too, so that with its names file (built with -bin-annot)
   the agent labels them by type: the cost of the typing pass. *)
let kept_table : (int, record) Hashtbl.t ref = ref (Hashtbl.create 1)
let kept_list : int list ref = ref []
let kept_tree = ref Leaf

let rec build_tree depth = if depth = 0 then Leaf else Node (build_tree (depth - 1), depth, build_tree (depth - 1))

(* A line "Key:   N kB" of /proc/self/status, in kB. *)
let status_kb key =
  let ic = open_in "/proc/self/status" in
  let rec find () =
    match input_line ic with
    | line when String.length line > String.length key + 1
                && String.sub line 0 (String.length key + 1) = key ^ ":" ->
        Scanf.sscanf line "%_s %d" (fun kb -> kb)
    | _ -> find ()
    | exception End_of_file -> 0
  in
  let kb = find () in
  close_in ic;
  kb

let reset_peak () =
  try
    let oc = open_out "/proc/self/clear_refs" in
    output_string oc "5";
    close_out oc
  with Sys_error _ -> ()

(* Adds entries from+1 .. upto to the table. *)
let fill table prev from upto =
  for i = from + 1 to upto do
    let r = { id = i; name = string_of_int i; values = [| float i; 0.5 |]; next = !prev } in
    if i mod 64 = 0 then prev := Some r else prev := None;
    Hashtbl.replace table i r
  done

let () =
  let n = if Array.length Sys.argv > 1 then int_of_string Sys.argv.(1) else 10_000_000 in
  let series = Array.length Sys.argv > 2 && Sys.argv.(2) = "series" in
  (* each table entry: bucket, record, string, float array, option = 5 blocks *)
  let entries = n * 6 / 10 / 5 in
  let table = Hashtbl.create entries in
  let prev = ref None in
  if not series then fill table prev 0 entries;
  let list = List.init (n * 3 / 10) (fun i -> i) in
  let tree = build_tree 20 (* 2^20 - 1 nodes *) in
  kept_table := table;
  kept_list := list;
  kept_tree := tree;
  if series then begin
    let filled = ref 0 in
    List.iteri
      (fun k tenths ->
        let upto = entries * tenths / 10 in
        fill table prev !filled upto;
        filled := upto;
        let t0 = Unix.gettimeofday () in
        Leakfind.dump (Printf.sprintf "bigheap.%d.lfs" (k + 1));
        Printf.printf "snapshot %d: %d entries, dump (with full_major) %.2f s\n%!" (k + 1)
          (Hashtbl.length table) (Unix.gettimeofday () -. t0))
      [ 8; 9; 10 ];
    exit 0
  end;
  Gc.full_major ();
  let rss = status_kb "VmRSS" in
  reset_peak ();
  let t0 = Unix.gettimeofday () in
  Leakfind.dump "bigheap.lfs";
  Printf.printf "RSS before the dump %d KiB; peak during it %d KiB (+%d KiB)\n" rss
    (status_kb "VmHWM") (status_kb "VmHWM" - rss);
  Printf.printf "dump (with full_major) %.2f s; %d entries, list %d, tree %b\n"
    (Unix.gettimeofday () -. t0) (Hashtbl.length table) (List.length list) (tree <> Leaf)

(* clean_names.ml - names as the programmer writes them, in the names tool's
   module column and type labels; the same rule as the core's cleaner for
   frames and sites: a "Dune__exe__" prefix is dropped (dune's executable
   modules), any other "A__B" is "A.B" (Stdlib__List, Mylib__Foo), and empty
   path components are removed. Type labels also drop the standard
   library's "Stdlib." at the head of a path, as OCaml's printer does for the
   opened Stdlib (Hashtbl.t); a Stdlib further in (Misc.Stdlib.String) is a
   module of its own and stays. *)

let dune_exe = "Dune__exe__"

let starts_with prefix s =
  String.length s >= String.length prefix && String.sub s 0 (String.length prefix) = prefix

(* The components of a dotted name, each unit name demangled, none empty. *)
let components name =
  String.split_on_char '.' name
  |> List.concat_map (fun c ->
         let c = if starts_with dune_exe c then String.sub c 11 (String.length c - 11) else c in
         (* "A__B__C" -> A, B, C *)
         let b = Buffer.create (String.length c) in
         String.iteri
           (fun i ch ->
             if ch = '_' && i + 1 < String.length c && c.[i + 1] = '_' then Buffer.add_char b '.'
             else if ch = '_' && i > 0 && c.[i - 1] = '_' && Buffer.nth b (Buffer.length b - 1) = '.' then ()
             else Buffer.add_char b ch)
           c;
         String.split_on_char '.' (Buffer.contents b))
  |> List.filter (fun c -> c <> "")

(* "Dune__exe__Action" -> "Action", "Mylib__Foo" -> "Mylib.Foo". *)
let module_name modname = String.concat "." (components modname)

(* A canonical type path as shown: "Stdlib__Map.Make(Stdlib__String).t" ->
   "Map.Make(String).t", "Misc.Stdlib.String.Set.t" as it is. *)
let display canonical =
  let b = Buffer.create (String.length canonical) in
  let path = Buffer.create 32 in
  let flush () =
    let p = Buffer.contents path in
    Buffer.clear path;
    let continues = starts_with "." p (* ".t" after "F(X)" *) in
    let parts = components p in
    let parts =
      match parts with
      | [ "lazy_t" ] when not continues -> [ "Lazy"; "t" ]
      | "Stdlib" :: (_ :: _ as rest) when not continues -> rest
      | parts -> parts
    in
    if parts <> [] then (
      if continues then Buffer.add_char b '.';
      Buffer.add_string b (String.concat "." parts))
  in
  String.iter
    (fun c ->
      match c with
      | '(' | ')' ->
          flush ();
          Buffer.add_char b c
      | c -> Buffer.add_char path c)
    canonical;
  flush ();
  Buffer.contents b

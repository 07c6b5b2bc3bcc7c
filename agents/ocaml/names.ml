(* leakfind-ocaml-names: the names of the fields of compilation units'
   global blocks, for the agent's root names (global Leaky.cache rather than
   Leaky.[3]).

     leakfind-ocaml-names leaky.cmt other.cmt ... > PROGRAM.leakfind-names

   One line per field: module, field index, name, TAB-separated. The agent
   reads PROGRAM.leakfind-names next to the executable (or the file named by
   LEAKFIND_NAMES). Compile with -bin-annot to get the .cmt files.

   Positions follow how ocamlopt 4.13/4.14 stores a unit's top-level values
   (Translmod's store mode): the values the interface exports first, in the
   interface's order, then the other top-level definitions in the order of
   the source. Without an interface, the definitions in source order. *)

open Typedtree

let defined_idents items =
  List.concat_map
    (fun item ->
      match item.str_desc with
      | Tstr_value (_, bindings) -> let_bound_idents bindings
      | Tstr_typext te -> List.map (fun c -> c.ext_id) te.tyext_constructors
      | Tstr_exception e -> [ e.tyexn_constructor.ext_id ]
      | Tstr_module { mb_id = Some id; mb_presence = Types.Mp_present; _ } -> [ id ]
      | Tstr_recmodule mbs -> List.filter_map (fun mb -> mb.mb_id) mbs
      | Tstr_open od -> Types.bound_value_identifiers od.open_bound_items
      | Tstr_class cls -> List.map (fun (ci, _) -> ci.ci_id_class) cls
      | Tstr_include incl -> Types.bound_value_identifiers incl.incl_type
      | _ -> [])
    items

(* The names the interface exports, in its order, when there is one. *)
let exported cmt_file =
  let cmti = Filename.remove_extension cmt_file ^ ".cmti" in
  if not (Sys.file_exists cmti) then None
  else
    match (Cmt_format.read_cmt cmti).Cmt_format.cmt_annots with
    | Cmt_format.Interface sg ->
        Some (List.map Ident.name (Types.bound_value_identifiers sg.sig_type))
    | _ -> None

(* Positions: exported names first (each the last definition of that name,
   the one the interface sees), then every other definition in order. *)
let positions defined exports =
  match exports with
  | None -> List.mapi (fun i id -> (i, Ident.name id)) defined
  | Some names ->
      let last_of name =
        List.fold_left (fun acc id -> if Ident.name id = name then Some id else acc) None defined
      in
      let chosen = List.filter_map last_of names in
      let rest = List.filter (fun id -> not (List.exists (Ident.same id) chosen)) defined in
      List.mapi (fun i id -> (i, Ident.name id)) (chosen @ rest)

(* "Stdlib__Hashtbl" -> "Stdlib.Hashtbl", as the agent names modules; dune's
   executables' "Dune__exe__Action" -> "Action", as the programmer wrote it. *)
let module_name modname =
  let prefix = "Dune__exe__" in
  let lp = String.length prefix in
  let modname =
    if String.length modname > lp && String.sub modname 0 lp = prefix then
      String.sub modname lp (String.length modname - lp)
    else modname
  in
  let b = Buffer.create (String.length modname) in
  let n = String.length modname in
  let i = ref 0 in
  while !i < n do
    if !i + 1 < n && modname.[!i] = '_' && modname.[!i + 1] = '_' then (
      Buffer.add_char b '.';
      i := !i + 2)
    else (
      Buffer.add_char b modname.[!i];
      incr i)
  done;
  Buffer.contents b

let print_unit cmt_file =
  let cmt = Cmt_format.read_cmt cmt_file in
  match cmt.Cmt_format.cmt_annots with
  | Cmt_format.Implementation str ->
      let m = module_name cmt.Cmt_format.cmt_modname in
      List.iter
        (fun (i, name) -> Printf.printf "%s\t%d\t%s\n" m i name)
        (positions (defined_idents str.str_items) (exported cmt_file))
  | _ -> Printf.eprintf "leakfind-ocaml-names: %s: not an implementation's .cmt\n" cmt_file

let usage = "usage: leakfind-ocaml-names FILE.cmt... > PROGRAM.leakfind-names"

let help =
  usage
  ^ "\n\n\
     Writes the names of the fields of the units' global blocks, one line per\n\
     field (module, index, name), for leakfind's root names: global\n\
     Leaky.cache rather than Leaky.[3]. Put the output next to the program as\n\
     PROGRAM.leakfind-names (or name it in LEAKFIND_NAMES). The .cmt files come\n\
     from compiling with -bin-annot.\n"

let () =
  let files = List.tl (Array.to_list Sys.argv) in
  if List.exists (fun f -> f = "-h" || f = "--help") files then (
    print_string help;
    exit 0);
  (match List.find_opt (fun f -> String.length f > 1 && f.[0] = '-') files with
  | Some opt ->
      Printf.eprintf "leakfind-ocaml-names: unknown option '%s'\n%s\n" opt usage;
      exit 2
  | None -> ());
  if files = [] then (
    prerr_endline usage;
    exit 2);
  List.iter
    (fun f ->
      try print_unit f with
      | Sys_error msg ->
          (* msg already names the file *)
          Printf.eprintf "leakfind-ocaml-names: %s\n" msg;
          exit 3
      | e ->
          Printf.eprintf "leakfind-ocaml-names: %s: %s\n" f (Printexc.to_string e);
          exit 3)
    files

(* leakfind-ocaml-names: the names of the fields of compilation units'
   global blocks, for the agent's root names (global Leaky.cache rather than
   Leaky.[3]).

     leakfind-ocaml-names leaky.cmt other.cmt ... > PROGRAM.leakfind-names

   One line per field: module, field index, name and the shape of its value
   (0 for none), TAB-separated; then the shapes (shapes.ml), one "#shape"
   line each, a block's alternatives on "#alt" lines after it. The agent
   reads PROGRAM.leakfind-names next to the executable (or the file named by
   LEAKFIND_NAMES) and labels blocks by their types with the shapes. Compile
   with -bin-annot to get the .cmt files.

   Positions follow how ocamlopt 4.13/4.14 (and 5.x, unchanged) stores a
   unit's top-level values (Translmod's store mode): the values the
   interface exports first, in the interface's order, then the other
   top-level definitions in the order of the source. Without an interface,
   the definitions in source order. Built once per compiler family, as a
   .cmt is read only by its own compiler's compiler-libs (Names_compat). *)

open Typedtree

let with_types = ref true

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
  | None -> List.mapi (fun i id -> (i, id)) defined
  | Some names ->
      let last_of name =
        List.fold_left (fun acc id -> if Ident.name id = name then Some id else acc) None defined
      in
      let chosen = List.filter_map last_of names in
      let rest = List.filter (fun id -> not (List.exists (Ident.same id) chosen)) defined in
      List.mapi (fun i id -> (i, id)) (chosen @ rest)

let module_name = Shapes.module_name

let implementation cmt_file =
  let cmt = Cmt_format.read_cmt cmt_file in
  match cmt.Cmt_format.cmt_annots with
  | Cmt_format.Implementation str -> Some (cmt, str)
  | _ -> None

(* The directories the units were compiled against, so that their
   environments can be rebuilt: the standard library's, each .cmt's own, and
   the load path each .cmt records. *)
let set_load_path files =
  let dirs = ref [ Config.standard_library ] in
  List.iter
    (fun f ->
      dirs := Filename.dirname f :: !dirs;
      match (try Some (Cmt_format.read_cmt f) with _ -> None) with
      | Some cmt ->
          Shapes.(Hashtbl.replace given cmt.Cmt_format.cmt_modname f);
          List.iter
            (fun d ->
              let d = if Filename.is_relative d then Filename.concat cmt.Cmt_format.cmt_builddir d else d in
              dirs := d :: !dirs)
            (Names_compat.cmt_load_path cmt)
      | None -> ())
    files;
  Names_compat.init_load_path (List.sort_uniq compare !dirs)

(* The shape of each position's value; 0 for all when the unit's
   environment cannot be rebuilt (a .cmi missing from the load path). *)
let shapes_of unit str rows =
  Envaux.reset_cache ();
  match Envaux.env_of_only_summary str.str_final_env with
  | env ->
      (* a .cmi read later, on a type's first use, can fail too: the first
         such error is said, with how many values it left untyped *)
      let failed = ref [] in
      let shapes =
        List.map
          (fun (i, id) ->
            ( i,
              Ident.name id,
              try Shapes.of_item unit env str.str_type id
              with e ->
                failed := (Ident.name id, e) :: !failed;
                0 ))
          rows
      in
      (match List.rev !failed with
      | [] -> ()
      | (name, e) :: rest ->
          Printf.eprintf "leakfind-ocaml-names: %s: no type for %s%s: %s\n" unit name
            (if rest = [] then "" else Printf.sprintf " (and %d more)" (List.length rest))
            (Compiler_error.text e));
      shapes
  | exception e ->
      Printf.eprintf "leakfind-ocaml-names: %s: no types: %s\n" unit (Compiler_error.text e);
      List.map (fun (i, id) -> (i, Ident.name id, 0)) rows

let print_unit cmt_file =
  match implementation cmt_file with
  | Some (cmt, str) ->
      let unit = cmt.Cmt_format.cmt_modname in
      let m = module_name unit in
      let rows = positions (defined_idents str.str_items) (exported cmt_file) in
      Unit_flags.set cmt.Cmt_format.cmt_args;
      List.iter
        (fun (i, name, shape) -> Printf.printf "%s\t%d\t%s\t%d\n" m i name shape)
        (if !with_types then shapes_of unit str rows
         else List.map (fun (i, id) -> (i, Ident.name id, 0)) rows)
  | None -> Printf.eprintf "leakfind-ocaml-names: %s: not an implementation's .cmt\n" cmt_file

let print_shapes () =
  List.iter (fun (id, line) -> Printf.printf "#shape\t%d\t%s\n" id line) (Shapes.lines ())

let usage = "usage: leakfind-ocaml-names [--no-types] FILE.cmt... > PROGRAM.leakfind-names"

let help =
  usage
  ^ "\n\n\
     Writes the names of the fields of the units' global blocks, one line per\n\
     field (module, index, name), for leakfind's root names: global\n\
     Leaky.cache rather than Leaky.[3]; and the shapes of the values' types,\n\
     with which the agent labels blocks by type (Leaky.session, Leaky.Node,\n\
     (string, Leaky.session) Hashtbl.t) rather than block(tag 0, 3 fields).\n\
     Put the output next to the program as PROGRAM.leakfind-names (or name it\n\
     in LEAKFIND_NAMES). The .cmt files come from compiling with -bin-annot;\n\
     the standard library's own .cmt files are read from its directory.\n\
\n\
     --no-types   names only, no shapes\n"

let () =
  let files = List.tl (Array.to_list Sys.argv) in
  with_types := not (List.mem "--no-types" files);
  let files = List.filter (fun f -> f <> "--no-types") files in
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
  if !with_types then set_load_path files;
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
    files;
  print_shapes ()

(* names_compat_5.ml - Names_compat for OCaml 5's compiler-libs (5.2 and
   later: the load path has visible and hidden directories;
   names_compat.mli). *)

let desc = Types.get_desc
let id = Types.get_id

let is_abstract (d : Types.type_declaration) =
  match d.type_kind with Type_abstract _ -> true | _ -> false

type path = Ident of Ident.t | Dot of Path.t * string | Apply of Path.t * Path.t

(* An extension constructor's inline record has no name of its own: the
   constructor's path stands for it. *)
let rec path : Path.t -> path = function
  | Pident id -> Ident id
  | Pdot (p, s) -> Dot (p, s)
  | Papply (f, x) -> Apply (f, x)
  | Pextra_ty (p, Pcstr_ty c) -> Dot (p, c)
  | Pextra_ty (p, Pext_ty) -> path p

(* All made visible, a unit's hidden ones (-H) too: the tool reads types
   through other units, it does not check what the program may name. *)
let init_load_path dirs = Load_path.init ~auto_include:Load_path.no_auto_include ~visible:dirs ~hidden:[]

let load_path () =
  let { Load_path.visible; hidden } = Load_path.get_paths () in
  visible @ hidden

let cmt_load_path (cmt : Cmt_format.cmt_infos) = cmt.cmt_loadpath.visible @ cmt.cmt_loadpath.hidden

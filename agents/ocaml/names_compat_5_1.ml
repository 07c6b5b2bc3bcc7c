(* names_compat_5_1.ml - Names_compat for OCaml 5.1's compiler-libs
   (names_compat.mli): 5.x's types (get_desc, extra type paths) with 4.x's
   load path, one list of directories. *)

let desc = Types.get_desc
let id = Types.get_id
let is_abstract (d : Types.type_declaration) = d.type_kind = Types.Type_abstract

type path = Ident of Ident.t | Dot of Path.t * string | Apply of Path.t * Path.t

(* An extension constructor's inline record has no name of its own: the
   constructor's path stands for it. *)
let rec path : Path.t -> path = function
  | Pident id -> Ident id
  | Pdot (p, s) -> Dot (p, s)
  | Papply (f, x) -> Apply (f, x)
  | Pextra_ty (p, Pcstr_ty c) -> Dot (p, c)
  | Pextra_ty (p, Pext_ty) -> path p

let init_load_path dirs = Load_path.init ~auto_include:Load_path.no_auto_include dirs
let load_path () = Load_path.get_paths ()
let cmt_load_path (cmt : Cmt_format.cmt_infos) = cmt.cmt_loadpath

(* names_compat_4.ml - Names_compat for OCaml 4.13/4.14's compiler-libs
   (names_compat.mli). *)

let desc t = (Btype.repr t).Types.desc
let id t = (Btype.repr t).Types.id
let is_abstract (d : Types.type_declaration) = d.type_kind = Types.Type_abstract

type path = Ident of Ident.t | Dot of Path.t * string | Apply of Path.t * Path.t

let path : Path.t -> path = function
  | Pident id -> Ident id
  | Pdot (p, s) -> Dot (p, s)
  | Papply (f, x) -> Apply (f, x)

let init_load_path dirs = Load_path.init dirs
let load_path () = Load_path.get_paths ()
let cmt_load_path (cmt : Cmt_format.cmt_infos) = cmt.cmt_loadpath

(* names_compat.mli - the parts of compiler-libs that names.ml and shapes.ml
   use and that differ between OCaml 4.13/4.14 and OCaml 5: .cmt files are
   specific to the compiler that wrote them, so the tool is built once per
   compiler family, with names_compat_4.ml or names_compat_5.ml as
   Names_compat (agents/ocaml/ocaml.mk picks it by the compiler's version). *)

(* A type's description, links followed. *)
val desc : Types.type_expr -> Types.type_desc

(* A type's identity, links followed: the same for every occurrence of one
   type variable. *)
val id : Types.type_expr -> int

(* Whether a declaration is abstract (its manifest aside). *)
val is_abstract : Types.type_declaration -> bool

(* The paths that name module fields and types, as 4.x builds them; OCaml
   5's extra type paths (an inline record's type) read as 4.x's M.t.C. *)
type path = Ident of Ident.t | Dot of Path.t * string | Apply of Path.t * Path.t

val path : Path.t -> path

(* The directories searched for .cmi and .cmt files, highest priority
   first. *)
val init_load_path : string list -> unit
val load_path : unit -> string list

(* The load path a unit was compiled with, as written in its .cmt. *)
val cmt_load_path : Cmt_format.cmt_infos -> string list

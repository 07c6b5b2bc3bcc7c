(* shapes.ml - what the heap blocks of a program's values look like, from its
   .cmt files, for the agent's typed labels (docs/OCAML.md, "Blocks named by
   their types").

   A global's declared type is translated into our own small type language
   (canonical paths as strings, so types read in different units' environments
   meet), instantiated (a ['a list] holding sessions is a [session list]) and
   turned into shapes: what tag and size a block of that type has, the label
   it gets, and the shape of each field. The agent follows the shapes from the
   globals down the heap; a block that does not match its shape keeps its
   untyped label, and so does everything below it.

   Abstract types are looked through with the implementation's .cmt when it
   can be found (the program's own, then the load path's: Debian ships the
   standard library's); the standard library's Map, Set and Hashtbl functors'
   results are known here by construction (their types are abstract even in
   the implementation's signature). Written for OCaml 4.13/4.14's and 5's
   compiler-libs, their differences in Names_compat. *)

open Types

type ty =
  | Var of int (* the n-th parameter of the declaration being read *)
  | Con of string * ty list (* canonical type path, arguments *)
  | Tup of ty list
  | Fun of string * ty * ty (* "", "l:" or "?l:"; argument, result *)
  | Opaque (* functions, objects, polymorphic variants, existentials *)

type body =
  | Abstract (* nothing to follow: int, string, float, unknown *)
  | Alias of ty
  | Record of ty list (* a regular record: one block, tag 0 *)
  | Float_record
  | Unboxed of ty
  | Variant of (string * int * ty list) list (* constructor, tag, fields *)
  | Extensible
  | Array
  | Lazy

type decl = { body : body; user : bool (* labels name constructors *) }

(* ---- canonical names *)

let module_name = Clean_names.module_name
let display = Clean_names.display

let rec path_name unit (p : Path.t) =
  match Names_compat.path p with
  | Ident id ->
      if Ident.persistent id || Ident.global id || Ident.is_predef id then Ident.name id
      else unit ^ "." ^ Ident.name id
  | Dot (q, s) -> path_name unit q ^ "." ^ s
  | Apply (f, x) -> path_name unit f ^ "(" ^ path_name unit x ^ ")"

let is_stdlib name =
  let n = String.length name in
  (n >= 8 && String.sub name 0 8 = "Stdlib__") || (n >= 7 && String.sub name 0 7 = "Stdlib.")
  || not (String.contains name '.')

(* ---- the implementations' .cmt files, found by unit name *)

let given : (string, string) Hashtbl.t = Hashtbl.create 16 (* modname -> .cmt *)
let loaded : (string, (Typedtree.structure * Env.t) option) Hashtbl.t = Hashtbl.create 16

let find_cmt modname =
  match Hashtbl.find_opt given modname with
  | Some f -> Some f
  | None ->
      let file = String.uncapitalize_ascii modname ^ ".cmt" in
      List.find_map
        (fun dir ->
          let f = Filename.concat dir file in
          if Sys.file_exists f then Some f else None)
        (Names_compat.load_path ())

let implementation modname =
  match Hashtbl.find_opt loaded modname with
  | Some r -> r
  | None ->
      let r =
        match find_cmt modname with
        | None -> None
        | Some file -> (
            try
              let cmt = Cmt_format.read_cmt file in
              match cmt.Cmt_format.cmt_annots with
              | Cmt_format.Implementation str ->
                  (* its own flags (-rectypes) while its environment is rebuilt *)
                  let caller = Unit_flags.save () in
                  Unit_flags.set cmt.Cmt_format.cmt_args;
                  Fun.protect ~finally:(fun () -> Unit_flags.restore caller) (fun () ->
                      Some (str, Envaux.env_of_only_summary str.Typedtree.str_final_env))
              | _ -> None
            with _ -> None)
      in
      Hashtbl.replace loaded modname r;
      r

(* ---- reading the compiler's types into ours *)

let decls : (string, decl) Hashtbl.t = Hashtbl.create 256
let synthesized : (string, unit) Hashtbl.t = Hashtbl.create 16 (* functor results: not the user's *)

(* params: the declaration's parameters, by type id, with their positions *)
(* A type built with -rectypes can be cyclic ('a -> 'a as 'a): a node met
   again on its own path is unknown (_). A type of more nodes than a label
   has bytes (max_key, below) could never be printed: it is unknown as a
   whole, and costs no more than that to find out (Coq's function types). *)
exception Too_many_nodes

let rec translate unit env params ty =
  let budget = ref 400 in
  let rec go seen ty =
    let id = Names_compat.id ty in
    decr budget;
    if !budget < 0 then raise Too_many_nodes
    else if List.mem id seen then Opaque
    else
      let go = go (id :: seen) in
      match Names_compat.desc ty with
      | Tvar _ | Tunivar _ -> ( match List.assoc_opt id params with Some i -> Var i | None -> Opaque)
      | Tconstr (p, args, _) ->
          let name = declare unit env p in
          Con (name, List.map go args)
      | Ttuple ts -> Tup (List.map go ts)
      | Tarrow (l, a, r, _) -> (
          let a = go a and r = go r in
          match l with
          | Nolabel -> Fun ("", a, r)
          | Labelled s -> Fun (s ^ ":", a, r)
          (* an optional argument's type is its option: shown as written *)
          | Optional s -> Fun ("?" ^ s ^ ":", (match a with Con ("option", [ x ]) -> x | a -> a), r))
      | Tpoly (t, []) -> go t
      | _ -> Opaque
  in
  try go [] ty with Too_many_nodes -> Opaque

(* The canonical name of p, its declaration read on first sight. *)
and declare unit env p =
  let p = try Env.normalize_type_path None env p with _ -> p in
  let name = path_name unit p in
  if not (Hashtbl.mem decls name) then (
    Hashtbl.replace decls name { body = Abstract; user = false } (* a cycle stops here *);
    let d = try Some (Env.find_type p env) with Not_found -> None in
    let body =
      match d with
      | None -> Abstract
      | Some d -> read_decl unit env name p d
    in
    Hashtbl.replace decls name
      { body; user = not (is_stdlib name || Hashtbl.mem synthesized name) });
  name

and read_decl unit env name p (d : type_declaration) =
  let params = List.mapi (fun i t -> (Names_compat.id t, i)) d.type_params in
  let tr = translate unit env params in
  if Names_compat.is_abstract d then
    match d.type_manifest with
    | Some t -> Alias (tr t)
    | None -> builtin_or_implementation unit env name p
  else
    match d.type_kind with
    | Type_record (lbls, Record_regular) -> Record (List.map (fun l -> tr l.ld_type) lbls)
    | Type_record (_, Record_float) -> Float_record
    | Type_record ([ l ], Record_unboxed _) -> Unboxed (tr l.ld_type)
    | Type_variant ([ { cd_args = Cstr_tuple [ t ]; _ } ], Variant_unboxed) -> Unboxed (tr t)
    | Type_variant ([ { cd_args = Cstr_record [ l ]; _ } ], Variant_unboxed) -> Unboxed (tr l.ld_type)
    | Type_variant (cds, Variant_regular) -> Variant (constructors unit env d cds)
    | Type_open -> Extensible
    | _ -> Abstract (* other representations; abstract, above *)

(* Non-constant constructors take tags 0, 1, 2... in order. A GADT
   constructor's own variables are the declaration's parameters where its
   result type puts them. *)
and constructors unit env d cds =
  let tag = ref 0 in
  List.filter_map
    (fun cd ->
      let params =
        match cd.cd_res with
        | Some res -> (
            match Names_compat.desc res with
            | Tconstr (_, args, _) ->
                List.mapi (fun i a -> (a, i)) args
                |> List.filter (fun (a, _) -> match Names_compat.desc a with Tvar _ -> true | _ -> false)
                |> List.map (fun (a, i) -> (Names_compat.id a, i))
            | _ -> [])
        | None -> List.mapi (fun i t -> (Names_compat.id t, i)) d.type_params
      in
      let tr = translate unit env params in
      let fields =
        match cd.cd_args with
        | Cstr_tuple ts -> List.map tr ts
        | Cstr_record lbls -> List.map (fun l -> tr l.ld_type) lbls
      in
      if fields = [] then None
      else (
        let t = !tag in
        incr tag;
        Some (Ident.name cd.cd_id, t, fields)))
    cds

and builtin_or_implementation unit env name p =
  match name with
  | "array" -> Array
  | "lazy_t" -> Lazy
  | "exn" -> Extensible
  | _ -> (
      match functor_result unit env p with
      | Some b ->
          Hashtbl.replace synthesized name ();
          b
      | None -> concrete_in_implementation name)

(* The result of the standard library's Map.Make, Set.Make, Hashtbl.Make or
   MakeSeeded, whose type t is abstract everywhere but in the functor's body:
   written here as that body declares it. *)
and functor_result unit env p =
  match p with
  | Pdot (m, "t") -> (
      let key field = translate unit env [] (Btype.newgenty (Tconstr (Pdot (m, field), [], ref Mnil))) in
      match applied_functor unit env m with
      | Some "Stdlib__Map.Make" ->
          let self = Con (path_name unit (Pdot (m, "t")), [ Var 0 ]) in
          Some (Variant [ ("Node", 0, [ self; key "key"; Var 0; self; Opaque ]) ])
      | Some "Stdlib__Set.Make" ->
          let self = Con (path_name unit (Pdot (m, "t")), []) in
          Some (Variant [ ("Node", 0, [ self; key "elt"; self; Opaque ]) ])
      | Some ("Stdlib__Hashtbl.Make" | "Stdlib__Hashtbl.MakeSeeded") ->
          let table = declare unit env (Pdot (Pident (Ident.create_persistent "Stdlib__Hashtbl"), "t")) in
          Some (Alias (Con (table, [ key "key"; Var 0 ])))
      | _ -> None)
  | _ -> None

(* Which functor made module m: a path F(X), or a module bound to an
   application in its unit's implementation. *)
and applied_functor unit env m =
  match m with
  | Papply (f, _) ->
      let f = try Env.normalize_module_path None env f with _ -> f in
      Some (path_name "" f)
  | _ -> (
      let name = path_name unit m in
      match String.split_on_char '.' name with
      | unitname :: (_ :: _ as inner) when not (String.contains name '(') -> (
          match implementation unitname with
          | Some (str, ienv) -> bound_application ienv str.Typedtree.str_items inner
          | None -> None)
      | _ -> None)

and bound_application env items = function
  | [] -> None
  | name :: rest ->
      List.find_map
        (fun (item : Typedtree.structure_item) ->
          match item.str_desc with
          | Tstr_module { mb_name = { txt = Some n; _ }; mb_expr; _ } when n = name -> (
              let rec strip (e : Typedtree.module_expr) =
                match e.mod_desc with Tmod_constraint (e, _, _, _) -> strip e | _ -> e
              in
              match (strip mb_expr).mod_desc, rest with
              | Tmod_apply (f, _, _), [] -> (
                  match (strip f).mod_desc with
                  | Tmod_ident (fp, _) -> (
                      let fp = try Env.normalize_module_path None env fp with _ -> fp in
                      Some (path_name "" fp))
                  | _ -> None)
              | Tmod_structure s, _ :: _ -> bound_application env s.str_items rest
              | _ -> None)
          | _ -> None)
        items

(* An abstract type's declaration in its unit's implementation: the record
   behind Hashtbl.t, Buffer.t, or a program's own abstract types. *)
and concrete_in_implementation name =
  match String.split_on_char '.' name with
  | unitname :: (_ :: _ as inner) when not (String.contains name '(') -> (
      match implementation unitname with
      | None -> Abstract
      | Some (str, ienv) -> (
          let rec find sg = function
            | [ t ] ->
                List.find_map
                  (function Sig_type (id, d, _, _) when Ident.name id = t -> Some (id, d) | _ -> None)
                  sg
            | m :: rest ->
                List.find_map
                  (function
                    | Sig_module (id, _, { md_type = Mty_signature s; _ }, _, _) when Ident.name id = m ->
                        find s rest
                    | _ -> None)
                  sg
            | [] -> None
          in
          match find str.Typedtree.str_type inner with
          | None -> Abstract
          | Some (_, d) when Names_compat.is_abstract d && d.type_manifest = None -> Abstract
          | Some (id, d) ->
              read_decl unitname ienv name (Path.Pident id) d))
  | _ -> Abstract

(* ---- shapes: instances of types, numbered as the agent reads them *)

let rec subst args = function
  | Var i -> ( try List.nth args i with _ -> Opaque)
  | Con (n, a) -> Con (n, List.map (subst args) a)
  | Tup ts -> Tup (List.map (subst args) ts)
  | Fun (l, a, r) -> Fun (l, subst args a, subst args r)
  | Opaque -> Opaque

(* Abbreviations expanded: a [sessions] is a [session list], a map module's
   [SMap.t] its functor's [Map.Make(String).t], so that a type has one
   label however the program spells it. The budget bounds the work on a type
   that expands into a large one (the shape is then not made). *)
exception Too_large

let expand t =
  let budget = ref 2000 in
  let rec go depth t =
    decr budget;
    if !budget < 0 || depth > 32 then raise Too_large;
    match t with
    | Con (n, args) -> (
        match Hashtbl.find_opt decls n with
        | Some { body = Alias t'; _ } -> go (depth + 1) (subst args t')
        | _ -> Con (n, List.map (go (depth + 1)) args))
    | Tup ts -> Tup (List.map (go (depth + 1)) ts)
    | Fun (l, a, r) -> Fun (l, go (depth + 1) a, go (depth + 1) r)
    | t -> t
  in
  go 0 t

let max_key = 400

(* The type as OCaml prints it, or Too_large past max_key bytes: an arrow
   binds loosest and to the right, so it is parenthesised left of another
   arrow, in a tuple and as a one-argument constructor's argument
   ("(int -> int) list"); a tuple in a tuple and as that argument. *)
let print t =
  let b = Buffer.create 64 in
  let add s =
    Buffer.add_string b s;
    if Buffer.length b > max_key then raise Too_large
  in
  let rec go = function
    | Opaque | Var _ -> add "_"
    | Fun (l, a, r) ->
        add l;
        (match a with Fun _ -> atom a | _ -> go a);
        add " -> ";
        go r
    | Tup ts -> List.iteri (fun i t -> if i > 0 then add " * "; atom t) ts
    | Con (n, []) -> add (display n)
    | Con (n, [ a ]) ->
        atom a;
        add (" " ^ display n)
    | Con (n, args) ->
        add "(";
        List.iteri (fun i t -> if i > 0 then add ", "; go t) args;
        add (") " ^ display n)
  and atom = function
    | (Tup _ | Fun _) as t ->
        add "(";
        go t;
        add ")"
    | t -> go t
  in
  go t;
  Buffer.contents b

type shape_line = string (* the agent's line for a shape, without its id *)

let shape_ids : (string, int) Hashtbl.t = Hashtbl.create 256
let shape_lines : (int * shape_line) list ref = ref []
let next_shape = ref 1
let max_shapes = 100_000

let label_of s = if String.length s <= 200 then s else String.sub s 0 197 ^ "..."

let fields fs = String.concat " " (List.map string_of_int fs)

(* The module part of a canonical type name: "Leaky.M.t" -> "Leaky.M". *)
let module_of name =
  match String.rindex_opt name '.' with Some i -> String.sub name 0 i | None -> name

let rec shape depth t =
  match t with
  | Opaque | Var _ | Fun _ -> 0 (* a function is a closure: its label says more *)
  | _ when depth > 64 -> 0
  | _ -> (
      match
        let t = expand t in
        (t, print t)
      with
      | exception Too_large -> 0
      | t, key -> (
          match Hashtbl.find_opt shape_ids key with
          | Some id -> id
          | None when !next_shape > max_shapes -> 0
          | None -> new_shape depth key t))

and new_shape depth key t =
  let id = !next_shape in
  let line =
    match t with
    | Tup ts ->
        incr next_shape;
        Hashtbl.replace shape_ids key id;
        Some (`Line (alternatives key [ (0, key, List.map (shape (depth + 1)) ts) ]))
    | Con (name, args) -> (
        let d = try Hashtbl.find decls name with Not_found -> { body = Abstract; user = false } in
        match d.body with
        | Abstract -> None
        | Alias t' -> Some (`Same (shape (depth + 1) (subst args t')))
        | Unboxed t' -> Some (`Same (shape (depth + 1) (subst args t')))
        | _ ->
            incr next_shape;
            Hashtbl.replace shape_ids key id;
            Some (`Line (block_line depth key name d args)))
    | _ -> None
  in
  match line with
  | None -> 0
  | Some (`Same s) ->
      Hashtbl.replace shape_ids key s;
      s
  | Some (`Line l) ->
      shape_lines := (id, l) :: !shape_lines;
      id

and alternatives label alts =
    "block\t" ^ label_of label
    ^ String.concat ""
        (List.map
           (fun (tag, l, fs) ->
             Printf.sprintf "\n#alt\t%d\t%d\t%s\t%s" tag (List.length fs) (label_of l) (fields fs))
           alts)

and block_line depth key name d args =
  let elem () = match args with a :: _ -> shape (depth + 1) a | [] -> 0 in
  match d.body with
  | Record ts -> alternatives key [ (0, key, List.map (fun t -> shape (depth + 1) (subst args t)) ts) ]
  | Float_record -> "floats\t" ^ label_of key
  | Variant cs ->
      alternatives key
        (List.map
           (fun (c, tag, ts) ->
             let label = if d.user then display (module_of name) ^ "." ^ c else key in
             (tag, label, List.map (fun t -> shape (depth + 1) (subst args t)) ts))
           cs)
  | Array -> Printf.sprintf "array\t%s\t%d" (label_of key) (elem ())
  | Lazy -> Printf.sprintf "lazy\t%s\t%d" (label_of key) (elem ())
  | Extensible -> "ext\t"
  | Abstract | Alias _ | Unboxed _ -> "block\t"

(* ---- module blocks: a nested module's fields are its runtime components,
   in the order of its signature *)

let rec module_shape unit env label (mty : module_type) =
  let mty = try Mtype.scrape env mty with _ -> mty in
  match mty with
  | Mty_signature sg ->
      let fs =
        List.filter_map
          (function
            | Sig_value (_, { val_kind = Val_reg; val_type; _ }, _) ->
                Some (shape 0 (translate unit env [] val_type))
            | Sig_value _ -> None
            | Sig_typext _ | Sig_class _ -> Some 0
            | Sig_module (id, Mp_present, md, _, _) ->
                Some (module_shape unit env (label ^ "." ^ Ident.name id) md.md_type)
            | _ -> None)
          sg
      in
      let id = !next_shape in
      incr next_shape;
      let key = "module " ^ display label in
      shape_lines := (id, alternatives key [ (0, key, fs) ]) :: !shape_lines;
      id
  | _ -> 0

(* The shape of a top-level definition of unit [unit]: the value's type, or
   the module's fields. *)
let of_item unit env (sg : signature) id =
  List.find_map
    (function
      | Sig_value (i, vd, _) when Ident.same i id -> Some (shape 0 (translate unit env [] vd.val_type))
      | Sig_module (i, _, md, _, _) when Ident.same i id ->
          Some (module_shape unit env (unit ^ "." ^ Ident.name i) md.md_type)
      | _ -> None)
    sg
  |> Option.value ~default:0

let lines () = List.rev !shape_lines

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
   the implementation's signature), any other functor's read from its body
   in its unit's .cmt. Written for OCaml 4.13/4.14's and 5's
   compiler-libs, their differences in Names_compat. *)

open Types

type ty =
  | Var of int (* the n-th parameter of the declaration being read *)
  | Con of string * ty list (* canonical type path, arguments *)
  | Tup of ty list
  | Fun of string * ty * ty (* "", "l:" or "?l:"; argument, result *)
  | Opaque (* objects, polymorphic variants, existentials, cycles *)

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

(* ---- inside a functor's body, applied: Vcs.Make(Stateid.Self)(Kind) as
   Stm.Vcs_. The body's own types and modules are named under the
   application's name (Stm.Vcs_.branch_info), and a type of a parameter is
   the argument's (OT.t is Stateid.Self.t), read where the argument was
   named. Frames are pushed while a body's declaration is read. *)
type frame = {
  prefix : string; (* the application's canonical name *)
  locals : Ident.t list; (* the body's types and modules *)
  params : (Ident.t * arg) list;
  items : Typedtree.structure_item list; (* the body *)
  benv : Env.t; (* the body's environment *)
  funit : string; (* the functor's unit *)
}

and arg = { a_unit : string; a_env : Env.t; a_path : Path.t; a_ctx : frame list }

let ctx : frame list ref = ref []

let in_ctx c f =
  let saved = !ctx in
  ctx := c;
  Fun.protect ~finally:(fun () -> ctx := saved) f

let is_local id = match !ctx with f :: _ -> List.exists (Ident.same id) f.locals | [] -> false

let param_arg id =
  match !ctx with
  | f :: _ -> List.find_map (fun (p, a) -> if Ident.same p id then Some a else None) f.params
  | [] -> None

let rec path_name unit (p : Path.t) =
  match Names_compat.path p with
  | Ident id -> (
      match param_arg id with
      | Some a -> in_ctx a.a_ctx (fun () -> path_name a.a_unit a.a_path)
      | None ->
          if is_local id then (List.hd !ctx).prefix ^ "." ^ Ident.name id
          else if Ident.persistent id || Ident.global id || Ident.is_predef id then Ident.name id
          else unit ^ "." ^ Ident.name id)
  | Dot (q, s) -> path_name unit q ^ "." ^ s
  | Apply (f, x) -> path_name unit f ^ "(" ^ path_name unit x ^ ")"

(* The first identifier of a path, and the path with it replaced. *)
let rec head (p : Path.t) =
  match Names_compat.path p with Ident id -> Some id | Dot (q, _) -> head q | Apply _ -> None

let rec rebase (p : Path.t) onto =
  match Names_compat.path p with
  | Ident _ -> onto
  | Dot (q, s) -> Path.Pdot (rebase q onto, s)
  | Apply _ -> p

(* The names below a path's head: M.N.t -> N, t *)
let rec tail (p : Path.t) =
  match Names_compat.path p with Ident _ -> [] | Dot (q, s) -> tail q @ [ s ] | Apply _ -> []

(* a module expression without its signature constraints: (M : S) is M *)
let rec strip_constraint (e : Typedtree.module_expr) =
  match e.mod_desc with Tmod_constraint (e, _, _, _) -> strip_constraint e | _ -> e

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

(* functors' bodies by name: the unit, parameters, body, its environment *)
let bodies : (string, (string * Ident.t list * Typedtree.structure * Env.t) option) Hashtbl.t =
  Hashtbl.create 16

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
  match Option.bind (head p) param_arg with
  | Some a -> in_ctx a.a_ctx (fun () -> declare a.a_unit a.a_env (rebase p a.a_path))
  | None -> declare_here unit env p

and declare_here unit env p =
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
      | Some (b, `Stdlib) ->
          Hashtbl.replace synthesized name ();
          b
      | Some (b, `Body) -> b
      | None -> concrete_in_implementation name)

(* The result of a functor application's type, abstract everywhere but in
   the functor's body: the standard library's Map.Make, Set.Make,
   Hashtbl.Make and MakeSeeded written here as their bodies declare them (a
   Map.t is Node of an inline record), any other functor whose .cmt is
   found read from its body. *)
and functor_result unit env p =
  match Names_compat.path p with
  | Dot (m, tname) -> (
      let key field = translate unit env [] (Btype.newgenty (Tconstr (Pdot (m, field), [], ref Mnil))) in
      let std b = Some (b, `Stdlib) in
      match applied_functor unit env m with
      | Some ("Stdlib__Map.Make", _) when tname = "t" ->
          let self = Con (path_name unit (Pdot (m, "t")), [ Var 0 ]) in
          std (Variant [ ("Node", 0, [ self; key "key"; Var 0; self; Opaque ]) ])
      | Some ("Stdlib__Set.Make", _) when tname = "t" ->
          let self = Con (path_name unit (Pdot (m, "t")), []) in
          std (Variant [ ("Node", 0, [ self; key "elt"; self; Opaque ]) ])
      | Some (("Stdlib__Hashtbl.Make" | "Stdlib__Hashtbl.MakeSeeded"), _) when tname = "t" ->
          let table = declare unit env (Pdot (Pident (Ident.create_persistent "Stdlib__Hashtbl"), "t")) in
          std (Alias (Con (table, [ key "key"; Var 0 ])))
      | Some (fname, args) when not (is_stdlib fname) -> (
          match functor_body fname with
          | Some (funit, ids, str, benv) when List.length ids = List.length args -> (
              let decl =
                List.fold_left
                  (fun acc -> function
                    | Sig_type (id, d, _, _) when Ident.name id = tname -> Some (id, d) | _ -> acc)
                  None str.Typedtree.str_type
              in
              match decl with
              | None -> None
              | Some (_, d) when Names_compat.is_abstract d && d.type_manifest = None -> None
              | Some (id, d) ->
                  let locals =
                    List.filter_map
                      (function Sig_type (i, _, _, _) | Sig_module (i, _, _, _, _) -> Some i | _ -> None)
                      str.Typedtree.str_type
                  in
                  let frame =
                    { prefix = path_name unit m; locals; params = List.combine ids args;
                      items = str.Typedtree.str_items; benv; funit }
                  in
                  let name = path_name unit p in
                  in_ctx [ frame ] (fun () -> Some (read_decl funit benv name (Pident id) d, `Body)))
          | _ -> None)
      | _ -> None)
  | _ -> None

(* A functor's parameters and body (a structure), from its unit's .cmt:
   "Vcs.Make" -> Make's in vcs.cmt. The body's environment rebuilt once. *)
and functor_body fname =
  match Hashtbl.find_opt bodies fname with
  | Some r -> r
  | None ->
      let r =
        match String.split_on_char '.' fname with
        | funit :: (_ :: _ as inner) when not (String.contains fname '(') -> (
            match implementation funit with
            | None -> None
            | Some (str, _) -> (
                let strip = strip_constraint in
                let rec find items = function
                  | [] -> None
                  | name :: rest ->
                      List.find_map
                        (fun (item : Typedtree.structure_item) ->
                          match item.str_desc with
                          | Tstr_module { mb_name = { txt = Some n; _ }; mb_expr; _ } when n = name -> (
                              match rest, (strip mb_expr).mod_desc with
                              | [], _ -> Some mb_expr
                              | _, Tmod_structure s -> find s.str_items rest
                              | _ -> None)
                          | _ -> None)
                        items
                in
                let rec params acc (e : Typedtree.module_expr) =
                  match (strip e).mod_desc with
                  | Tmod_functor (Named (Some id, _, _), body) -> params (id :: acc) body
                  | Tmod_functor (_, body) -> params acc body
                  | Tmod_structure s when acc <> [] -> Some (List.rev acc, s)
                  | _ -> None
                in
                match Option.bind (find str.Typedtree.str_items inner) (params []) with
                | None -> None
                | Some (ids, s) ->
                    let caller = Unit_flags.save () in
                    (match find_cmt funit with
                    | Some f -> ( try Unit_flags.set (Cmt_format.read_cmt f).Cmt_format.cmt_args with _ -> ())
                    | None -> ());
                    Fun.protect ~finally:(fun () -> Unit_flags.restore caller) (fun () ->
                        match Envaux.env_of_only_summary s.str_final_env with
                        | benv -> Some (funit, ids, s, benv)
                        | exception _ -> None)))
        | _ -> None
      in
      Hashtbl.replace bodies fname r;
      r

(* Which functor made module m, and its arguments: a path F(X)(Y), a module
   of a functor's body bound to an application there, or a module bound to
   an application in its unit's implementation. *)
and applied_functor unit env m =
  let here p = { a_unit = unit; a_env = env; a_path = p; a_ctx = !ctx } in
  match Names_compat.path m with
  | Apply _ ->
      let rec spine p acc =
        match Names_compat.path p with Apply (f, x) -> spine f (here x :: acc) | _ -> (p, acc)
      in
      let f, args = spine m [] in
      let f = try Env.normalize_module_path None env f with _ -> f in
      Some (path_name "" f, args)
  | _ -> (
      match (head m, !ctx) with
      | Some id, f :: _ when is_local id ->
          let arg p = { a_unit = f.funit; a_env = f.benv; a_path = p; a_ctx = !ctx } in
          bound_application f.benv arg f.items (Ident.name id :: tail m)
      | _ -> (
          let name = path_name unit m in
          match String.split_on_char '.' name with
          | unitname :: (_ :: _ as inner) when not (String.contains name '(') -> (
              match implementation unitname with
              | Some (str, ienv) ->
                  let arg p = { a_unit = unitname; a_env = ienv; a_path = p; a_ctx = [] } in
                  in_ctx [] (fun () -> bound_application ienv arg str.Typedtree.str_items inner)
              | None -> None)
          | _ -> None))

and bound_application env arg items = function
  | [] -> None
  | name :: rest ->
      List.find_map
        (fun (item : Typedtree.structure_item) ->
          match item.str_desc with
          | Tstr_module { mb_name = { txt = Some n; _ }; mb_expr; _ } when n = name -> (
              let strip = strip_constraint in
              (* F(X)(Y): the functor's path and the arguments' *)
              let rec spine (e : Typedtree.module_expr) acc =
                match (strip e).mod_desc with
                | Tmod_apply (f, x, _) -> (
                    match (strip x).mod_desc with
                    | Tmod_ident (xp, _) -> spine f (arg xp :: acc)
                    | _ -> None)
                | Tmod_ident (fp, _) when acc <> [] ->
                    let fp = try Env.normalize_module_path None env fp with _ -> fp in
                    Some (path_name "" fp, acc)
                | _ -> None
              in
              match (strip mb_expr).mod_desc, rest with
              | Tmod_apply _, [] -> spine mb_expr []
              | Tmod_structure s, _ :: _ -> bound_application env arg s.str_items rest
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

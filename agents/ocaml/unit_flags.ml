(* unit_flags.ml - the compiler flags a unit was compiled with, read from the
   command line its .cmt records (cmt_args), set in Clflags before the unit's
   environment is rebuilt: a .cmi written with -rectypes is loaded only with
   Clflags.recursive_types set (Coq is built so), and -no-alias-deps and
   -no-app-funct change how Env resolves module paths. Flags that only
   change how code is checked or compiled are not read. *)

(* flag, the setting it changes, the value it gives *)
let table =
  [
    ("-rectypes", Clflags.recursive_types, true);
    ("-no-rectypes", Clflags.recursive_types, false);
    ("-no-alias-deps", Clflags.transparent_modules, true);
    ("-alias-deps", Clflags.transparent_modules, false);
    ("-no-app-funct", Clflags.applicative_functors, false);
    ("-app-funct", Clflags.applicative_functors, true);
    ("-principal", Clflags.principal, true);
    ("-no-principal", Clflags.principal, false);
    ("-nolabels", Clflags.classic, true);
  ]

(* the compiler's defaults, taken before any unit changes them *)
let defaults = List.map (fun (_, r, _) -> (r, !r)) table

(* Sets the flags of the unit whose command line is args (the defaults
   first, then the flags in the order written). *)
let set (args : string array) =
  List.iter (fun (r, v) -> r := v) defaults;
  Array.iter
    (fun a -> List.iter (fun (flag, r, v) -> if a = flag then r := v) table)
    args

(* The current settings, to put back after reading another unit. *)
let save () = List.map (fun (_, r, _) -> (r, !r)) table
let restore saved = List.iter (fun (r, v) -> r := v) saved

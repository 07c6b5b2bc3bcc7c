(* compiler_error.ml - an exception raised by compiler-libs as the compiler
   itself would report it ("Unbound module Foo", "This compiled interface
   was compiled with -rectypes..."), on one line, without the location
   line: the tool names the unit itself. Printexc would give only
   Persistent_env.Error(_). *)

let report exn =
  match exn with
  | Envaux.Error e -> Some (Format.asprintf "%a" Envaux.report_error e)
  | _ -> (
      match Location.error_of_exn exn with
      | Some (`Ok r) -> Some (Format.asprintf "%a" Location.print_report r)
      | Some `Already_displayed | None -> None)

(* "File \"x\", line 1:\nError: The files a.cmi\nand b.cmi make..." ->
   "The files a.cmi and b.cmi make..." *)
let one_line text =
  let lines = String.split_on_char '\n' text |> List.map String.trim in
  let lines = List.filter (fun l -> l <> "" && not (String.length l > 6 && String.sub l 0 6 = "File \"")) lines in
  let s = String.concat " " lines in
  let error = "Error: " in
  let n = String.length error in
  if String.length s >= n && String.sub s 0 n = error then String.sub s n (String.length s - n) else s

let text exn =
  Clflags.color := Some Misc.Color.Never;
  match try report exn with _ -> None with
  | Some t -> one_line t
  | None -> Printexc.to_string exn

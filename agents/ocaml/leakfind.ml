external dump_now : string -> unit = "leakfind_ocaml_dump"
external every_major : int -> string -> unit = "leakfind_ocaml_every_major"

let dump ?(full_major = true) path =
  if full_major then Gc.full_major ();
  dump_now path

let dump_on_signal ?(signal = Sys.sigusr1) prefix =
  let count = ref 0 in
  Sys.set_signal signal
    (Sys.Signal_handle
       (fun _ ->
         incr count;
         dump (Printf.sprintf "%s.%d.lfs" prefix !count)))

let dump_every_major ?(every = 1) prefix =
  if every < 1 then invalid_arg "Leakfind.dump_every_major: every < 1";
  every_major every prefix

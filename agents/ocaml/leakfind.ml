external dump_now : string -> unit = "leakfind_ocaml_dump"
external every_major : int -> string -> unit = "leakfind_ocaml_every_major"
external sampling : float -> unit = "leakfind_ocaml_sampling"

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

(* The callstack is the entry's data from allocation on, and stays at
   promotion, so the runtime keeps it as long as the block lives: the agent
   finds it there at dump time. 64 frames, as record --sample. *)
let sample_allocations ?(rate = 1e-4) () =
  if not (rate > 0. && rate <= 1.) then
    invalid_arg "Leakfind.sample_allocations: rate must be in (0, 1]";
  let keep (a : Gc.Memprof.allocation) = Some a.callstack in
  (* OCaml 5.3's start returns the profile it begins, 4.x's unit *)
  ignore
    (Gc.Memprof.start ~sampling_rate:rate ~callstack_size:64
       { Gc.Memprof.null_tracker with
         alloc_minor = keep;
         alloc_major = keep;
         promote = (fun callstack -> Some callstack) });
  sampling rate

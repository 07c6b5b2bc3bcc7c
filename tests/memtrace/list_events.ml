(* list_events.ml - every event of a Memtrace trace as the library's own
   reader (Memtrace.Trace.Reader) decodes it, one line each, for
   tests/memtrace/run.sh to check leakfind's reader against (issue 51):

     info RATE WORD_SIZE PID
     alloc ID TIME_US LENGTH SAMPLES SOURCE FRAMES
     promote ID TIME_US
     collect ID TIME_US

   FRAMES is the backtrace, outermost first, each location as
   "Function (file:LINE)" and joined by " > "; "-" when empty. SOURCE is
   minor, major or external. Built by tests/memtrace/build_lister.sh
   against each Memtrace version (0.2.3 names events without a domain). *)
open Memtrace.Trace

let id_of = function
  | Event.Promote (id, _) | Event.Collect (id, _) -> (id :> int) (* DOMAINS *)
  | Event.Alloc _ -> assert false

let frame (l : Location.t) = Printf.sprintf "%s (%s:%d)" l.defname l.filename l.line

let () =
  let r = Reader.open_ ~filename:Sys.argv.(1) in
  let info = Reader.info r in
  Printf.printf "info %.17g %d %Ld\n" info.sample_rate info.word_size info.pid;
  let frames buf len =
    if len = 0 then "-"
    else
      String.concat " > "
        (List.concat_map
           (fun i -> List.map frame (Reader.lookup_location_code r buf.(i)))
           (List.init len Fun.id))
  in
  Reader.iter r (fun t ev ->
      let t = Timedelta.to_int64 t in
      match ev with
      | Event.Alloc a ->
          let source =
            match a.source with
            | Allocation_source.Minor -> "minor"
            | Major -> "major"
            | External -> "external"
          in
          Printf.printf "alloc %d %Ld %d %d %s %s\n" (a.obj_id :> int) t a.length a.nsamples
            source (frames a.backtrace_buffer a.backtrace_length)
      | Event.Promote _ as e -> Printf.printf "promote %d %Ld\n" (id_of e) t
      | Event.Collect _ as e -> Printf.printf "collect %d %Ld\n" (id_of e) t);
  Reader.close r

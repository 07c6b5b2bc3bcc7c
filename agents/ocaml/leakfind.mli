(** Heap snapshots of this program, for [leakfind].

    Each snapshot is a leakfind file ([.lfs]) holding every live block, every
    GC root with its kind and name, and the references between them; read it
    with [leakfind roots], [dominators], [path], [diff], [trend]. Writing is
    atomic; a failed write prints one line on stderr and the program goes on. *)

val dump : ?full_major:bool -> string -> unit
(** [dump path] writes a snapshot to [path]. By default a full major
    collection runs first, so that weak data and finalisers settle. *)

val dump_on_signal : ?signal:int -> string -> unit
(** [dump_on_signal prefix]: each time the program receives [signal]
    (default [Sys.sigusr1]) a snapshot [prefix.N.lfs] is written, N = 1, 2...
    The handler is an OCaml signal handler: it runs at a safe point. *)

val dump_every_major : ?every:int -> string -> unit
(** [dump_every_major prefix]: a snapshot [prefix.N.lfs] at the end of the
    marking of every [every]-th major cycle (default 1): the memory's
    evolution over GCs, for [leakfind trend]. *)

val sample_allocations : ?rate:float -> unit -> unit
(** [sample_allocations ()] starts [Gc.Memprof] sampling, so that the next
    snapshots say where the sampled blocks still alive were allocated
    ([leakfind sites], [leakfind path --site]). [rate] is the probability
    that each allocated word (header included) is sampled (default [1e-4]:
    one sample per 10,000 words, 80 KB); a block of [w] words is sampled
    with probability [1 - (1 - rate)^(w+1)], and the estimates scale by it.
    Compile with [-g] for file and line. Raises [Invalid_argument] unless
    [0 < rate <= 1], and [Failure] if Memprof is already started. *)

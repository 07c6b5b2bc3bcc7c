/* agent.h - the OCaml heap agent's parts (native code, amd64; OCaml
 * 4.13/4.14 and 5.x).
 *
 * The agent runs inside the profiled program. It enumerates every GC root
 * with a kind and a name (roots.c, threads.c), walks the heap from them
 * without recursion and without allocating in the OCaml heap (heapwalk.c),
 * and writes the graph through the public writer (core/writer/lfs_writer.h). Names
 * come from the program's own symbol table (symbols.c). dump.c ties the steps
 * together; the triggers (explicit call, signal, major cycles) are the
 * runtime's.
 *
 * The files in this directory read nothing that differs between the
 * runtimes; what does (roots, stacks, threads, the heap's layout, the GC's
 * hooks, Memprof) is in ocaml4/ or ocaml5/, each built against its own
 * runtime's headers, behind the declarations below. */
#ifndef LF_OCAML_AGENT_H
#define LF_OCAML_AGENT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <caml/mlvalues.h>

#include "../../core/base/ocaml_name.h"
#include "../../core/writer/lfs_writer.h"
#include "runtime.h" /* ocaml4/ or ocaml5/, by the include path */
#include "shapes.h"

/* ---- the binary search the walk (regions) and the symbol table share:
 * how many elements of an array sorted by a uintptr_t key have a key at most
 * a, which is also the index of the first key above a. Elements are stride
 * bytes apart, the key key_offset bytes into each. */
static inline size_t agent_keys_at_most(const void *base, size_t count, size_t stride, size_t key_offset,
                                        uintptr_t a)
{
    const char *keys = (const char *)base + key_offset;
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uintptr_t key;
        memcpy(&key, keys + mid * stride, sizeof key);
        if (key <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- u64map.c: nonzero 64-bit keys to values, in malloc memory */
typedef struct agent_map {
    uint64_t *key; /* 0 = empty slot */
    int64_t *val;
    size_t cap, count;
} agent_map;

/* The value slot of key (inserted as 0 when insert is set), or NULL when
 * absent (or on no memory with insert). */
int64_t *agent_map_slot(agent_map *m, uint64_t key, int insert);
void agent_map_free(agent_map *m);

/* ---- symbols.c: the executable's ELF symbols, biased to run-time addresses */
typedef struct agent_symbol {
    uintptr_t addr;
    uintptr_t size;
    const char *name; /* points into the mapped executable */
} agent_symbol;

typedef struct agent_symbols {
    agent_symbol *sym; /* sorted by addr */
    size_t count;
    void *map[64];     /* the object files the names point into */
    size_t map_len[64];
    size_t map_count;
} agent_symbols;

/* The table of the program and its loaded objects, read on first use and
 * again once more objects are loaded (a Dynlink plugin); NULL when none has
 * symbols, in which case names fall back to addresses and indices. */
const agent_symbols *agent_symbols_get(void);
/* The symbol that starts exactly at addr. */
const agent_symbol *agent_symbol_at(const agent_symbols *s, uintptr_t addr);
/* The symbol whose [addr, addr + size) holds a; a size-0 symbol holds up to
 * the next symbol. */
const agent_symbol *agent_symbol_holding(const agent_symbols *s, uintptr_t a);
/* The symbol of that name (a linear search: for a few look-ups). */
const agent_symbol *agent_symbol_named(const agent_symbols *s, const char *name);
/* "camlStdlib__Hashtbl__add_123" -> "Stdlib.Hashtbl.add"; anonymous
 * functions keep their stamp ("Leaky.fun_412"); a non-OCaml name is copied. */
void agent_demangle(const char *symbol, char *out, size_t outlen);

/* ---- fieldnames.c: the name of field `index` of a module's global block,
 * from PROGRAM.leakfind-names, or NULL */
const char *agent_field_name(const char *module, size_t index);

/* ---- shapes.c (shapes.h): what typed values look like */
/* The shape of the value in field `index` of a module's global block, 0 for
 * none (fieldnames.c). */
uint32_t agent_field_shape(const char *module, size_t index);

/* ---- heapwalk.c: marks, labels, the explicit DFS */
typedef struct agent_walk agent_walk;

/* ---- heap.c, one per runtime: where blocks live, and what the runtime
 * keeps beside them */
/* The block v designates (an infix pointer gives its closure), or 0 when v
 * is not a block the walk follows. */
value agent_heap_block(value v);
/* Declares the heap's known address ranges (agent_walk_add_region). */
int agent_heap_regions(agent_walk *walk);
/* Whether block b is part of the program's image rather than its heap:
 * followed, size 0. */
int agent_heap_is_static(value b);
/* Declares the runtime's ephemerons (agent_walk_ephemeron). */
int agent_heap_ephemerons(agent_walk *walk);
/* Whether the GC has already found this ephemeron key dead. */
int agent_heap_key_dead(value key);
/* Upper bounds of the blocks and references to come: a hint. */
void agent_heap_estimate(uint64_t *blocks, uint64_t *fields);
/* A block the runtime scans its own way (OCaml 5: a continuation, whose
 * fiber's frames hold values): 0 when v is not one, else what it reaches
 * through agent_walk_child and 1; -1 on no memory. */
int agent_heap_scan_own(agent_walk *walk, value v, int emit);
/* The label of such a block, or NULL. */
const char *agent_heap_label(value v);
/* Bytes outside the heap that block v owns (a fiber's stack), or 0. */
uint64_t agent_heap_extra_bytes(value v);

agent_walk *agent_walk_new(lfs_writer *w);
void agent_walk_free(agent_walk *walk);
/* The block a root or field value designates (an infix pointer gives its
 * closure), or 0 when v is not a block in the OCaml value area. */
value agent_walk_block(value v);
/* Declares a root: kind and name as in the writer; v may be any value. */
int agent_walk_root(agent_walk *walk, value v, const char *kind, const char *name);
/* A heap range whose blocks the walk marks in a bitmap. */
int agent_walk_add_region(agent_walk *walk, uintptr_t lo, uintptr_t hi);
int agent_walk_ephemeron(agent_walk *walk, value e);
/* A reference from block `from` to value v (if a block) named field:
 * pass 1 (emit 0) reaches it, pass 2 writes it. */
int agent_walk_child(agent_walk *walk, value from, value v, const char *field, int emit);
/* A weak reference from one block to another, kept only if both are live. */
int agent_walk_weak(agent_walk *walk, value from, value to, const char *field);
/* Visits everything the roots reach, then writes the pending weak edges. */
int agent_walk_run(agent_walk *walk);
/* After the marking (for agent_sites_collect): whether the walk reached b,
 * its id, the writer, and a class of its own (a writer class index) for
 * block b (tag 0 only). */
int agent_walk_marked(agent_walk *walk, value b);
uint64_t agent_walk_rank(agent_walk *walk, value b);
lfs_writer *agent_walk_writer(agent_walk *walk);
/* After the numbering: 1 when field value v designates a marked block, with
 * that block and its rank; 0 otherwise. */
int agent_walk_marked_rank(agent_walk *walk, value v, value *block, uint64_t *rank);
int agent_walk_label_as(agent_walk *walk, value b, int64_t class_index);
/* A root's value with the shape of its declared type (0: none, ignored),
 * where the typed labelling starts. */
int agent_walk_typed_root(agent_walk *walk, value v, uint32_t shape);
typedef struct agent_typed_root {
    value block;
    uint32_t shape;
} agent_typed_root;
const agent_typed_root *agent_walk_typed_roots(const agent_walk *walk, size_t *count);
/* After the numbering: the class a block of that rank is written with (set
 * by its type), or -1 for its untyped label. A class from a vague type (one
 * with unknown parts, "_ ref") gives way to a firm one that reaches the
 * block later. */
int64_t agent_walk_class_of(const agent_walk *walk, uint64_t rank);
enum { AGENT_CLASS_NONE, AGENT_CLASS_VAGUE, AGENT_CLASS_FIRM };
int agent_walk_class_state(const agent_walk *walk, uint64_t rank);
int agent_walk_set_class(agent_walk *walk, uint64_t rank, int64_t class_index, int vague);

/* ---- typedwalk.c: blocks labelled by their types, from the typed roots
 * down along the shapes; after the numbering, before the writing. 0, or -1
 * on no memory. */
int agent_types_label(agent_walk *walk);
/* The last snapshot's typed blocks and the time the labelling took. */
void agent_types_last(uint64_t *labelled, double *seconds);
/* Blocks visited so far. */
uint64_t agent_walk_count(const agent_walk *walk);
/* The walk's own memory at its largest: marks, stack, maps (not the writer's). */
uint64_t agent_walk_memory(const agent_walk *walk);

/* ---- roots.c, one per runtime: every root, named */
int agent_roots_collect(agent_walk *walk);

/* ---- globals.c */
/* Declares each field of the program's modules' global blocks as a `global`
 * root named Module.field (Module.[i] without a names file). */
int agent_globals_collect(agent_walk *walk);
/* When slot (held by symbol s) is a field of a module's global block (a
 * Dynlink plugin's): its name as agent_globals_collect gives it and its
 * shape, and 1; else 0. */
int agent_global_slot_name(const agent_symbol *s, const value *slot, char *name, size_t len,
                           uint32_t *shape);

/* ---- rootslots.c */
/* Remembers a root slot as seen, so that a later scan does not name it twice;
 * returns 1 when it was new. */
int agent_slot_seen(void *slot);
void agent_slots_reset(void);

/* ---- sites.c, sampling.c, one per runtime: allocation sites of the
 * blocks Gc.Memprof sampled */
/* Sampling that the agent started (Leakfind.sample_allocations, or record
 * --sample): its rate in samples per word; 0 when none. */
void agent_sampling_started(double samples_per_word);
/* Starts Gc.Memprof from C with the agent's own tracker (record --sample);
 * the runtime must be initialised. 0, or -1 when it is already started. */
int agent_sampling_start(double samples_per_word);
/* With sampling on: each sampled block the walk reached, with its samples
 * and its allocation stack; Memprof's callstack blocks are labelled
 * "memprof callstack". 0, or -1 on no memory. */
int agent_sites_collect(agent_walk *walk);

/* ---- frames.c, one per runtime: the table of frame descriptors */
/* The current table, an identity that changes when natdynlink adds code
 * (NULL when there is none yet), and its capacity in slots. */
const void *agent_frames_table(size_t *slots);
/* The descriptor in slot i of that table when it has debuginfo (a
 * backtrace slot for caml_debuginfo_extract), with its return address;
 * NULL otherwise. */
void *agent_frames_debug_slot(size_t i, uintptr_t *retaddr);

/* ---- memprof.c, one per runtime: Memprof's tracked blocks */
/* Calls take for every block Memprof tracks, with what its entry says
 * beside the user data (the block, its samples, its size in words). These
 * are read from a private layout: the caller checks them. */
typedef void (*agent_memprof_entry_fn)(value block, uintnat samples, uintnat wosize,
                                       value user_data);
void agent_memprof_entries(agent_memprof_entry_fn take);

/* ---- codeloc.c */
/* The file and line of the first call or allocation with debuginfo in the
 * code at [start, end] that is in the unit's own file (unit "List" for
 * list.ml: the last part of the module path); 0, or -1 when there is none
 * (a unit built without -g). */
int agent_code_location(uintptr_t start, uintptr_t end, const char *unit, char *file, size_t len,
                        int *line);

/* ---- dump.c */
/* Writes a snapshot to path, the heap still; 0 or -1 (one line already on
 * stderr). */
int agent_dump(const char *path);
/* At most max_count numbered snapshots (0: no limit), at most max_bytes on
 * disk (0: no limit): past either, the oldest but the first is removed
 * after each new one (the first and the latest are always kept), said once
 * on stderr then counted at exit. */
void agent_series_budget(unsigned max_count, uint64_t max_bytes);
/* The next numbered snapshot PREFIX.N.lfs, now, through agent_snapshot
 * (where a trigger may take one); the prefix is set first. Returns
 * agent_snapshot's answer; when busy the number is not used up. */
int agent_series_dump(void);
int agent_series_prefix(const char *prefix);

/* ---- triggers.c, one per runtime */
/* Writes a snapshot to path now: stops what must be stopped (OCaml 5:
 * every domain), then agent_dump. 0 written, -1 failed (said on stderr),
 * AGENT_SNAPSHOT_BUSY: OCaml 5 only, asked from a GC hook that runs inside
 * the runtime's own stop-the-world section, where none can start; nothing
 * was written and the trigger stays pending. */
enum { AGENT_SNAPSHOT_BUSY = 1 };
int agent_snapshot(const char *path);
/* A snapshot PREFIX.N.lfs at the end of every `every`-th major cycle. */
void agent_every_major(int every, const char *prefix);

/* ---- snapsignal.c, one per runtime */
/* A snapshot PREFIX.N.lfs after each signal sig: at the next minor
 * collection, or while the program waits in a system call (a blocking
 * section), or at exit, whichever comes first (docs/OCAML.md). */
int agent_on_signal(int sig, const char *prefix);
/* Called once the runtime has its heap and domains (record: from the
 * start-up's readlink; linked: Leakfind's calls run later anyway), before
 * which a signal only notes its snapshot as pending. */
void agent_runtime_up(void);

#endif

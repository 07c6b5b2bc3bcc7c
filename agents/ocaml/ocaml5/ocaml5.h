/* ocaml5.h - what the OCaml 5 parts of the agent share. */
#ifndef LF_OCAML5_AGENT_H
#define LF_OCAML5_AGENT_H

#include "../agent.h"
#include "compat.h"

#include <caml/domain_state.h>
#include <caml/fiber.h>

/* ---- triggers.c: the domains stopped in the agent's stop-the-world
 * section, set while a snapshot is taken (every running domain, by id) */
extern caml_domain_state **agent5_domains;
extern int agent5_domain_count;
/* Hooks the end of major slices, where pending snapshots are taken. */
void agent5_hook_slices(void);

/* ---- snapsignal.c */
/* The signal's snapshot, if one is asked for (0 when not); its answer
 * is agent_snapshot's. */
int agent5_signal_snapshot(void);

/* ---- stacks.c: OCaml stacks, frame by frame */
/* What a stack walk reports: a live slot of frame frame_no (descr and
 * retaddr describe the frame), or with descr NULL one of a fiber's handler
 * closures (frame_no 0 value, 1 exception, 2 effect). Returns 0 to go on,
 * -1 to stop with an error. */
typedef int (*agent5_slot_fn)(void *ctx, value *slot, int frame_no, void *descr,
                              uintnat retaddr);
/* Walks a stack and the stacks of the fibers it runs under (their parents),
 * as the runtime's caml_scan_stack does, frame numbers counting on across
 * them. A return address the frame table does not know ends the walk. */
int agent5_walk_stack(struct stack_info *stack, value *gc_regs, agent5_slot_fn fn, void *ctx);
/* "frame K: Module.fn (file.ml:LINE)" (without debuginfo, the function's
 * symbol), or the handler's name, prefixed by who ("domain 1 "). */
void agent5_frame_name(char *buf, size_t len, const char *who, int frame_no, void *descr,
                       uintnat retaddr);
/* Declares a `stack` root per live slot of a stack, named "WHO frame K:
 * ...", and its C local roots ("WHO C local roots"). */
int agent5_stack_roots(agent_walk *walk, const char *who, struct stack_info *stack,
                       value *gc_regs, struct caml__roots_block *local_roots);

/* ---- threads.c: systhreads, per domain */
/* Reads the threads of domain d through the threads library's hook: the
 * running thread's id (-1 without systhreads); then declares the other
 * threads' stacks. */
int agent5_threads_begin(caml_domain_state *d, long *running_thread);
int agent5_threads_collect(agent_walk *walk, caml_domain_state *d);

#endif

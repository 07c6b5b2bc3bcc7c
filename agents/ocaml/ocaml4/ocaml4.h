/* ocaml4.h - what the OCaml 4.13/4.14 parts of the agent share. */
#ifndef LF_OCAML4_AGENT_H
#define LF_OCAML4_AGENT_H

#include "../agent.h"

/* ---- threads.c: systhreads */
/* Reads the thread ring through the threads library's hook and says which
 * thread is running (0 without threads); then declares the other threads'
 * stacks, named per frame. 0, or -1 on no memory. */
int agent_threads_begin(long *current_thread_id);
int agent_threads_collect(agent_walk *walk);

/* ---- roots.c: stacks */
/* 1 when the frame table knows this return address. */
int agent_stack_known(uintnat retaddr);
/* Walks one OCaml stack (and its C local roots) as the runtime does,
 * declaring a `stack` root per live slot named "thread T frame K: ...". */
int agent_stack_collect(agent_walk *walk, long thread_id, char *bottom_of_stack,
                        uintnat last_retaddr, value *gc_regs, void *local_roots);

#endif

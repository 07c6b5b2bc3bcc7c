/* stacks.c (OCaml 5) - OCaml stacks, frame by frame.
 *
 * As the runtime's scan_stack_frames (runtime/fiber.c): a stack is chunks
 * of OCaml frames separated by the frames of C calls back into OCaml; each
 * frame's descriptor lists its live slots (on the stack, or in the saved
 * registers gc_regs); past the stack's top come its handler's closures and
 * the parent fiber's stack. A return address the frame table does not know
 * stops the walk rather than guess (the runtime would assert). */
#define CAML_INTERNALS
#include "ocaml5.h"

#include <stdio.h>
#include <string.h>

#include <caml/backtrace_prim.h>
#include <caml/frame_descriptors.h>
#include <caml/memory.h>
#include <caml/stack.h>

static int walk_frames(agent5_frame_table fds, struct stack_info *stack, value *regs,
                       int *frame_no, agent5_slot_fn fn, void *ctx)
{
    char *sp = (char *)stack->sp;
    while (sp != (char *)Stack_high(stack)) {
        sp = First_frame(sp);
        uintnat retaddr = Saved_return_address(sp);
        for (;;) {
            frame_descr *d = caml_find_frame_descr(fds, retaddr);
            if (!d)
                return 0;
            if (frame_return_to_C(d)) {
                regs = Saved_gc_regs(sp); /* the chunk below this C call */
                sp += Stack_header_size;
                break;
            }
            for (uint16_t n = 0; n < d->num_live; n++) {
                uint16_t ofs = d->live_ofs[n];
                value *slot = (ofs & 1) ? regs + (ofs >> 1) : (value *)(sp + ofs);
                if (fn(ctx, slot, *frame_no, d, retaddr))
                    return -1;
            }
            (*frame_no)++;
            sp += frame_size(d);
            retaddr = Saved_return_address(sp);
        }
    }
    return 0;
}

int agent5_walk_stack(struct stack_info *stack, value *gc_regs, agent5_slot_fn fn, void *ctx)
{
    agent5_frame_table fds = caml_get_frame_descrs();
    int frame_no = 0;
    for (; stack; stack = Stack_parent(stack), gc_regs = NULL) {
        if (walk_frames(fds, stack, gc_regs, &frame_no, fn, ctx))
            return -1;
        value *handler[3] = {(value *)&Stack_handle_value(stack),
                             (value *)&Stack_handle_exception(stack),
                             (value *)&Stack_handle_effect(stack)};
        for (int i = 0; i < 3; i++)
            if (fn(ctx, handler[i], i, NULL, 0))
                return -1;
    }
    return 0;
}

void agent5_frame_name(char *buf, size_t len, const char *who, int frame_no, void *descr,
                       uintnat retaddr)
{
    static const char *const handlers[] = {"value", "exception", "effect"};
    const char *sep = who[0] ? " " : "";
    if (!descr) {
        snprintf(buf, len, "%s%sfiber handler (%s)", who, sep, handlers[frame_no % 3]);
        return;
    }
    if (frame_has_debug((frame_descr *)descr)) {
        struct caml_loc_info li;
        caml_debuginfo_location(caml_debuginfo_extract(descr), &li);
        if (li.loc_valid) {
            char fn[200];
            lf_ocaml_name(li.loc_defname, strlen(li.loc_defname), fn, sizeof fn);
            snprintf(buf, len, "%s%sframe %d: %s (%s:%d)", who, sep, frame_no, fn,
                     li.loc_filename, AGENT_LOC_LINE(li));
            return;
        }
    }
    char fn[200] = "?";
    const agent_symbol *s = agent_symbol_holding(agent_symbols_get(), retaddr);
    if (s)
        agent_demangle(s->name, fn, sizeof fn);
    snprintf(buf, len, "%s%sframe %d: %s", who, sep, frame_no, fn);
}

typedef struct root_scan {
    agent_walk *walk;
    const char *who;
    char name[512];
    int named_frame; /* the frame name holds: -1 none */
    int named_handler;
} root_scan;

static int stack_slot(void *ctx, value *slot, int frame_no, void *descr, uintnat retaddr)
{
    root_scan *r = ctx;
    if (!agent_heap_block(*slot) || !agent_slot_seen(slot))
        return 0;
    int key = descr ? frame_no : -2 - frame_no;
    if (key != r->named_frame) {
        agent5_frame_name(r->name, sizeof r->name, r->who, frame_no, descr, retaddr);
        r->named_frame = key;
    }
    return agent_walk_root(r->walk, *slot, "stack", r->name);
}

static int local_roots(agent_walk *walk, const char *who, struct caml__roots_block *lr)
{
    char name[160];
    snprintf(name, sizeof name, "%s C local roots", who);
    for (; lr != NULL; lr = lr->next)
        for (intnat i = 0; i < lr->ntables; i++)
            for (intnat j = 0; j < lr->nitems; j++) {
                value *root = (value *)&lr->tables[i][j];
                if (agent_heap_block(*root) && agent_slot_seen(root) &&
                    agent_walk_root(walk, *root, "C local", name))
                    return -1;
            }
    return 0;
}

int agent5_stack_roots(agent_walk *walk, const char *who, struct stack_info *stack,
                       value *gc_regs, struct caml__roots_block *local)
{
    root_scan r = {.walk = walk, .who = who, .named_frame = -1000};
    if (stack && agent5_walk_stack(stack, gc_regs, stack_slot, &r))
        return -1;
    return local_roots(walk, who, local);
}

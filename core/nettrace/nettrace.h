/* nettrace.h - dotnet-trace's EventPipe file (.nettrace, NetTrace format
 * versions 4 and 5: docs/DOTNET.md): the GC allocation ticks it holds, by
 * type and stack, and the method names the rundown gives their frames.
 *
 * Read in one pass over the bytes; what is kept grows with the distinct
 * types, stacks and methods, never with the events. */
#ifndef LF_NETTRACE_H
#define LF_NETTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "../base/error.h"

/* The ticks of one type allocated at one stack. */
typedef struct lf_nettrace_site {
    uint32_t type;          /* index into type_name */
    uint32_t stack;         /* index into the stacks; 0: the event had none */
    uint64_t ticks;         /* GCAllocationTick events */
    uint64_t bytes;         /* their AllocationAmount64 summed */
} lf_nettrace_site;

typedef struct lf_nettrace_method {
    uint64_t start, size;
    uint32_t name;          /* offset into names: "Namespace.Type.Method" */
} lf_nettrace_method;

typedef struct lf_nettrace {
    uint32_t pointer_size;  /* 4 or 8: the size of a stack's IPs */
    uint32_t process_id;
    /* types, each a NUL-terminated name in `names` */
    uint32_t *type_name;
    uint32_t type_count, type_cap;
    /* stacks: stack k is ip[stack_start[k] .. stack_start[k + 1]), innermost
     * first; stack 0 is the empty one */
    uint64_t *ip;
    uint64_t ip_count, ip_cap;
    uint64_t *stack_start;
    uint32_t stack_count, stack_cap;
    lf_nettrace_site *site;
    uint32_t site_count, site_cap;
    /* sorted by start once read */
    lf_nettrace_method *method;
    uint32_t method_count, method_cap;
    char *names;
    uint64_t names_len, names_cap;
    uint64_t events;        /* every event read */
    uint64_t ticks;         /* the allocation ticks among them */
    uint64_t tick_bytes;    /* their AllocationAmount64 summed */
    /* interning tables (index + 1, 0 = empty) */
    uint32_t *type_slot, *stack_slot, *site_slot;
    uint32_t type_mask, stack_mask, site_mask;
} lf_nettrace;

/* True when the bytes start as a .nettrace does ("Nettrace"). */
int lf_nettrace_detect(const uint8_t *head, size_t len);
/* Reads the whole trace; on error out holds nothing (freed). */
int lf_nettrace_parse(const uint8_t *data, size_t size, lf_nettrace *out, lf_error *err);
void lf_nettrace_free(lf_nettrace *t);

/* A frame for people: the method's "Namespace.Type.Method" when the rundown
 * named the address, else the address in hex. Like snprintf. */
size_t lf_nettrace_frame_label(const lf_nettrace *t, uint64_t ip, char *buf, size_t size);
/* A stack's `depth` innermost frames (0: all) joined by " < ", innermost
 * first; "(no stack)" for stack 0. Like snprintf. */
size_t lf_nettrace_stack_label(const lf_nettrace *t, uint32_t stack, uint32_t depth, char *buf,
                               size_t size);

#endif

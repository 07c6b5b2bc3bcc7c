/* sampling.c (OCaml 5) - Gc.Memprof sampling started by the agent.
 *
 * As on OCaml 4 (ocaml4/sampling.c): Leakfind.sample_allocations starts
 * Memprof from OCaml and tells the agent its rate; `leakfind record
 * --sample` starts it from C with a tracker of the agent's own, whose
 * callbacks keep the allocation's callstack as the entry's data. The
 * callbacks are closures whose code is a trampoline into C; on OCaml 5 it
 * goes through caml_c_call, which moves from the fiber's small OCaml stack
 * to the domain's C stack as any external call does (the OCaml argument
 * in rax becomes C's rdi). The C side allocates only with
 * caml_alloc_shr_noexc, which never raises. The tracker, its closures and
 * the rate are static blocks outside the heap, with NOT_MARKABLE headers
 * as OCaml 5 requires of such blocks. A profile in OCaml 5.3 is the
 * domain's, and domains spawned later inherit it. */
#define CAML_INTERNALS
#include "ocaml5.h"

#include <string.h>

#include <caml/gc.h>
#include <caml/memory.h>
#include <caml/shared_heap.h>

value caml_memprof_start(value rate, value callstack_size, value tracker);
value leakfind_ocaml_sampling(value rate);
value leakfind_memprof_keep_allocation(value allocation);
value leakfind_memprof_keep(value callstack);

/* Frames kept per sample, as Leakfind.sample_allocations keeps. */
enum { CALLSTACK_FRAMES = 64 };

value leakfind_ocaml_sampling(value rate)
{
    agent_sampling_started(Double_val(rate));
    return Val_unit;
}

/* Some v, in the major heap (no collection, no exception): None when out
 * of memory, which drops the sample. */
static value some(value v)
{
    value r = caml_alloc_shr_noexc(1, 0);
    if (!r)
        return Val_unit;
    caml_initialize(&Field(r, 0), v);
    return r;
}

/* alloc_minor / alloc_major: Gc.Memprof.allocation is
 * { n_samples; size; source; callstack }. */
value leakfind_memprof_keep_allocation(value allocation)
{
    return some(Field(allocation, 3));
}

/* promote: the callstack stays. */
value leakfind_memprof_keep(value callstack)
{
    return some(callstack);
}

__asm__(".text\n"
        ".p2align 4\n"
        "leakfind5_keep_allocation_code:\n"
        "  movq %rax, %rdi\n"
        "  movq leakfind_memprof_keep_allocation@GOTPCREL(%rip), %rax\n"
        "  jmp caml_c_call@PLT\n"
        ".p2align 4\n"
        "leakfind5_keep_code:\n"
        "  movq %rax, %rdi\n"
        "  movq leakfind_memprof_keep@GOTPCREL(%rip), %rax\n"
        "  jmp caml_c_call@PLT\n"
        ".p2align 4\n"
        "leakfind5_ignore_code:\n"
        "  movl $1, %eax\n" /* Val_unit */
        "  ret\n");
extern char leakfind5_keep_allocation_code[], leakfind5_keep_code[], leakfind5_ignore_code[];

static value closure_keep_allocation[3], closure_keep[3], closure_ignore[3];
static value tracker[6]; /* alloc_minor alloc_major promote dealloc_minor dealloc_major */
static value boxed_rate[2];

static value make_closure(value *block, char *code)
{
    block[0] = (value)Make_header(2, Closure_tag, NOT_MARKABLE);
    block[1] = (value)code;
    block[2] = (value)Make_closinfo(1, 2);
    return (value)&block[1];
}

int agent_sampling_start(double samples_per_word)
{
    if (!AGENT5_HAS_MEMPROF)
        return -1; /* 5.1's and 5.2's Gc.Memprof.start raise: record refuses --sample */
    static int started;
    if (started)
        return -1;
    started = 1;
    value keep_allocation = make_closure(closure_keep_allocation, leakfind5_keep_allocation_code);
    value keep = make_closure(closure_keep, leakfind5_keep_code);
    value ignore = make_closure(closure_ignore, leakfind5_ignore_code);
    tracker[0] = (value)Make_header(5, 0, NOT_MARKABLE);
    value fields[5] = {keep_allocation, keep_allocation, keep, ignore, ignore};
    memcpy(&tracker[1], fields, sizeof fields);
    boxed_rate[0] = (value)Make_header(1, Double_tag, NOT_MARKABLE);
    memcpy(&boxed_rate[1], &samples_per_word, sizeof samples_per_word);
    caml_memprof_start((value)&boxed_rate[1], Val_long(CALLSTACK_FRAMES), (value)&tracker[1]);
    agent_sampling_started(samples_per_word);
    return 0;
}

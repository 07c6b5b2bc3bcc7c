/* sampling.c - Gc.Memprof sampling started by the agent.
 *
 * Leakfind.sample_allocations starts Memprof from OCaml and tells the agent
 * its rate (leakfind_ocaml_sampling). `leakfind record --sample` has no
 * OCaml code of its own in the program, so the agent starts Memprof from C
 * with a tracker of its own: closures whose code is a two-instruction
 * trampoline into C (OCaml passes the argument in rax, C takes it in rdi;
 * both keep r14 and r15, the runtime's registers). The C side allocates
 * only with caml_alloc_shr_no_track_noexc, which never starts a collection
 * and never raises, so it needs no frame descriptor of its own. Either
 * tracker keeps the allocation's callstack as the entry's data, at
 * allocation and again at promotion, so the runtime keeps it while the
 * block lives (sites.c reads it). The tracker, its closures and the rate
 * are static blocks outside the heap, which the GC does not follow. */
#define CAML_INTERNALS
#include "../agent.h"

#include <string.h>

#include <caml/gc.h>
#include <caml/memory.h>

value caml_memprof_start(value rate, value callstack_size, value tracker);
value leakfind_ocaml_sampling(value rate);
value leakfind_memprof_keep_allocation(value allocation);
value leakfind_memprof_keep(value callstack);

/* Frames kept per sample: enough for any site; deeper stacks are cut at
 * their outermost end. Leakfind.sample_allocations uses the same. */
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
    value r = caml_alloc_shr_no_track_noexc(1, 0);
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
        "leakfind_keep_allocation_code:\n"
        "  movq %rax, %rdi\n"
        "  jmp leakfind_memprof_keep_allocation@PLT\n"
        ".p2align 4\n"
        "leakfind_keep_code:\n"
        "  movq %rax, %rdi\n"
        "  jmp leakfind_memprof_keep@PLT\n"
        ".p2align 4\n"
        "leakfind_ignore_code:\n"
        "  movl $1, %eax\n" /* Val_unit */
        "  ret\n");
extern char leakfind_keep_allocation_code[], leakfind_keep_code[], leakfind_ignore_code[];

static value closure_keep_allocation[3], closure_keep[3], closure_ignore[3];
static value tracker[6]; /* alloc_minor alloc_major promote dealloc_minor dealloc_major */
static value boxed_rate[2];

static value make_closure(value *block, char *code)
{
    block[0] = (value)Make_header(2, Closure_tag, Caml_black);
    block[1] = (value)code;
    block[2] = (value)Make_closinfo(1, 2);
    return (value)&block[1];
}

int agent_sampling_start(double samples_per_word)
{
    static int started;
    if (started)
        return -1;
    started = 1;
    value keep_allocation = make_closure(closure_keep_allocation, leakfind_keep_allocation_code);
    value keep = make_closure(closure_keep, leakfind_keep_code);
    value ignore = make_closure(closure_ignore, leakfind_ignore_code);
    tracker[0] = (value)Make_header(5, 0, Caml_black);
    value fields[5] = {keep_allocation, keep_allocation, keep, ignore, ignore};
    memcpy(&tracker[1], fields, sizeof fields);
    boxed_rate[0] = (value)Make_header(1, Double_tag, Caml_black);
    memcpy(&boxed_rate[1], &samples_per_word, sizeof samples_per_word);
    caml_memprof_start((value)&boxed_rate[1], Val_long(CALLSTACK_FRAMES), (value)&tracker[1]);
    agent_sampling_started(samples_per_word);
    return 0;
}

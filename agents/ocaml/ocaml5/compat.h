/* compat.h (OCaml 5) - what OCaml 5.1 and 5.2 spell differently from 5.3.
 *
 * One set of sources reads the three runtimes; the agent is built once per
 * compiler, against that compiler's headers, whose caml/version.h says
 * which (agents/ocaml/ocaml.mk: leakfind-agent-ocaml5.so for 5.3,
 * leakfind-agent-ocaml52.so for 5.2, leakfind-agent-ocaml51.so for 5.1).
 * What differs, docs/OCAML.md "Versions":
 *  - the frame table: 5.1 and 5.2 hand it out by value, 5.3 by pointer;
 *  - 5.1's stack.h has no First_frame, Saved_gc_regs nor
 *    Stack_header_size (5.2's has them); its caml_scan_stack steps over
 *    the same words (amd64: the return address, then the 4-word frame of a
 *    C call whose fourth word saves gc_regs), so they are written here;
 *  - the stop-the-world barrier: 5.1's and 5.2's begin/is_final/end
 *    against 5.3's Caml_global_barrier_if_final;
 *  - the debug info's line: 5.1's loc_lnum, 5.2's and 5.3's
 *    loc_start_lnum (runtime.h);
 *  - no Gc.Memprof in 5.1 and 5.2 (5.2 has 5.3's interface, but its
 *    runtime's start fails), so no sampled sites and no tracked blocks. */
#ifndef LF_OCAML5_COMPAT_H
#define LF_OCAML5_COMPAT_H

#include <caml/version.h>

#if OCAML_VERSION_MAJOR != 5 || OCAML_VERSION_MINOR < 1 || OCAML_VERSION_MINOR > 3
#error "the OCaml 5 agent reads the runtimes of OCaml 5.1, 5.2 and 5.3 (docs/OCAML.md)"
#endif

#define AGENT5_HAS_MEMPROF (OCAML_VERSION_MINOR >= 3)

#include <caml/frame_descriptors.h>

#if OCAML_VERSION_MINOR >= 3
typedef caml_frame_descrs *agent5_frame_table;
#define AGENT5_FRAME_TABLE_HEAD(t) (t)
#else
typedef caml_frame_descrs agent5_frame_table;
#define AGENT5_FRAME_TABLE_HEAD(t) (&(t))
#endif

#ifndef First_frame
#ifdef WITH_FRAME_POINTERS
#define First_frame(sp) ((sp) + 16)
#else
#define First_frame(sp) ((sp) + 8)
#endif
#define Saved_gc_regs(sp) (*(value **)((sp) + 24))
#define Stack_header_size 32
#endif

#endif

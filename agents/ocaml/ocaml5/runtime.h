/* runtime.h (OCaml 5) - the few names the common files use that differ
 * between runtimes. */
#ifndef LF_OCAML_RUNTIME_H
#define LF_OCAML_RUNTIME_H

#define AGENT_OCAML_MAJOR 5
/* The first line of a struct caml_loc_info (5.2 renamed its fields). */
#include <caml/version.h>
#if OCAML_VERSION_MINOR >= 2
#define AGENT_LOC_LINE(li) ((li).loc_start_lnum)
#define AGENT_LOC_COLUMN(li) ((li).loc_start_chr)
#else
#define AGENT_LOC_LINE(li) ((li).loc_lnum)
#define AGENT_LOC_COLUMN(li) ((li).loc_startchr)
#endif

#endif

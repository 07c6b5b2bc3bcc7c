/* runtime.h (OCaml 4.13/4.14) - the few names the common files use that
 * differ between runtimes. */
#ifndef LF_OCAML_RUNTIME_H
#define LF_OCAML_RUNTIME_H

#define AGENT_OCAML_MAJOR 4
/* The first line of a struct caml_loc_info. */
#define AGENT_LOC_LINE(li) ((li).loc_lnum)
#define AGENT_LOC_COLUMN(li) ((li).loc_startchr)

#endif

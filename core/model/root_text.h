#ifndef LF_ROOT_TEXT_H
#define LF_ROOT_TEXT_H
#include "snapshot.h"
#include <stddef.h>

/* "static field X.y": root `root`'s kind and name, as every screen shows a
 * root, into buf (always terminated); a name that already starts with its
 * kind (OCaml's "finaliser 12") is not prefixed twice. Returns the length
 * written. */
size_t lf_root_text(const lf_snapshot *s, uint32_t root, char *buf, size_t size);
/* The same of a kind and a name given as they are (a V8 root row's name is
 * its edge's label). */
size_t lf_root_kind_name_text(lf_str kind, lf_str name, char *buf, size_t size);

#endif

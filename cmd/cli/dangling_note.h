/* dangling_note.h - says where a dump's references to missing objects come from. */
#ifndef LF_DANGLING_NOTE_H
#define LF_DANGLING_NOTE_H

#include <stddef.h>

#include "../../core/model/snapshot.h"

/* "828 from java.lang.Object[] 0x7ffb72730 (JNI global)": the object that
 * holds the most dangling references, its class and the roots naming it.
 * Returns the length written (0: no holder known). */
size_t dangling_holder_text(const lf_snapshot *s, char *buf, size_t size);

/* Whether every dangling reference is of the kind the VM always writes and
 * no root dangles: worth a note, not a warning. */
int dangling_all_expected(const lf_snapshot *s);

#endif

/* name_cut.h - a long name cut to a width where it does not tell rows apart
 * (DESIGN 15 of the contract): class names lose their packages' letters
 * from the left before anything of the simple name, paths lose their middle
 * steps before their root or their last step. Widths are display columns:
 * one per UTF-8 character; the ellipsis is U+2026, one column. */
#ifndef LF_NAME_CUT_H
#define LF_NAME_CUT_H

#include <stddef.h>

typedef enum lf_cut_style {
    /* Free text: its first characters and an ellipsis. */
    LF_CUT_END = 0,
    /* A class name: its packages shortened to their initials, leftmost
     * first (java.util.concurrent.ConcurrentHashMap$Node ->
     * j.u.c.ConcurrentHashMap$Node); when even that is too long, the
     * name's end with an ellipsis before it (…session.SessionData). A
     * generic (.NET's) first loses its arguments' packages, then its own,
     * then its arguments after the first, then all of them
     * (Dictionary<Int32,…>, Dictionary<…>), before its end is cut. A
     * leading "class " (a class object) stays. */
    LF_CUT_CLASS,
    /* A path of steps "a (C) / b (D) / c (E)" (a holder, a path from a
     * root; a " / " inside parentheses that pair up is part of a class,
     * V8's "[] (system / Context)"): class names in it shortened as above, then the classes of the
     * middle steps left out, then middle steps (… in their place), the
     * first and the last kept; then, of a path of several steps, the first
     * step's kind ("static field", "thread": Registry.INSTANCE / … /
     * elementData), then the first step (… / elementData); of one step,
     * its kind and the end of the rest (static field …Tracker.ACTIVE). */
    LF_CUT_PATH,
    /* An allocation site, frames "function (file:line:column)" joined by
     * " < " (site_cut.h): the files' directories go first
     * (makeLeak (…/alloc_sites.js:26:18)), then the columns, then the outer
     * frames, then the file ("(…:22)"); then its end. */
    LF_CUT_SITE,
} lf_cut_style;

/* Display columns of text (len bytes of UTF-8). */
size_t lf_text_width(const char *text, size_t len);

/* text (len bytes) cut as style says to at most width columns, into out
 * (size bytes, terminated): the bytes written. *shown (may be NULL) gets
 * the columns they take. A text that fits is copied as it is. */
size_t lf_name_cut(const char *text, size_t len, size_t width, lf_cut_style style, char *out, size_t size,
                   size_t *shown);

#endif

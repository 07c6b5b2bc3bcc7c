/* inspect_rows.h - the rows of `inspect`: one object's values, as the
 * format of its snapshot has them (JVM fields, V8 properties, plain edges).
 *
 * Every row has the same columns (inspect_columns) so that TSV has one
 * header and JSON Lines one shape; `section` says what a row is. */
#ifndef LF_INSPECT_ROWS_H
#define LF_INSPECT_ROWS_H

#include "../../core/model/snapshot.h"
#include "../cli/output.h"
#include "../cli/string_preview.h"

#define INSPECT_COLUMNS 10
extern const out_column inspect_columns[INSPECT_COLUMNS];

typedef struct inspect_ctx {
    out_writer *w;
    const lf_snapshot *s;
    uint64_t max_string;     /* characters of a text shown */
    uint64_t elements;       /* elements (and referrers) shown; UINT64_MAX: all */
    char *text;              /* room for max_string characters as UTF-8 */
    size_t text_cap;
    char *cell;              /* room for that text escaped (cli_escape_text) */
    size_t cell_cap;
} inspect_ctx;

/* The first cells of a row: section, index (UINT64_MAX: none), name, kind
 * (NULL: none), value (NULL: none). */
void inspect_cells(const inspect_ctx *c, const char *section, uint64_t index, const char *name, size_t name_len,
                   const char *kind, const char *value, size_t value_len);
/* The last cells: id, class, shallow, retained of node (LF_NODE_NONE: nulls). */
void inspect_object(const inspect_ctx *c, uint32_t node);
/* A row of section "note" with text. */
void inspect_note(const inspect_ctx *c, const char *text);

/* The rows `inspect` begins with: the object (its kind and text) and its
 * dominator. 0, or -1 when out of memory. */
int inspect_header_rows(const inspect_ctx *c, uint32_t node);
/* Its values as its format has them, then a collection's entries. 0 or an
 * exit code after printing why. */
int inspect_value_rows(const inspect_ctx *c, uint32_t node, const char *path);

/* The value rows of node, by format. Each returns 0 or an exit code after
 * printing why. */
int inspect_hprof_values(const inspect_ctx *c, uint32_t node, const char *path);
int inspect_v8_values(const inspect_ctx *c, uint32_t node, const char *path);
int inspect_plain_edges(const inspect_ctx *c, uint32_t node);

/* The header's kind and value cells: a JVM record's kind and a String's or
 * char[]'s text; a V8 node's type and a string's or number's text. The
 * text goes to out (0 when none); *kind is NULL when not known. */
size_t inspect_hprof_text(const inspect_ctx *c, uint32_t node, char *out, size_t size, const char **kind);
size_t inspect_v8_text(const inspect_ctx *c, uint32_t node, char *out, size_t size, const char **kind);

/* A map key or value as text: a String's text, a boxed primitive's value
 * (Long, Integer...); 0 when node is neither. */
size_t inspect_hprof_key_text(const inspect_ctx *c, uint32_t node, char *out, size_t size);
/* A JVM map's or set's entries (issue 32): size, capacity, fill ratio, then
 * one row per entry, key -> value. Nothing when node is no map or set the
 * rows know. Returns 0 or an exit code after printing why. */
int inspect_collection(const inspect_ctx *c, uint32_t node);
/* The same for a V8 Map, Set, WeakMap or WeakSet: size, then its entries in
 * insertion order (key -> value, or a Set's members). */
int inspect_v8_collection(const inspect_ctx *c, uint32_t node);
/* The same for a .NET Dictionary or HashSet (or its entry array): size and
 * its entries, key -> value. */
int inspect_dotnet_collection(const inspect_ctx *c, uint32_t node);

#endif

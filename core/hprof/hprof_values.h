/* hprof_values.h - one object's values, read from the mapped JVM dump.
 *
 * The reader keeps only references; `inspect` wants every field. A node's
 * sub-record is found where the lazy decoder finds it (hprof_lazy.h) and its
 * field bytes are decoded against its class's layout, the class's own
 * fields first, then its superclass's, as HotSpot writes them. Nothing is
 * kept: each call reads the dump again, bounds-checked, so a damaged record
 * is an error with its offset, not a crash. */
#ifndef LF_HPROF_VALUES_H
#define LF_HPROF_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "../base/error.h"
#include "../model/snapshot.h"

struct hprof_lazy;

typedef enum lf_jkind { LF_J_INSTANCE, LF_J_CLASS, LF_J_OBJ_ARRAY, LF_J_PRIM_ARRAY } lf_jkind;

/* A value: its HPROF basic type (hprof_format.h: 2 object, 4 boolean, 5 char,
 * 6 float, 7 double, 8 byte, 9 short, 10 int, 11 long) and its bytes read
 * big-endian; a reference's bits are the object id, 0 for null. */
typedef struct lf_jvalue {
    uint8_t type;
    uint64_t bits;
} lf_jvalue;

typedef struct lf_jobject {
    lf_jkind kind;
    uint64_t id;
    uint64_t record_at;      /* offset of the sub-record's tag */
    uint32_t klass;          /* class index (snapshot class space): the instance's,
                                the dumped class's, the array's; UINT32_MAX unknown */
    uint8_t elem_type;       /* arrays: the elements' basic type */
    uint64_t length;         /* arrays: elements */
    uint64_t data_at;        /* instance field bytes, or the first element */
    uint64_t data_len;
} lf_jobject;

typedef struct lf_jfield {
    uint64_t name_sid;       /* HPROF string id of the name: lf_hprof_names */
    uint32_t declared_in;    /* class index */
    uint64_t at;             /* offset of the value */
    lf_jvalue value;
} lf_jfield;

/* Walks the fields of an instance (its class, then each superclass) or the
 * static fields of a class object. */
typedef struct lf_jfield_walk {
    const struct hprof_lazy *l;
    int statics;
    int layout;              /* offsets only, no values (lf_jfields_layout) */
    uint32_t klass, hops;
    uint32_t left;           /* fields of klass still to read */
    uint64_t desc_at;        /* next field descriptor */
    uint64_t value_at, value_end;
} lf_jfield_walk;

/* The JVM reader's decoder when s was read from an HPROF dump that is still
 * mapped (not a cached analysis or a converted file); else NULL. */
const struct hprof_lazy *lf_hprof_lazy(const lf_snapshot *s);

/* Reads node's sub-record header. Returns 0 or -1 with err set. */
int lf_jobject_read(const struct hprof_lazy *l, uint32_t node, lf_jobject *o, lf_error *err);
/* Starts a walk of o's instance fields, or (statics) of the static fields of
 * the class o is the mirror of. */
void lf_jfields_start(lf_jfield_walk *w, const struct hprof_lazy *l, const lf_jobject *o, int statics);
/* The next field: 1, 0 at the end, -1 with err set on a damaged record. */
int lf_jfields_next(lf_jfield_walk *w, lf_jfield *f, lf_error *err);
/* The superclass of class klass (class space), UINT32_MAX for none. */
uint32_t lf_jclass_super(const struct hprof_lazy *l, uint32_t klass);
/* Starts a walk of the instance field layout of class klass (its fields,
 * then each superclass's) without an instance: each field's `at` is its
 * offset in an instance's field bytes and its value is not read. */
void lf_jfields_layout(lf_jfield_walk *w, const struct hprof_lazy *l, uint32_t klass);
/* The value of type `type` at offset `at` of instance o's field bytes (as
 * a layout walk gives them): 0, or -1 with err when o's record is shorter. */
int lf_jfield_value(const struct hprof_lazy *l, const lf_jobject *o, uint64_t at, uint8_t type, lf_jvalue *v,
                    lf_error *err);
/* Element i (< o->length) of an array. */
lf_jvalue lf_jelement(const struct hprof_lazy *l, const lf_jobject *o, uint64_t i);

/* The names of HPROF string ids sid[0..n) into name[0..n) (ptr NULL when the
 * dump has no such string), in one walk over the dump's top-level records.
 * Returns 0 or -1 with err set (memory, a damaged record header). */
int lf_hprof_names(const struct hprof_lazy *l, const uint64_t *sid, size_t n, lf_str *name, lf_error *err);

/* An HPROF string id and which of the asked-for texts it holds. */
typedef struct lf_hprof_sid {
    uint64_t sid;
    uint32_t name;           /* index into the caller's names */
} lf_hprof_sid;
/* Every HPROF string whose text is one of names[0..n): into *out (the
 * caller frees it), sorted by sid, *count of them, in one walk over the
 * dump's top-level records. Returns 0 or -1 with err set. */
int lf_hprof_find_strings(const struct hprof_lazy *l, const lf_str *names, size_t n, lf_hprof_sid **out,
                          size_t *count, lf_error *err);

/* Text, as UTF-8, of a char[] or byte[] array or a java.lang.String (its
 * value array and, JDK 9+, its coder: 0 LATIN1, 1 UTF16 in the dumping
 * machine's byte order, taken as little-endian). */
typedef struct lf_jtext {
    char *buf;               /* the caller's */
    size_t cap;              /* bytes, >= 4 * max_chars + 1 */
    size_t len;              /* bytes written, NUL-terminated */
    uint64_t chars;          /* characters the whole text has */
    uint64_t shown;          /* of them in buf */
} lf_jtext;
/* Fills t with at most max_chars characters of node's text. Returns 1 when
 * node is text (a String, char[] or byte[]), 0 when it is not, -1 with err
 * set on a damaged record. */
int lf_jtext_read(const struct hprof_lazy *l, const lf_snapshot *s, uint32_t node, uint64_t max_chars,
                  lf_jtext *t, lf_error *err);

/* Decodes UTF-16 code units (big_endian or not) or Latin-1 bytes to UTF-8,
 * at most max_chars characters; exposed for tests. */
void lf_jtext_utf16(const uint8_t *p, uint64_t units, int big_endian, uint64_t max_chars, lf_jtext *t);
void lf_jtext_latin1(const uint8_t *p, uint64_t bytes, uint64_t max_chars, lf_jtext *t);

#endif

/* query_classes.c - the classes a query's from list chooses: the classes
 * each name means, with their subclasses for instanceof, and for an
 * interface the JDK classes that implement it (query_interfaces.c), since
 * a heap dump records superclasses only. A name whose answer could only be
 * empty for that reason (an interface the table does not know, an interface
 * without instanceof) is an error that says what to write instead; a class
 * with no objects of its own but with subclasses that have some, a note. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../hprof/hprof_values.h"
#include "query_ast.h"

/* into[k] = 1 for every class k that is in seed or (subclasses) has an
 * ancestor in seed. */
static void close_under_subclasses(const lf_snapshot *s, const struct hprof_lazy *l, const uint8_t *seed,
                                   int subclasses, uint8_t *into)
{
    for (uint32_t k = 0; k < s->class_count; k++) {
        uint32_t up = k;
        for (uint32_t hops = 0; up != UINT32_MAX && hops <= s->class_count; hops++) {
            if (seed[up]) {
                into[k] = 1;
                break;
            }
            up = subclasses ? lf_jclass_super(l, up) : UINT32_MAX;
        }
    }
}

static int needs_hierarchy(const lf_query *q, const lf_snapshot *s, size_t c, lf_error *err)
{
    if (q->cls[c].subclasses && !lf_hprof_lazy(s))
        return q_fail(err, q->cls[c].pos, "instanceof needs the class hierarchy, which only a JVM dump read "
                      "as it is keeps (not a V8, .NET or OCaml snapshot, a cache or an .lfs)");
    return 0;
}

/* Whether every class name c matched is an interface of the JDK table:
 * no object is of one, so no object is owned by one. */
static int only_interfaces(const lf_query *q, const lf_snapshot *s, size_t c)
{
    int matched = 0;
    for (uint32_t k = 0; k < s->class_count; k++) {
        if (!q->cls_match[c][k])
            continue;
        lf_str name = lf_snapshot_class_name(s, k);
        if (!lf_query_known_interface(name.ptr, name.len))
            return 0;
        matched = 1;
    }
    return matched;
}

int q_class_set(lf_query *q, const lf_snapshot *s, size_t c, uint8_t *into, lf_error *err)
{
    if (!q->cls_match[c])
        return q_fail(err, q->cls[c].pos, "internal: class name not resolved");
    if (needs_hierarchy(q, s, c, err))
        return -1;
    if (only_interfaces(q, s, c))
        return q_fail(err, q->cls[c].pos, "'%.*s' is an interface: no object is of it alone, so none owns "
                      "another; write: owned_by(A), A a class that implements it", (int)q->cls[c].len,
                      q->cls[c].pattern);
    close_under_subclasses(s, lf_hprof_lazy(s), q->cls_match[c], q->cls[c].subclasses, into);
    return 0;
}

/* Marks in seed the classes of s named by the table's implementors of the
 * interface `name`. Returns whether the table knows the interface. */
static int seed_implementors(const lf_snapshot *s, lf_str name, uint8_t *seed)
{
    enum { MAX_ROWS = 64 };
    const char *impl[MAX_ROWS];
    size_t n = q_jdk_implementors(name.ptr, name.len, impl, MAX_ROWS);
    for (uint32_t k = 0; k < s->class_count && n; k++) {
        lf_str kn = lf_snapshot_class_name(s, k);
        for (size_t r = 0; r < n; r++)
            if (strlen(impl[r]) == kn.len && memcmp(impl[r], kn.ptr, kn.len) == 0)
                seed[k] = 1;
    }
    return n > 0;
}

/* What one from name chooses, and what is known of it for the checks. */
typedef struct from_name {
    uint8_t *seed;            /* class -> its match, and the implementors of the interfaces it names */
    uint8_t *chosen;          /* seed, with subclasses for instanceof */
    int via_table;            /* instanceof took implementors from the JDK table */
    int only_interfaces;      /* every class it matched is an interface the table knows */
    int own_objects;          /* a class it matched has objects */
    int subclass_objects;     /* a subclass of one it matched has objects */
    int has_subclasses;       /* a class it matched has a subclass in the dump */
} from_name;

/* The seed of name c: its match, and (instanceof) for each interface of
 * the table it matches, or it is, when the dump lacks it, the JDK's
 * implementors. */
static void name_seed(const lf_query *q, const lf_snapshot *s, size_t c, const uint8_t *has_objects, from_name *f)
{
    const uint8_t *match = q->cls_match[c];
    int matched = 0, interfaces = 0;
    for (uint32_t k = 0; k < s->class_count; k++) {
        if (!match[k])
            continue;
        lf_str name = lf_snapshot_class_name(s, k);
        int known = lf_query_known_interface(name.ptr, name.len);
        f->seed[k] = 1;
        matched++;
        interfaces += known;
        f->own_objects |= has_objects[k];
        if (q->cls[c].subclasses && known)
            f->via_table |= seed_implementors(s, name, f->seed);
    }
    lf_str written = {q->cls[c].pattern, q->cls[c].len};
    if (!matched && q->cls[c].subclasses) /* an interface no class of the dump loaded */
        f->via_table |= seed_implementors(s, written, f->seed);
    f->only_interfaces = matched > 0 && interfaces == matched;
}

static int study_name(const lf_query *q, const lf_snapshot *s, size_t c, const uint8_t *has_objects, from_name *f)
{
    const struct hprof_lazy *l = lf_hprof_lazy(s);
    size_t classes = (size_t)s->class_count + 1;
    if (!(f->seed = calloc(classes, 1)) || !(f->chosen = calloc(classes, 1)))
        return -1;
    name_seed(q, s, c, has_objects, f);
    close_under_subclasses(s, l, f->seed, q->cls[c].subclasses, f->chosen);
    if (!l)
        return 0;
    uint8_t *below = calloc(classes, 1); /* the matched classes with all their subclasses */
    if (!below)
        return -1;
    close_under_subclasses(s, l, q->cls_match[c], 1, below);
    for (uint32_t k = 0; k < s->class_count; k++)
        if (below[k] && !q->cls_match[c][k]) {
            f->has_subclasses = 1;
            f->subclass_objects |= has_objects[k];
        }
    free(below);
    return 0;
}

static void add_note(lf_query *q, const char *fmt, const lf_qclass *c)
{
    if (q->note_count < Q_MAX_NOTES)
        snprintf(q->note[q->note_count++], sizeof q->note[0], fmt, (int)c->len, c->pattern, (int)c->len,
                 c->pattern);
}

/* The simple part of a written name, for the glob a message proposes. */
static lf_str simple_part(const lf_qclass *c)
{
    size_t at = c->len;
    while (at > 0 && c->pattern[at - 1] != '.' && c->pattern[at - 1] != '$')
        at--;
    return (lf_str){c->pattern + at, c->len - at};
}

/* An empty answer that only the dump's lack of interfaces would give is an
 * error; the notes say what was assumed or what was likely meant. */
static int check_name(lf_query *q, size_t c, const from_name *f, lf_error *err)
{
    const lf_qclass *cls = &q->cls[c];
    if (cls->subclasses && !f->via_table && !f->own_objects && !f->has_subclasses) {
        lf_str simple = simple_part(cls);
        q_fail(err, cls->pos, "'%.*s' has no objects and no subclasses, and a heap dump does not record "
               "interfaces;", (int)cls->len, cls->pattern);
        snprintf(err->detail, sizeof err->detail, "write: from instanceof A, B (the classes that implement it) "
                 "or from *%.*s", (int)simple.len, simple.ptr);
        return -1;
    }
    if (!cls->subclasses && f->only_interfaces && !f->own_objects)
        return q_fail(err, cls->pos, "'%.*s' is an interface: objects are of the classes that implement it; "
                      "write: from instanceof %.*s",
                      (int)cls->len, cls->pattern, (int)cls->len, cls->pattern);
    if (f->via_table)
        add_note(q, "instanceof %.*s takes the JDK classes known to implement it and their subclasses: a heap "
                 "dump does not record interfaces, and a class that implements %.*s itself is not taken", cls);
    else if (!cls->subclasses && !f->own_objects && f->subclass_objects)
        add_note(q, "'%.*s' has no objects of its own, its subclasses have some: write 'from instanceof %.*s' "
                 "for them", cls);
    return 0;
}

static int choose_one(lf_query *q, const lf_snapshot *s, size_t c, const uint8_t *has_objects, from_name *f,
                      lf_error *err)
{
    if (!q->cls_match[c])
        return q_fail(err, q->cls[c].pos, "internal: class name not resolved");
    if (needs_hierarchy(q, s, c, err))
        return -1;
    if (study_name(q, s, c, has_objects, f))
        return lf_fail_nomem(err, "choosing classes");
    return check_name(q, c, f, err);
}

/* class -> 1 when some object is of it. */
static uint8_t *classes_with_objects(const lf_snapshot *s)
{
    uint8_t *has = calloc((size_t)s->class_count + 1, 1);
    for (uint32_t v = 0; has && v < s->object_count; v++)
        if (s->object_class[v] < s->class_count)
            has[s->object_class[v]] = 1;
    return has;
}

/* from objects ID, ...: the objects with those ids, an error at an id no
 * object has. */
static int from_objects(lf_query *q, const lf_snapshot *s, lf_error *err)
{
    /* from_match: their classes, what the fields they are asked for are
     * checked against (query_names.c); the pass takes the objects alone */
    if (!(q->from_nodes = lf_big_calloc(s->object_count / 8 + 1, 1)) ||
        !(q->from_match = calloc((size_t)s->class_count + 1, 1)))
        return lf_fail_nomem(err, "choosing objects");
    for (size_t i = 0; i < q->from_id_count; i++) {
        uint32_t v = lf_snapshot_find_id(s, q->from_id[i]);
        if (v == LF_NODE_NONE || v >= s->object_count)
            return q_fail(err, q->from_id_pos[i], "no object has the id %.*s in this snapshot",
                          (int)(strcspn(q->text + q->from_id_pos[i], " ,\t\n")), q->text + q->from_id_pos[i]);
        q_bit_set(q->from_nodes, v);
        q->from_match[s->object_class[v]] = 1;
    }
    return 0;
}

int q_from_classes(lf_query *q, const lf_snapshot *s, lf_error *err)
{
    if (q->from_id_count)
        return from_objects(q, s, err);
    if (q->from_count == 0)
        return 0;
    uint8_t *has_objects = classes_with_objects(s);
    if (!has_objects || !(q->from_match = calloc((size_t)s->class_count + 1, 1))) {
        free(has_objects);
        return lf_fail_nomem(err, "choosing classes");
    }
    int rc = 0;
    for (size_t c = 0; c < q->from_count && rc == 0; c++) {
        from_name f = {0};
        rc = choose_one(q, s, c, has_objects, &f, err);
        for (uint32_t k = 0; rc == 0 && k < s->class_count; k++)
            q->from_match[k] |= f.chosen[k];
        free(f.seed);
        free(f.chosen);
    }
    free(has_objects);
    return rc;
}

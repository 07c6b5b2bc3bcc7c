/* query_names.c - every field a query names must be one the objects it
 * reads can have: an unknown field is an error with the closest names,
 * never a column of nulls or a count of 0 (DESIGN 15). Checked before the
 * pass:
 *  - a path's first step against the classes the from list chooses, an
 *    error only when none of them has it (`from *` chooses every class);
 *  - a later step (the name of owner.name) against every class of the
 *    snapshot: which classes the step before reaches is known only in the
 *    pass, and a name no class has can never be found.
 * A JVM dump read as it is answers from its classes' field layouts and the
 * class objects' static fields. Elsewhere (V8, an .lfs, OCaml) a field is
 * a reference labelled with its name, so some object must hold one: the
 * scan stops at the first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/suggest.h"
#include "../base/vec.h"
#include "../hprof/hprof_values.h"
#include "query_ast.h"

enum { LISTED = 8, NEAR_MAX = 64 };

/* One object's references' kinds and labels (the buffer kept between
 * objects). */
typedef struct edge_labels {
    uint8_t *kind;
    uint32_t *label;
    uint64_t count, cap;
} edge_labels;

/* The names an error offers: the closest to the one wanted, and the first
 * few the objects have. */
typedef struct name_offers {
    lf_str want;
    size_t max;                  /* the farthest a suggestion may be */
    suggest_best best;           /* indexes into near */
    lf_str near[NEAR_MAX];
    size_t near_count;
    lf_str listed[LISTED];
    size_t listed_count;
    int more;                    /* names past the listed ones */
    int numbered;                /* an object had elements: [0], [1], ... */
} name_offers;

static void offer(name_offers *o, lf_str name);
static int unknown_field(const lf_query *q, const lf_snapshot *s, const q_seg *seg, int first, lf_error *err);

/* The objects a path's first step reads: the ones the query may choose. */
static int first_reads(const lf_query *q, const lf_snapshot *s, uint32_t v)
{
    if (q->from_nodes)
        return q_bit(q->from_nodes, v);
    return (!q->live || q_bit(q->live, v)) && (!q->from_match || q->from_match[s->object_class[v]]);
}

static uint32_t class_named(const lf_snapshot *s, const char *name)
{
    for (uint32_t k = 0; k < s->class_count; k++) {
        lf_str n = lf_snapshot_class_name(s, k);
        if (n.len == strlen(name) && memcmp(n.ptr, name, n.len) == 0)
            return k;
    }
    return UINT32_MAX;
}

/* JVM: some class chosen (first) or any has field f, as an instance field
 * or, for class objects, a static one. 1, 0, -1 with err. */
static int jvm_has(const lf_query *q, const lf_snapshot *s, uint32_t f, int first, lf_error *err)
{
    const uint8_t *chosen = first ? q->from_match : NULL;
    for (uint32_t k = 0; k < s->class_count; k++) {
        int has = !chosen || chosen[k] ? q_jvm_instance_field(q, k, f, err) : 0;
        if (has)
            return has;
    }
    uint32_t class_class = class_named(s, "java.lang.Class");
    if (class_class == UINT32_MAX || (chosen && !chosen[class_class]))
        return 0;
    for (uint32_t v = 0; v < s->object_count; v++) {
        int has = s->object_class[v] == class_class ? q_jvm_static_field(q, v, f, err) : 0;
        if (has)
            return has;
    }
    return 0;
}

/* Reads v's labels into l: 0, or -1 out of memory. */
static int read_labels(edge_labels *l, const lf_snapshot *s, uint32_t v)
{
    uint64_t n = lf_snapshot_edges_end(s, v) - lf_snapshot_edges_begin(s, v);
    if (n > l->cap) {
        lf_big_free(l->kind);
        lf_big_free(l->label);
        l->kind = lf_big_malloc(n);
        l->label = lf_big_malloc(n * sizeof *l->label);
        l->cap = l->kind && l->label ? n : 0;
        if (!l->cap)
            return -1;
    }
    if (n)
        lf_snapshot_node_edge_infos(s, v, l->kind, l->label);
    l->count = n;
    return 0;
}

static void free_labels(edge_labels *l)
{
    lf_big_free(l->kind);
    lf_big_free(l->label);
}

static int same_text(lf_str a, lf_str b)
{
    return a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0;
}

/* Labelled references: whether an object the step reads holds a reference
 * labelled name; each label met goes to offers when given (the error's
 * names: then the scan goes on to the end). 1, 0, -1 out of memory. */
static int labelled_has(const lf_query *q, const lf_snapshot *s, lf_str name, int first, name_offers *offers)
{
    edge_labels l = {0};
    int found = 0;
    for (uint32_t v = 0; v < s->object_count && (!found || offers); v++) {
        if (first && !first_reads(q, s, v))
            continue;
        if (read_labels(&l, s, v)) {
            free_labels(&l);
            return -1;
        }
        for (uint64_t e = 0; e < l.count; e++) {
            if (offers && l.kind[e] == LF_EDGE_KIND_ELEMENT)
                offers->numbered = 1;
            if (l.kind[e] != LF_EDGE_KIND_FIELD)
                continue;
            lf_str label = lf_snapshot_string(s, l.label[e]);
            found |= same_text(label, name);
            if (offers)
                offer(offers, label);
        }
    }
    free_labels(&l);
    return found;
}

/* Whether some string of s is name: a label no string spells is on no
 * reference, and this is quicker than a look at every reference. */
static int spelled(const lf_snapshot *s, lf_str name)
{
    for (uint32_t i = 0; i < s->string_count; i++)
        if (same_text(lf_snapshot_string(s, i), name))
            return 1;
    return 0;
}

static lf_str field_name(const lf_query *q, uint32_t f)
{
    return (lf_str){q->text + q->field[f].at, q->field[f].len};
}

/* 1 when the objects the step reads can have field f, 0 when not, -1
 * with err. */
static int field_known(const lf_query *q, const lf_snapshot *s, uint32_t f, int first, lf_error *err)
{
    if (lf_hprof_lazy(s))
        return jvm_has(q, s, f, first, err);
    lf_str name = field_name(q, f);
    int has = !first && !spelled(s, name) ? 0 : labelled_has(q, s, name, first, NULL);
    return has < 0 ? lf_fail_nomem(err, "checking the query's fields") : has;
}

/* A step after an @attribute whose value is no object. */
static int ends_path(uint8_t attr)
{
    return attr == QT_CLASS || attr == QT_SHALLOW || attr == QT_RETAINED || attr == QT_LENGTH || attr == QT_TEXT ||
           attr == QT_ROOT;
}

/* Checks the steps of path node x; done[2 f + first] marks the fields
 * already known. */
static int check_path(const lf_query *q, const lf_snapshot *s, const q_node *x, uint8_t *done, lf_error *err)
{
    for (uint32_t k = 0; k < x->len; k++) {
        const q_seg *seg = &q->seg[x->at + k];
        if (k > 0 && ends_path(q->seg[x->at + k - 1].attr)) {
            const q_seg *prev = &q->seg[x->at + k - 1];
            return q_fail(err, seg->pos, "'%.*s' is no object: nothing can follow it", (int)(seg->pos - prev->pos - 1),
                          q->text + prev->pos);
        }
        if (seg->attr != QT_FIELD)
            continue;
        int first = k == 0;
        uint8_t *mark = &done[2 * (size_t)seg->field + (size_t)first];
        if (*mark)
            continue;
        int known = field_known(q, s, seg->field, first, err);
        if (known < 0)
            return -1;
        if (!known)
            return unknown_field(q, s, seg, first, err);
        *mark = 1;
    }
    return 0;
}

/* @class = 'NAME' (or !=, like 'GLOB') where no class of the snapshot is
 * so named: the comparison would hold for no object (or for every one). */
static int check_class_literal(const lf_query *q, const lf_snapshot *s, const q_node *x, lf_error *err)
{
    if (x->kind != QN_CMP || (x->op != QC_EQ && x->op != QC_NE && x->op != QC_LIKE))
        return 0;
    const q_node *a = &q->node[x->a], *b = &q->node[x->b];
    if (a->kind == QN_STR) {
        const q_node *t = a;
        a = b, b = t;
    }
    if (a->kind != QN_PATH || b->kind != QN_STR || q->seg[a->at + a->len - 1].attr != QT_CLASS)
        return 0;
    const char *want = q->lit + b->at;
    suggest_best best = {0};
    size_t max = suggest_max_distance(b->len);
    for (uint32_t k = 0; k < s->class_count; k++) {
        lf_str n = lf_snapshot_class_name(s, k);
        if (x->op == QC_LIKE ? q_glob(want, b->len, n.ptr, n.len) : same_text(n, (lf_str){want, b->len}))
            return 0;
        size_t d = suggest_distance(want, b->len, n.ptr, n.len, max);
        if (d <= max && (best.count == 0 || !same_text(lf_snapshot_class_name(s, (uint32_t)best.name[0]), n)))
            suggest_offer(&best, k, d);
    }
    lf_str near = best.count ? lf_snapshot_class_name(s, (uint32_t)best.name[0]) : (lf_str){"", 0};
    return q_fail(err, b->pos, "no class %s '%.*s' in this snapshot%s%.*s%s",
                  x->op == QC_LIKE ? "matches" : "is named", (int)b->len, want, near.len ? " (did you mean '" : "",
                  (int)near.len, near.ptr, near.len ? "'?)" : "");
}

/* Checks the paths below node n that the pass evaluates. Recursion is
 * over the query's expression, which the parser caps. */
static int check_below(const lf_query *q, const lf_snapshot *s, int32_t n, uint8_t *done, lf_error *err)
{
    if (n < 0)
        return 0;
    const q_node *x = &q->node[n];
    if (x->kind == QN_PATH)
        return check_path(q, s, x, done, err);
    if (x->kind == QN_CALL) /* its argument is a root kind or a class name */
        return 0;
    if (check_class_literal(q, s, x, err))
        return -1;
    return check_below(q, s, x->a, done, err) || check_below(q, s, x->b, done, err) ? -1 : 0;
}

/* An alias that is also a field of the objects: `from Session state`
 * would read state as the object where the field was meant. */
static int check_alias(const lf_query *q, const lf_snapshot *s, lf_error *err)
{
    int used = 0;
    for (size_t k = 0; k < q->seg_count; k++)
        used |= q->seg[k].attr == QT_SELF;
    for (uint32_t f = 0; used && f < q->field_count; f++) {
        if (q->field[f].len != q->alias_len || memcmp(q->text + q->field[f].at, q->text + q->alias_at, q->alias_len))
            continue;
        int known = field_known(q, s, f, 1, err);
        if (known)
            return known < 0 ? -1 : q_fail(err, q->alias_at, "'%.*s' names the objects and is also a field of "
                                           "theirs: give the objects another name", (int)q->alias_len,
                                           q->text + q->alias_at);
    }
    return 0;
}

int q_check_field_names(lf_query *q, const lf_snapshot *s, lf_error *err)
{
    uint8_t *done = calloc(2 * q->field_count + 1, 1);
    if (!done)
        return lf_fail_nomem(err, "checking the query's fields");
    int rc = check_alias(q, s, err) ? -1 : check_below(q, s, q->where, done, err);
    for (size_t i = 0; i < q->item_count && rc == 0; i++)
        rc = check_below(q, s, q->item[i].expr, done, err);
    for (size_t g = 0; g < q->group_count && rc == 0; g++)
        rc = check_below(q, s, q->group[g], done, err);
    /* an aggregate query orders by a column it names (order_item): its
     * order node is a name, not a value the pass reads */
    if (rc == 0 && !q->aggregate)
        rc = check_below(q, s, q->order, done, err);
    free(done);
    return rc;
}

/* --- the error: the names the objects have, the closest first ----------- */

static void offer(name_offers *o, lf_str name)
{
    size_t d = suggest_distance(o->want.ptr, o->want.len, name.ptr, name.len, o->max);
    if (d <= o->max) {
        int seen = 0;
        for (size_t k = 0; k < o->best.count; k++)
            seen |= same_text(o->near[o->best.name[k]], name);
        if (!seen && o->near_count < NEAR_MAX) {
            o->near[o->near_count] = name;
            suggest_offer(&o->best, o->near_count++, d);
        }
    }
    int listed = 0;
    for (size_t k = 0; k < o->listed_count; k++)
        listed |= same_text(o->listed[k], name);
    if (!listed && o->listed_count < LISTED)
        o->listed[o->listed_count++] = name;
    else if (!listed)
        o->more = 1;
}

/* An @attribute written without its @ (length: @length). */
static void offer_attributes(name_offers *o)
{
    size_t max = suggest_max_distance(o->want.len); /* not farther: role is no @root */
    static const char *const attrs[] = {"@id", "@class", "@shallow", "@retained", "@length", "@text", "@root",
                                        "@owner"};
    for (size_t a = 0; a < sizeof attrs / sizeof attrs[0]; a++) {
        size_t d = suggest_distance(o->want.ptr, o->want.len, attrs[a] + 1, strlen(attrs[a]) - 1, max);
        if (d <= max && o->near_count < NEAR_MAX) {
            o->near[o->near_count] = (lf_str){attrs[a], strlen(attrs[a])};
            suggest_offer(&o->best, o->near_count++, d);
        }
    }
}

/* The name ids of the fields a walk gives, onto sid[0 .. *n). */
static int walk_sids(lf_jfield_walk *w, uint64_t **sid, size_t *n, size_t *cap, lf_error *err)
{
    lf_jfield field;
    int got;
    while ((got = lf_jfields_next(w, &field, err)) == 1)
        if (lf_vec_reserve((void **)sid, cap, *n + 1, sizeof **sid) == 0)
            (*sid)[(*n)++] = field.name_sid;
    return got;
}

/* The field names of the JVM classes the step reads (and the static ones
 * of class objects, when it reads those), offered. */
static int jvm_offers(const lf_query *q, const lf_snapshot *s, int first, name_offers *o, lf_error *err)
{
    const struct hprof_lazy *l = lf_hprof_lazy(s);
    const uint8_t *chosen = first ? q->from_match : NULL;
    uint32_t class_class = class_named(s, "java.lang.Class");
    int statics = class_class != UINT32_MAX && (!chosen || chosen[class_class]);
    uint64_t *sid = NULL;
    size_t n = 0, cap = 0;
    lf_jfield_walk w;
    lf_jobject obj;
    int got = 0;
    for (uint32_t k = 0; k < s->class_count && got >= 0; k++)
        if (!chosen || chosen[k]) {
            lf_jfields_layout(&w, l, k);
            got = walk_sids(&w, &sid, &n, &cap, err);
        }
    for (uint32_t v = 0; statics && v < s->object_count && got >= 0; v++)
        if (s->object_class[v] == class_class && (got = lf_jobject_read(l, v, &obj, err)) == 0 &&
            obj.kind == LF_J_CLASS) {
            lf_jfields_start(&w, l, &obj, 1);
            got = walk_sids(&w, &sid, &n, &cap, err);
        }
    lf_str *name = got >= 0 && n ? malloc(n * sizeof *name) : NULL;
    if (got >= 0 && n && (!name || lf_hprof_names(l, sid, n, name, err)))
        got = -1;
    for (size_t i = 0; got >= 0 && i < n; i++)
        if (name[i].ptr)
            offer(o, name[i]);
    lf_big_free(sid); /* lf_vec_reserve's: a file mapping when spilled */
    free(name);
    return got < 0 ? -1 : 0;
}

/* The one name the from classes share, if they share one. */
static int one_class(const lf_query *q, const lf_snapshot *s, lf_str *name)
{
    int found = 0;
    for (uint32_t k = 0; q->from_match && k < s->class_count; k++) {
        if (!q->from_match[k])
            continue;
        lf_str n = lf_snapshot_class_name(s, k);
        if (found && !same_text(n, *name))
            return 0;
        *name = n, found = 1;
    }
    return found;
}

/* What the format may have left out that would explain a missing name. */
static const char *format_hint(const lf_snapshot *s, const name_offers *o)
{
    if (o->listed_count == 0 && o->numbered)
        return "its fields have numbers, not names: [0], [1], ...";
    if (s->source_format == LF_FORMAT_HPROF && !lf_hprof_lazy(s))
        return "(a JVM dump converted or cached keeps only its references: query the .hprof for the rest)";
    if (s->source_format == LF_FORMAT_V8 && o->best.count == 0)
        return "(V8 writes a small integer as a property only with exposeNumericValues)";
    return "";
}

static void format_detail(const name_offers *o, int list, int one, const char *hint, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t k = 0; k < o->best.count && used < size; k++) {
        lf_str n = o->near[o->best.name[k]];
        used += (size_t)snprintf(buf + used, size - used, "%s'%.*s'%s", k ? ", " : "did you mean ", (int)n.len,
                                 n.ptr, k + 1 == o->best.count ? "?" : "");
    }
    static const char *const lead[2][2][2] = {{{"their fields: ", "its fields: "}, {"Their fields: ", "Its fields: "}},
                                              {{"they have no fields", "it has no fields"},
                                               {"They have no fields", "It has no fields"}}};
    if (list && used < size)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? " " : "",
                                 lead[o->listed_count == 0][used > 0][one]);
    for (size_t k = 0; list && k < o->listed_count && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "%s%.*s", k ? ", " : "", (int)o->listed[k].len,
                                 o->listed[k].ptr);
    if (list && o->more && used < size)
        used += (size_t)snprintf(buf + used, size - used, ", ...");
    if (used < size && hint[0])
        snprintf(buf + used, size - used, "%s%s", used ? " " : "", hint);
}

static int unknown_field(const lf_query *q, const lf_snapshot *s, const q_seg *seg, int first, lf_error *err)
{
    lf_str want = field_name(q, seg->field), cls = {0};
    name_offers *o = calloc(1, sizeof *o);
    if (!o)
        return lf_fail_nomem(err, "checking the query's fields");
    o->want = want;
    /* the classes chosen have few fields: the nearest is worth naming a
     * little farther off than among every name of the dump (_stat: state) */
    o->max = suggest_max_distance(want.len);
    if (first && q->from_match && o->max < 2)
        o->max = 2;
    offer_attributes(o);
    int rc = lf_hprof_lazy(s) ? jvm_offers(q, s, first, o, err) : labelled_has(q, s, want, first, o);
    if (rc < 0) {
        free(o);
        return lf_hprof_lazy(s) ? -1 : lf_fail_nomem(err, "checking the query's fields");
    }
    int one = first && one_class(q, s, &cls);
    if (one)
        q_fail(err, seg->pos, "no field '%.*s' in %.*s:", (int)want.len, want.ptr, (int)cls.len, cls.ptr);
    else if (first && q->from_match)
        q_fail(err, seg->pos, "no class chosen has a field '%.*s':", (int)want.len, want.ptr);
    else
        q_fail(err, seg->pos, "no class in this snapshot has a field '%.*s'%s", (int)want.len, want.ptr,
               o->best.count ? ":" : "");
    int list = first && q->from_match && !(o->listed_count == 0 && o->numbered);
    format_detail(o, list, one, format_hint(s, o), err->detail, sizeof err->detail);
    free(o);
    return -1;
}

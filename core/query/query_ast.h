/* query_ast.h - a parsed query, shared by the parser, the evaluator and
 * the run (internal to core/query). Nodes live in one array and name their
 * children by index, so a query is freed at once and copied by nobody. */
#ifndef LF_QUERY_AST_H
#define LF_QUERY_AST_H

#include "query.h"

typedef enum q_kind {
    QN_INT, QN_REAL, QN_STR, QN_NULL, QN_BOOL,
    QN_PATH,        /* seg[at .. at + len) */
    QN_CALL,        /* op: q_fn; a: the argument */
    QN_AGG,         /* op: q_agg; a: the argument, -1 for count() */
    QN_NOT, QN_AND, QN_OR,
    QN_CMP,         /* op: q_cmp */
    QN_IS_NULL,     /* a is null; op 1: is not null */
    QN_OBJECT,      /* select objects: a's object shown as its id, not as the value it stands for */
} q_kind;

typedef enum q_cmp { QC_EQ, QC_NE, QC_LT, QC_LE, QC_GT, QC_GE, QC_LIKE } q_cmp;
typedef enum q_agg { QA_COUNT, QA_SUM, QA_MIN, QA_MAX, QA_AVG } q_agg;
typedef enum q_fn { QF_REACHABLE, QF_OWNED_BY, QF_ROOTED } q_fn;
typedef enum q_attr {
    QT_FIELD, QT_ID, QT_CLASS, QT_SHALLOW, QT_RETAINED, QT_LENGTH, QT_TEXT, QT_ROOT, QT_OWNER,
    QT_ELEMENT,     /* [field]: element field of an array, OCaml field field */
    QT_SELF         /* from's alias: the object itself */
} q_attr;

typedef struct q_seg {
    uint8_t attr;        /* q_attr; QT_FIELD: a field named field */
    uint32_t field;      /* index into lf_query.field; QT_ELEMENT: the index */
    uint32_t pos;
} q_seg;

typedef struct q_node {
    uint8_t kind, op;
    uint32_t pos, end;   /* where it is written: text[pos .. end) */
    int32_t a, b;        /* children, -1 none */
    int64_t i;           /* QN_INT, QN_BOOL; QN_CALL: the class name or bitmap it uses */
    double d;
    uint32_t at, len;    /* QN_STR: lit[at ..]; QN_PATH: seg[at ..] */
} q_node;

typedef struct q_item {
    int32_t expr;
    uint32_t name_at, name_len;   /* in text (an alias or the item as written) */
    const char *name;             /* set for the columns of `*` */
    lf_qflavor flavor;
} q_item;

typedef struct q_text {
    uint32_t at, len;             /* in text */
} q_text;

enum { Q_MAX_ITEMS = 64, Q_MAX_GROUP = 8, Q_MAX_CLASSES = 64, Q_MAX_NOTES = 4 };

struct q_fields;

struct lf_query {
    char *text;
    size_t text_len;
    q_node *node;
    size_t node_count, node_cap;
    q_seg *seg;
    size_t seg_count, seg_cap;
    char *lit;
    size_t lit_len, lit_cap;
    q_text *field;                /* distinct field names read */
    size_t field_count, field_cap;

    q_item item[Q_MAX_ITEMS];
    size_t item_count;
    int aggregate;                /* some item is an aggregate: one row per group */
    lf_qclass cls[Q_MAX_CLASSES];
    uint8_t *cls_match[Q_MAX_CLASSES];
    size_t cls_count;
    size_t from_count;            /* cls[0 .. from_count) are the from list; 0: every object */
    uint64_t from_id[Q_MAX_CLASSES];      /* from objects ID, ...: the objects' ids */
    uint32_t from_id_pos[Q_MAX_CLASSES];
    size_t from_id_count;
    uint32_t alias_at, alias_len;         /* from CLASS ALIAS: in text; len 0: none */
    uint32_t distinct;                    /* select distinct: 1 + where the word is; 0: none */
    int objects;                          /* select objects */
    int32_t where;                /* -1: none */
    int32_t group[Q_MAX_GROUP];
    size_t group_count;
    int32_t order;                /* -1: none */
    int32_t order_item;           /* aggregate queries: the item order names */
    int order_desc;
    uint64_t limit;               /* UINT64_MAX: none */

    /* lf_query_prepare */
    const lf_snapshot *s;
    uint8_t *from_match;          /* class -> 1 when in the from list (NULL: all) */
    uint8_t *from_nodes;          /* node -> bit: the objects of from objects (NULL: none named) */
    uint8_t **bitmap;             /* per QN_CALL (node.i): node -> bit */
    uint8_t *live;                /* node -> bit: may be chosen (reachable); NULL: every object */
    size_t bitmap_count;
    void *root_by_node;           /* (node, kind) of every root, sorted by node: @root */
    struct q_fields *fields;
    uint64_t unreachable_matches; /* lf_query_run: objects left out as unreachable that matched */
    uint64_t chosen;              /* lf_query_run: objects that passed (from, where, reachable) */
    char note[Q_MAX_NOTES][300];  /* what the caller should say on stderr (lf_query_note) */
    size_t note_count;
};

/* One bit per object (node space), as the prepared maps hold them. */
static inline void q_bit_set(uint8_t *bits, uint32_t v) { bits[v >> 3] |= (uint8_t)(1u << (v & 7)); }
static inline int q_bit(const uint8_t *bits, uint32_t v) { return bits[v >> 3] >> (v & 7) & 1; }

/* Evaluation (query_eval.c). */
typedef struct q_eval {
    const lf_query *q;
    const lf_snapshot *s;
    char *arena;                  /* texts of the row being evaluated */
    size_t arena_len, arena_cap;
    char **old;                   /* full arenas of the row, freed when it ends */
    size_t old_count;
    lf_error *err;
    int failed;                   /* a damaged record: err is set */
} q_eval;

int q_eval_init(q_eval *e, const lf_query *q, const lf_snapshot *s, lf_error *err);
void q_eval_free(q_eval *e);
/* The start of a row: the texts of the last one are dropped. */
void q_eval_reset(q_eval *e);
/* node n of the query for the object obj (node space). */
lf_qvalue q_value_of(q_eval *e, int32_t n, uint32_t obj);
/* Whether the where clause holds for obj. */
int q_eval_true(q_eval *e, int32_t n, uint32_t obj);
/* An object as its plain value where it stands for one: a String's text,
 * an enum's name, a boxed number, a V8 heap number; else v itself. */
lf_qvalue q_scalar(q_eval *e, lf_qvalue v);
/* Whether text s[0 .. sn) matches the shell glob p[0 .. pn) (like). */
int q_glob(const char *p, size_t pn, const char *s, size_t sn);
/* -1, 0, 1 (nulls first, then booleans, numbers, texts, objects). */
int q_compare(const lf_qvalue *a, const lf_qvalue *b);
/* Copies v's text into the arena's keeping (group keys outlive rows). */

/* Fields (query_fields.c). */
int q_fields_prepare(lf_query *q, const lf_snapshot *s, lf_error *err);
void q_fields_free(lf_query *q);
/* The value of field f of obj; LF_QV_NULL when obj has none. -1 on a damaged record. */
int q_field(q_eval *e, uint32_t obj, uint32_t f, lf_qvalue *out);
/* JVM dumps read as they are: whether instances of class klass have
 * field f (theirs or a superclass's), whether the class object obj has a
 * static field f: 1, 0, or -1 with err (a damaged record). */
int q_jvm_instance_field(const lf_query *q, uint32_t klass, uint32_t f, lf_error *err);
int q_jvm_static_field(const lf_query *q, uint32_t obj, uint32_t f, lf_error *err);
/* Element i of obj (a JVM array's, or the reference labelled [i]). */
int q_element(q_eval *e, uint32_t obj, uint32_t i, lf_qvalue *out);
/* The plain value of an object that stands for one (see q_scalar); 0 when none. */
int q_object_scalar(q_eval *e, uint32_t obj, lf_qvalue *out);

/* Text kept for the row (arena); NULL when out of memory. */
char *q_eval_room(q_eval *e, size_t n);

/* The from list's classes into q->from_match (query_classes.c); the
 * classes of name c, subclasses with instanceof, into into. */
int q_from_classes(lf_query *q, const lf_snapshot *s, lf_error *err);
int q_class_set(lf_query *q, const lf_snapshot *s, size_t c, uint8_t *into, lf_error *err);
/* The JDK classes known to implement the interface name (query_interfaces.c),
 * up to max into out; how many. */
size_t q_jdk_implementors(const char *name, size_t len, const char **out, size_t max);

/* Walks from the roots (query_reach.c): the objects a query may choose
 * into q->live; the objects the roots of call's kind name (rooted) or reach
 * (reachable) into bits. */
int q_live_objects(lf_query *q, const lf_snapshot *s, lf_error *err);
int q_root_bits(const lf_query *q, const lf_snapshot *s, const q_node *call, uint8_t *bits, lf_error *err);

/* Every field the query names is one the objects it reads can have
 * (query_names.c): 0, or -1 with err, the closest names in its detail. */
int q_check_field_names(lf_query *q, const lf_snapshot *s, lf_error *err);

/* Prepare-time maps (query_prepare.c). */
int q_prepare_maps(lf_query *q, const lf_snapshot *s, lf_error *err);
void q_prepare_free(lf_query *q);
/* The kind (string index) of a root that names obj, UINT32_MAX when none. */
uint32_t q_root_kind(const lf_query *q, uint32_t obj);

/* Structural equality of two expressions (order by naming an item). */
int q_same(const lf_query *q, int32_t a, int32_t b);
/* An error in the query at pos. Returns -1. */
int q_fail(lf_error *err, uint32_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif

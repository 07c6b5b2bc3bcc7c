/* typedwalk.c - blocks labelled by their source types (docs/OCAML.md,
 * "Blocks named by their types").
 *
 * From each module global whose declared type has a shape, the walk follows
 * the shapes down the heap without recursion: a block that is what its shape
 * says (the tag and size of one of its alternatives) takes the label of that
 * alternative ("Leaky.session", "Leaky.Node", "Leaky.session list") and its
 * fields are followed with their own shapes. A block that does not match
 * (Obj.magic, a shape the tool got wrong) keeps its untyped label, and the
 * walk does not go below it. The first type that reaches a block wins. Runs
 * between the numbering and the writing, over marked blocks only: the heap
 * is not modified and nothing is allocated in it. */
#define CAML_INTERNALS
#include "agent.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../core/base/vec.h"

typedef struct typed_item {
    value block;
    uint64_t rank;
    uint32_t shape;
} typed_item;

typedef struct typed_pass {
    agent_walk *walk;
    typed_item *stack; /* blocks to label, with their shapes */
    size_t len, cap;
    int64_t *label_class; /* writer class + 1 by shape label, 0 before first use */
    uint64_t labelled;
} typed_pass;

static uint64_t last_labelled;
static double last_seconds;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int push(typed_pass *t, value v, uint32_t shape)
{
    value b;
    uint64_t rank;
    /* whether it is labelled already is asked when it is popped: one cache
     * miss on the class table per block, not two */
    if (!shape || !agent_walk_marked_rank(t->walk, v, &b, &rank))
        return 0;
    if (lf_vec_reserve((void **)&t->stack, &t->cap, t->len + 1, sizeof *t->stack))
        return -1;
    t->stack[t->len++] = (typed_item){b, rank, shape};
    __builtin_prefetch((const void *)Hp_val(b)); /* read when popped: hide the miss */
    return 0;
}

static int set_label(typed_pass *t, uint64_t rank, uint32_t label, int vague)
{
    int64_t *cls = &t->label_class[label];
    if (!*cls) {
        int64_t c = lfs_writer_class(agent_walk_writer(t->walk), agent_shape_label(label));
        if (c < 0)
            return -1;
        *cls = c + 1;
    }
    t->labelled += agent_walk_class_state(t->walk, rank) == AGENT_CLASS_NONE;
    return agent_walk_set_class(t->walk, rank, *cls - 1, vague);
}

/* An exception with arguments is a block whose field 0 is its constructor
 * (Object_tag: name, id): labelled by the constructor's name. */
static int label_exception(typed_pass *t, value b, uint64_t rank)
{
    if (Tag_val(b) != 0 || Wosize_val(b) < 1)
        return 0;
    value c = agent_walk_block(Field(b, 0));
    if (!c || Tag_val(c) != Object_tag || Wosize_val(c) < 1)
        return 0;
    value name = agent_walk_block(Field(c, 0));
    if (!name || Tag_val(name) != String_tag)
        return 0;
    char text[208];
    size_t len = caml_string_length(name);
    snprintf(text, sizeof text, "%.*s", (int)(len < 200 ? len : 200), String_val(name));
    int64_t cls = lfs_writer_class(agent_walk_writer(t->walk), text);
    t->labelled += agent_walk_class_state(t->walk, rank) == AGENT_CLASS_NONE;
    return cls < 0 ? -1 : agent_walk_set_class(t->walk, rank, cls, 0);
}

static int label_fields(typed_pass *t, value b, const agent_alt *a)
{
    for (mlsize_t i = 0; i < a->size; i++)
        if (push(t, Field(b, i), agent_alt_field(a, i)))
            return -1;
    return 0;
}

static int label_array(typed_pass *t, value b, uint64_t rank, const agent_shape *s)
{
    if (Tag_val(b) == Double_array_tag)
        return set_label(t, rank, s->label, s->vague);
    if (Tag_val(b) != 0)
        return 0;
    if (set_label(t, rank, s->label, s->vague))
        return -1;
    for (mlsize_t i = 0; i < Wosize_val(b); i++)
        if (push(t, Field(b, i), s->elem))
            return -1;
    return 0;
}

/* One block with its shape: labelled when it has no label yet, or only a
 * vague one and this shape is firm. A forced lazy value may be the value
 * itself: then the block is tried with the lazy's element shape. */
static int label_block(typed_pass *t, value b, uint64_t rank, uint32_t shape)
{
    for (int hops = 0; hops < 4; hops++) {
        const agent_shape *s = agent_shape_get(shape);
        int state = agent_walk_class_state(t->walk, rank);
        if (!s || state == AGENT_CLASS_FIRM || (state == AGENT_CLASS_VAGUE && s->vague))
            return 0;
        tag_t tag = Tag_val(b);
        switch (s->kind) {
        case AGENT_SHAPE_BLOCK: {
            const agent_alt *a = agent_shape_alt(s, tag, Wosize_val(b));
            if (!a)
                return 0;
            return set_label(t, rank, a->label, s->vague) || label_fields(t, b, a) ? -1 : 0;
        }
        case AGENT_SHAPE_ARRAY:
            return label_array(t, b, rank, s);
        case AGENT_SHAPE_FLOATS:
            return tag == Double_array_tag ? set_label(t, rank, s->label, s->vague) : 0;
        case AGENT_SHAPE_EXT:
            return label_exception(t, b, rank);
        case AGENT_SHAPE_LAZY:
            if (tag == Lazy_tag)
                return set_label(t, rank, s->label, s->vague);
            if (tag == Forward_tag)
                return set_label(t, rank, s->label, s->vague) || push(t, Field(b, 0), s->elem)
                           ? -1
                           : 0;
            shape = s->elem;
            break;
        default:
            return 0;
        }
    }
    return 0;
}

int agent_types_label(agent_walk *walk)
{
    size_t seeds;
    const agent_typed_root *root = agent_walk_typed_roots(walk, &seeds);
    last_labelled = 0;
    last_seconds = 0;
    if (!seeds)
        return 0;
    double start = now_seconds();
    typed_pass t = {walk, NULL, 0, 0, calloc(agent_shape_label_count() + 1, sizeof(int64_t)), 0};
    int rc = t.label_class ? 0 : -1;
    for (size_t i = 0; i < seeds && !rc; i++) {
        rc = push(&t, root[i].block, root[i].shape);
        while (t.len && !rc) {
            typed_item next = t.stack[--t.len];
            rc = label_block(&t, next.block, next.rank, next.shape);
        }
    }
    free(t.stack);
    free(t.label_class);
    last_labelled = t.labelled;
    last_seconds = now_seconds() - start;
    return rc;
}

void agent_types_last(uint64_t *labelled, double *seconds)
{
    *labelled = last_labelled;
    *seconds = last_seconds;
}

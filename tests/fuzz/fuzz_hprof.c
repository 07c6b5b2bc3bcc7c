/* fuzz_hprof.c - the HPROF reader on arbitrary bytes, under each reference
 * semantics in turn, whole or partial (the flags come from the first byte). */
#include <stdlib.h>

#include "../../core/hprof/hprof.h"
#include "../../core/hprof/hprof_values.h"
#include "fuzz.h"

/* What `query` reads of an instance: its class's layout (and the
 * superclasses'), then each field's value at its offset. */
static void exercise_layout(const struct hprof_lazy *l, const lf_jobject *o)
{
    lf_jfield_walk w;
    lf_jfield f;
    lf_jvalue value;
    lf_error err;
    if (o->kind != LF_J_INSTANCE)
        return;
    for (uint32_t up = o->klass, hops = 0; up != UINT32_MAX && hops < 64; hops++)
        up = lf_jclass_super(l, up);
    lf_jfields_layout(&w, l, o->klass);
    for (int n = 0; n < 64 && lf_jfields_next(&w, &f, &err) == 1; n++)
        lf_jfield_value(l, o, f.at, f.value.type, &value, &err);
}

/* What `inspect` reads of the first objects: fields, statics, elements, text. */
static void exercise_values(const lf_snapshot *s)
{
    const struct hprof_lazy *l = lf_hprof_lazy(s);
    char buf[64];
    for (uint32_t v = 0; l && v < s->object_count && v < 64; v++) {
        lf_jobject o;
        lf_error err;
        if (lf_jobject_read(l, v, &o, &err))
            continue;
        lf_jfield_walk w;
        lf_jfield f;
        uint64_t sid[16];
        lf_str name[16];
        size_t n = 0;
        lf_jfields_start(&w, l, &o, o.kind == LF_J_CLASS);
        while (n < 16 && lf_jfields_next(&w, &f, &err) == 1)
            sid[n++] = f.name_sid;
        lf_hprof_names(l, sid, n, name, &err);
        for (uint64_t i = 0; o.kind >= LF_J_OBJ_ARRAY && i < o.length && i < 16; i++)
            (void)lf_jelement(l, &o, i);
        lf_jtext t = {buf, sizeof buf, 0, 0, 0};
        lf_jtext_read(l, s, v, 8, &t, &err);
        exercise_layout(l, &o);
    }
    /* what query reads: field names by text, then each class's layout */
    static const lf_str names[2] = {{"name", 4}, {"value", 5}};
    lf_hprof_sid *found;
    size_t count;
    lf_error err;
    if (l && lf_hprof_find_strings(l, names, 2, &found, &count, &err) == 0)
        free(found);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned flags = data[0] % 3 == 1 ? LF_HPROF_SOFT_STRONG : data[0] % 3 == 2 ? LF_HPROF_ALL_STRONG : 0;
    if (data[0] & 8)
        flags |= LF_HPROF_PARTIAL;
    lf_snapshot s;
    lf_error err;
    (void)lf_hprof_header_clock(data + 1, size - 1);
    if (lf_hprof_parse(data + 1, size - 1, flags, 1 + (data[0] & 4) / 4, &s, &err) == 0) {
        fuzz_exercise_snapshot(&s);
        exercise_values(&s);
        lf_snapshot_free(&s);
    }
    return 0;
}

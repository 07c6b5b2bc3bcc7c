/* class_kinds.c - what a class's name says about collections; see
 * class_kinds.h. */
#include "class_kinds.h"

static int is_primitive_array(lf_str name)
{
    static const char *const prims[] = {"boolean[]", "byte[]", "char[]", "short[]",
                                        "int[]", "long[]", "float[]", "double[]"};
    for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++)
        if (lf_name_is(name, prims[i]))
            return 1;
    return 0;
}

/* HashMap$Node, TreeMap$Entry, ConcurrentSkipListMap$HeadIndex... */
static int is_entry_class(lf_str name)
{
    const char *dollar = memrchr(name.ptr, '$', name.len);
    if (!dollar)
        return 0;
    lf_str simple = {dollar + 1, name.len - (size_t)(dollar + 1 - name.ptr)};
    return lf_name_ends_with(simple, "Node") || lf_name_ends_with(simple, "Entry") ||
           lf_name_ends_with(simple, "Index") || lf_name_ends_with(simple, "TreeBin");
}

/* V8 calls every plain object "Object" and every internal array "(array)":
 * one of them holding another is nesting, not a chain. */
int lf_is_generic_v8_name(const lf_snapshot *s, lf_str name)
{
    if (s->source_format != LF_FORMAT_V8)
        return 0;
    return lf_name_starts_with(name, "(") || lf_name_is(name, "Object") || lf_name_is(name, "Array") ||
           lf_name_is(name, "Function") || lf_name_starts_with(name, "system / ");
}

int lf_is_v8_machinery(const lf_snapshot *s, uint32_t cls)
{
    if (s->source_format != LF_FORMAT_V8 || cls >= s->class_count)
        return 0;
    static const char *const names[] = {"(array)", "(object shape)", "(compiled code)", "(code)",
                                         "(system)", "(synthetic)",     "(hidden)"};
    lf_str name = lf_snapshot_class_name(s, cls);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (lf_name_is(name, names[i]))
            return 1;
    return lf_name_starts_with(name, "system / ");
}

/* Whether name is "block(tag 0, N fields)" ("1 field"), N into *fields:
 * an untyped OCaml block of tag 0 (a record, a tuple, an array). Read by
 * hand: sscanf took 0.14 s of a 14M-object series. */
static int untyped_block(lf_str n, unsigned long *fields)
{
    static const char head[] = "block(tag 0, ";
    const size_t hl = sizeof head - 1;
    if (n.len <= hl || memcmp(n.ptr, head, hl) != 0)
        return 0;
    size_t i = hl;
    unsigned long count = 0;
    for (; i < n.len && n.ptr[i] >= '0' && n.ptr[i] <= '9' && i - hl < 12; i++)
        count = count * 10 + (unsigned long)(n.ptr[i] - '0');
    lf_str tail = {n.ptr + i, n.len - i};
    if (i == hl || !(lf_name_is(tail, " fields)") || lf_name_is(tail, " field)")))
        return 0;
    *fields = count;
    return 1;
}

/* OCaml's collections. A typed list's cells {head; tail} are entries of
 * the list (the head cell is the list). A Hashtbl: a record {size; data;
 * seed; initial_size} holding its bucket array (2^k slots, 16 or more),
 * whose buckets are cells {key; data; next} chained through next. Typed snapshots name them "... Hashtbl.t",
 * "... Hashtbl.bucketlist array" and "... Hashtbl.bucketlist"; untyped,
 * they are blocks of 4, 2^k and 3 fields, a Hashtbl only where they hold
 * each other so (lf_is_backing_store, ocaml_cell). */
static uint8_t ocaml_kind(lf_str name)
{
    unsigned long fields;
    if (lf_name_ends_with(name, "Hashtbl.t"))
        return CLASS_RUNTIME;
    if (lf_name_ends_with(name, "Hashtbl.bucketlist array"))
        return CLASS_ARRAY;
    /* a typed list's cells ("Leaky.session list"): entries of the list */
    if (lf_name_ends_with(name, "Hashtbl.bucketlist") || lf_name_ends_with(name, " list"))
        return CLASS_ENTRY | CLASS_RUNTIME;
    if (!untyped_block(name, &fields))
        return 0;
    if (fields == 3 || fields == 4)
        return fields == 3 ? CLASS_BLOCK3 : CLASS_BLOCK4;
    return fields >= 16 && (fields & (fields - 1)) == 0 ? CLASS_BLOCK_POW2 : 0;
}

/* .NET's ConcurrentDictionary<K,V>: the dictionary holds its Tables,
 * which hold the bucket array (VolatileNode<K,V>[]) whose nodes
 * (Node<K,V>) chain through _next. A .gcdump names those nested generic
 * types without their outer type ("Tables<K,V>", "Node<K,V>"); the .NET
 * agent keeps it ("System.Collections.Concurrent.ConcurrentDictionary<
 * K,V>+Node"). */
static uint16_t dotnet_kind(const lf_snapshot *s, lf_str name)
{
    int gcdump = s->source_format == LF_FORMAT_GCDUMP;
    int concurrent = lf_name_starts_with(name, "System.Collections.Concurrent.");
    if ((gcdump && lf_name_starts_with(name, "Tables<")) || (concurrent && lf_name_ends_with(name, "+Tables")))
        return CLASS_INNER | CLASS_RUNTIME;
    if ((gcdump && lf_name_starts_with(name, "Node<")) || (concurrent && lf_name_ends_with(name, "+Node")))
        return CLASS_ENTRY | CLASS_RUNTIME;
    /* Dictionary's and HashSet's entries: "Entry<K,V>[]" in a .gcdump, the
     * agent's "System.Collections.Generic.Dictionary<K,V>+Entry[]" */
    int generic = lf_name_starts_with(name, "System.Collections.Generic.");
    if (lf_name_ends_with(name, "[]") && ((gcdump && (lf_name_starts_with(name, "Entry<") ||
                                                      lf_name_starts_with(name, "Slot<"))) ||
                                          (generic && (lf_name_ends_with(name, "+Entry[]") ||
                                                       lf_name_ends_with(name, "+Slot[]")))))
        return CLASS_STRUCT_ENTRIES;
    return 0;
}

/* Marks a kind kept in the snapshot's memo: a class of no kind is kept too. */
enum { KIND_KNOWN = 0x8000 };
_Static_assert((int)CLASS_PAIRED_TABLE < (int)KIND_KNOWN, "a kind bit is the memo's mark");

static uint16_t class_kind_of(const lf_snapshot *s, uint32_t cls);

uint16_t lf_class_kind(const lf_snapshot *s, uint32_t cls)
{
    uint16_t *memo = s->class_kind_memo;
    if (!memo || cls >= s->class_kind_memo_count)
        return class_kind_of(s, cls);
    /* threads may ask at once: each writes the same answer */
    uint16_t known = __atomic_load_n(&memo[cls], __ATOMIC_RELAXED);
    if (!known) {
        known = class_kind_of(s, cls) | KIND_KNOWN;
        __atomic_store_n(&memo[cls], known, __ATOMIC_RELAXED);
    }
    return known & (uint16_t)~KIND_KNOWN;
}

static uint16_t class_kind_of(const lf_snapshot *s, uint32_t cls)
{
    lf_str name = lf_snapshot_class_name(s, cls);
    uint16_t kind = lf_is_generic_v8_name(s, name) ? CLASS_GENERIC : 0;
    int reference_array = (lf_name_ends_with(name, "[]") && !is_primitive_array(name)) ||
                          (s->source_format == LF_FORMAT_V8 && lf_name_is(name, "(array)"));
    if (reference_array)
        kind |= CLASS_ARRAY;
    /* a JavaScript Array holds its elements by element edges of its own */
    if (s->source_format == LF_FORMAT_V8 && lf_name_is(name, "Array"))
        kind |= CLASS_JS_ARRAY;
    if (is_entry_class(name))
        kind |= CLASS_ENTRY;
    /* the runtime's own collections: java.util's, and .NET's List<T>,
     * Dictionary<K,V>, HashSet<T>... (an array they hold is their storage) */
    if ((name.len > 5 && lf_name_starts_with(name, "java.")) || lf_name_starts_with(name, "System.Collections."))
        kind |= CLASS_RUNTIME;
    if (lf_name_is(name, "java.util.IdentityHashMap") || lf_name_is(name, "java.util.ImmutableCollections$MapN") ||
        lf_name_is(name, "clojure.lang.PersistentArrayMap"))
        kind |= CLASS_PAIRED_TABLE;
    if (s->source_format != LF_FORMAT_V8 && s->source_format != LF_FORMAT_HPROF)
        kind |= ocaml_kind(name) | dotnet_kind(s, name);
    return kind;
}

/* dotnet_entries.c - a .NET Dictionary's or HashSet's entries
 * (dotnet_entries.h). */
#include "dotnet_entries.h"

#include <string.h>

#include "class_kinds.h"

static int same_text(lf_str a, lf_str b)
{
    return a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0;
}

/* The runtime's value types a key is most often of: no key edge at all. */
static int is_value_type(lf_str name)
{
    static const char *const types[] = {
        "System.Int32",  "System.Int64",   "System.UInt32",   "System.UInt64",         "System.Int16",
        "System.UInt16", "System.Byte",    "System.SByte",    "System.Char",           "System.Boolean",
        "System.Double", "System.Single",  "System.Decimal",  "System.Guid",           "System.DateTime",
        "System.IntPtr", "System.UIntPtr", "System.TimeSpan", "System.DateTimeOffset",
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (lf_name_is(name, types[i]))
            return 1;
    return 0;
}

/* Whether V may hold objects of K's class, so that a target of class K may
 * be a value: V is K, System.Object, or an interface ("IComparable",
 * "IEquatable<System.String>": an 'I' and a capital after the last '.'). */
static int value_may_be_key(lf_str key, lf_str value)
{
    if (same_text(key, value) || lf_name_is(value, "System.Object"))
        return 1;
    const char *open = memchr(value.ptr, '<', value.len);
    size_t end = open ? (size_t)(open - value.ptr) : value.len, start = end;
    while (start > 0 && value.ptr[start - 1] != '.' && value.ptr[start - 1] != '+')
        start--;
    return end - start >= 2 && value.ptr[start] == 'I' && value.ptr[start + 1] >= 'A' && value.ptr[start + 1] <= 'Z';
}

/* The type arguments of the first generic in name, up to two: "Entry<K,V>[]"
 * or "...Dictionary<K,V>+Entry[]". Returns how many (0: none, or more than
 * two). */
static int type_arguments(lf_str name, lf_str *arg)
{
    const char *open = memchr(name.ptr, '<', name.len), *end = name.ptr + name.len;
    if (!open)
        return 0;
    int count = 0, depth = 0;
    const char *start = open + 1;
    for (const char *p = open + 1; p < end; p++) {
        if (*p == '<' || *p == '[')
            depth++;
        else if ((*p == '>' || *p == ']') && depth > 0)
            depth--;
        else if ((*p == ',' || *p == '>') && depth == 0) {
            if (count == 2)
                return 0;
            arg[count++] = (lf_str){start, (size_t)(p - start)};
            start = p + 1;
            if (*p == '>')
                return count;
        }
    }
    return 0;
}

static int is_entry_array(const lf_snapshot *s, uint32_t array)
{
    return array < s->object_count && s->object_class[array] < s->class_count &&
           (lf_class_kind(s, s->object_class[array]) & CLASS_STRUCT_ENTRIES);
}

static uint32_t target_at(const lf_snapshot *s, uint64_t e)
{
    uint32_t t = lf_edge_node(s->edge_target[e]);
    return t < s->object_count ? t : LF_NODE_NONE; /* dangling: no entry's */
}

static int of_key_class(const lf_dotnet_entries_walk *w, uint32_t node)
{
    return w->key_class.len > 0 && w->s->object_class[node] < w->s->class_count &&
           same_text(lf_snapshot_class_name(w->s, w->s->object_class[node]), w->key_class);
}

int lf_dotnet_entries_begin(lf_dotnet_entries_walk *w, const lf_snapshot *s, uint32_t array)
{
    lf_str arg[2];
    if (!is_entry_array(s, array))
        return -1;
    int args = type_arguments(lf_snapshot_class_name(s, s->object_class[array]), arg);
    if (args == 0)
        return -1;
    *w = (lf_dotnet_entries_walk){s,
                                  lf_snapshot_edges_begin(s, array),
                                  lf_snapshot_edges_end(s, array),
                                  arg[0],
                                  arg[0],
                                  args == 2 ? arg[1] : (lf_str){"", 0},
                                  is_value_type(arg[0]),
                                  args == 2 && is_value_type(arg[1]),
                                  args == 1,
                                  args == 2 && value_may_be_key(arg[0], arg[1])};
    if (w->keys_only)
        return 0;
    if (w->key_is_value) {
        w->key_class = (lf_str){"", 0};
        return 0;
    }
    for (uint64_t e = w->edge; e < w->end; e++) {
        uint32_t t = target_at(s, e);
        if (t != LF_NODE_NONE && of_key_class(w, t))
            return 0;
    }
    return -1; /* the keys' classes are not K's: an interface, a base class */
}

int lf_dotnet_entries_next(lf_dotnet_entries_walk *w, uint32_t *key, uint32_t *value)
{
    *key = *value = LF_NODE_NONE;
    while (w->edge < w->end) {
        uint32_t t = target_at(w->s, w->edge);
        if (t == LF_NODE_NONE) {
            w->edge++;
            continue;
        }
        if (w->keys_only) {
            w->edge++;
            *key = t;
            return 1;
        }
        if (*key == LF_NODE_NONE && of_key_class(w, t)) {
            *key = t; /* the entry's key: its value, if any, is next */
            w->edge++;
            continue;
        }
        if (*key != LF_NODE_NONE && of_key_class(w, t) && !w->two_by_two)
            return 1; /* the next entry's key: this one has no value edge */
        *value = t;
        w->edge++;
        return 1;
    }
    return *key != LF_NODE_NONE;
}

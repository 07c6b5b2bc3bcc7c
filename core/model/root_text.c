#include "root_text.h"

#include <stdio.h>
#include <string.h>

size_t lf_root_text(const lf_snapshot *s, uint32_t root, char *buf, size_t size)
{
    return lf_root_kind_name_text(lf_snapshot_string(s, s->root[root].kind), lf_snapshot_string(s, s->root[root].name),
                                  buf, size);
}

size_t lf_root_kind_name_text(lf_str kind, lf_str name, char *buf, size_t size)
{
    if (!size)
        return 0;
    if (kind.len && name.len > kind.len && name.ptr[kind.len] == ' ' && memcmp(name.ptr, kind.ptr, kind.len) == 0)
        kind.len = 0;
    /* a kind is a word; a name may be a long path: neither takes it all */
    int n = snprintf(buf, size, "%.*s%s%.*s", (int)(kind.len > 500 ? 500 : kind.len), kind.ptr,
                     name.len && kind.len ? " " : "", (int)(name.len > 2000 ? 2000 : name.len), name.ptr);
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

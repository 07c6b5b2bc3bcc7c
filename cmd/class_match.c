/* class_match.c - full, simple and glob class names; the closest names. */
#include "class_match.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"

/* The name without its package: after the last '.' (none: all of it). */
static lf_str simple_name(lf_str name)
{
    for (size_t i = name.len; i > 0; i--)
        if (name.ptr[i - 1] == '.')
            return (lf_str){name.ptr + i, name.len - i};
    return name;
}

static int glob_match(const char *pattern, lf_str name)
{
    char buf[1024];
    if (name.len >= sizeof buf)
        return 0;
    memcpy(buf, name.ptr, name.len);
    buf[name.len] = 0;
    return fnmatch(pattern, buf, 0) == 0;
}

static int str_is(lf_str s, const char *p, size_t len)
{
    return s.len == len && memcmp(s.ptr, p, len) == 0;
}

uint8_t *class_match(const lf_snapshot *s, const char *pattern, uint32_t *matched)
{
    uint8_t *match = calloc((size_t)s->class_count + 1, 1);
    if (!match)
        return NULL;
    const size_t len = strlen(pattern);
    const int glob = strpbrk(pattern, "*?[") != NULL;
    const int has_package = memchr(pattern, '.', len) != NULL;
    uint32_t n = 0;
    for (uint32_t c = 0; c < s->class_count; c++) {
        lf_str name = lf_snapshot_class_name(s, c), simple = simple_name(name);
        if (glob)
            match[c] = glob_match(pattern, name) || (!has_package && glob_match(pattern, simple));
        else
            match[c] = str_is(name, pattern, len) || (!has_package && str_is(simple, pattern, len));
        n += match[c];
    }
    *matched = n;
    return match;
}

void class_suggest(const lf_snapshot *s, const char *pattern, char *buf, size_t size)
{
    enum { WANT = 3 };
    uint32_t best[WANT];
    size_t best_d[WANT], found = 0, len = strlen(pattern);
    const size_t max = suggest_max_distance(len);
    for (uint32_t c = 0; c < s->class_count; c++) {
        lf_str name = lf_snapshot_class_name(s, c), simple = simple_name(name);
        size_t d = suggest_distance(pattern, len, name.ptr, name.len, max);
        size_t ds = suggest_distance(pattern, len, simple.ptr, simple.len, max);
        d = ds < d ? ds : d;
        if (d > max)
            continue;
        int seen = 0; /* one suggestion per name (classes of several loaders) */
        for (size_t k = 0; k < found; k++)
            seen |= str_is(lf_snapshot_class_name(s, best[k]), name.ptr, name.len);
        if (seen)
            continue;
        size_t at = found < WANT ? found++ : WANT;
        while (at > 0 && best_d[at - 1] > d) {
            if (at < WANT) {
                best[at] = best[at - 1];
                best_d[at] = best_d[at - 1];
            }
            at--;
        }
        if (at < WANT) {
            best[at] = c;
            best_d[at] = d;
        }
    }
    size_t used = 0;
    buf[0] = 0;
    for (size_t k = 0; k < found && used < size; k++) {
        lf_str name = lf_snapshot_class_name(s, best[k]);
        int n = snprintf(buf + used, size - used, "%s%.*s", k ? ", " : "", (int)name.len, name.ptr);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

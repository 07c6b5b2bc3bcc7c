/* query_class.c - a query's class names resolved, and its errors as text
 * (query_class.h). */
#include "query_class.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class_match.h"

/* A class name is quoted in a message up to this many bytes: the message
 * keeps room for the closest names (the server's is 512 bytes). */
enum { NAME_SHOWN = 200 };

/* Class name i of q; returns as query_resolve_classes. */
static int resolve_class(lf_query *q, size_t i, const lf_snapshot *s, char *why, size_t size)
{
    lf_qclass c = lf_query_class(q, i);
    uint32_t matched, names;
    int simple;
    char near[1024];
    int shown = (int)(c.len > NAME_SHOWN ? NAME_SHOWN : c.len);
    uint8_t *match = class_match(s, c.pattern, c.len, &matched, &names, &simple);
    if (match && simple && names > 1) {
        class_ambiguity(s, "class", c.pattern, c.len, match, names, why, size);
        free(match);
        return 1;
    }
    if (match && matched == 0 && c.quoted) {
        free(match);
        if (class_match_regex(s, c.pattern, c.len, &match, &matched, near, sizeof near) == 1) {
            snprintf(why, size, "no class is named '%.*s', and it is no regular expression: %s", shown, c.pattern,
                     near);
            return 1;
        }
    }
    if (!match)
        return -1;
    if (matched == 0 && !(c.subclasses && lf_query_known_interface(c.pattern, c.len))) {
        free(match);
        int pattern = c.quoted || memchr(c.pattern, '*', c.len) || memchr(c.pattern, '?', c.len) ||
                      memchr(c.pattern, '[', c.len);
        class_suggest(s, c.pattern, c.len, near, sizeof near);
        if (pattern)
            snprintf(why, size, "no class matches '%.*s' in this snapshot", shown, c.pattern);
        else
            snprintf(why, size, "no class '%.*s' in this snapshot%s%s%s", shown, c.pattern,
                     near[0] ? " (did you mean " : "", near, near[0] ? "?)" : "");
        return 1;
    }
    lf_query_set_class(q, i, match);
    return 0;
}

int query_resolve_classes(lf_query *q, const lf_snapshot *s, char *why, size_t size, size_t *at)
{
    for (size_t i = 0; i < lf_query_class_count(q); i++) {
        int rc = resolve_class(q, i, s, why, size);
        if (rc) {
            *at = lf_query_class(q, i).pos;
            return rc;
        }
    }
    return 0;
}

void query_error_text(const lf_error *err, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%s", err->reason, err->detail[0] ? " " : "", err->detail);
}

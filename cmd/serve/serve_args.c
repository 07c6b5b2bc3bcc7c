/* serve_args.c - a request's arguments, read with the limits of serve.h:
 * every number and id checked before a view uses it, every failure a 4xx
 * that says which argument and why. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli.h"
#include "serve.h"
#include "../cli/object_id.h"

int serve_failf(serve_fail *f, unsigned status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
    f->status = status;
    f->at = -1;
    return -1;
}

const char *serve_arg_text(const serve_request *rq, const char *key)
{
    for (size_t i = 0; i < rq->nargs; i++)
        if (rq->arg[i].key && strcmp(rq->arg[i].key, key) == 0)
            return rq->arg[i].value ? rq->arg[i].value : "";
    return NULL;
}

/* A decimal count without sign or junk. */
static int parse_u64(const char *v, uint64_t *out)
{
    if (!v || *v < '0' || *v > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (errno || *end)
        return -1;
    *out = n;
    return 0;
}

int serve_arg_count(const serve_request *rq, const char *key, uint64_t def, uint64_t max, uint64_t *out,
                    serve_fail *fail)
{
    const char *v = serve_arg_text(rq, key);
    if (!v) {
        *out = def;
        return 0;
    }
    if (parse_u64(v, out) || *out > max)
        return serve_failf(fail, 400, "%s needs a count from 0 to %llu, not '%.40s'", key,
                           (unsigned long long)max, v);
    return 0;
}

int serve_arg_snapshot(const serve_site *site, const serve_request *rq, const char *key, serve_snapshot **out,
                       serve_fail *fail)
{
    uint64_t i;
    if (serve_arg_count(rq, key, site->count - 1, site->count - 1, &i, fail))
        return -1;
    *out = &site->snap[i];
    return 0;
}

int serve_arg_node(serve_snapshot *snap, const serve_request *rq, const char *key, int allow_root,
                   uint32_t *node, serve_fail *fail)
{
    const char *v = serve_arg_text(rq, key);
    uint64_t id;
    if (!v)
        return serve_failf(fail, 400, "%s: an object id is needed", key);
    if (allow_root && strcmp(v, "root") == 0) {
        *node = LF_NODE_SUPER;
        return 0;
    }
    if (cli_parse_id(v, &id))
        return serve_failf(fail, 400, "%s: an object id is 0x1f, @123 or 123, not '%.40s'", key, v);
    *node = serve_find_id(snap, id);
    if (*node == LF_NODE_NONE) {
        char near[256]; /* the message holds 512 */
        cli_closest_ids(&snap->s, v, near, sizeof near);
        return serve_failf(fail, 404, "no object with id %.40s in %.200s%s", v, snap->path, near);
    }
    return 0;
}

int serve_arg_class(const serve_snapshot *snap, const serve_request *rq, const char *key, uint32_t *cls,
                    serve_fail *fail)
{
    const char *v = serve_arg_text(rq, key);
    uint64_t c;
    if (!v)
        return serve_failf(fail, 400, "%s: a class number is needed", key);
    if (parse_u64(v, &c) || c >= snap->s.class_count)
        return serve_failf(fail, 404, "%s: no class %.40s (the snapshot has %u)", key, v, snap->s.class_count);
    *cls = (uint32_t)c;
    return 0;
}

int serve_arg_page(const serve_request *rq, uint64_t *from, uint64_t *count, serve_fail *fail)
{
    return serve_arg_count(rq, "from", 0, UINT32_MAX, from, fail) ||
                   serve_arg_count(rq, "count", SERVE_PAGE_DEFAULT, SERVE_PAGE_MAX, count, fail)
               ? -1
               : 0;
}

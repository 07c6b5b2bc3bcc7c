/* class_match.c - full, simple and glob class names; the closest names. */
#include "class_match.h"

#include <fnmatch.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/base/suggest.h"
#include "cli.h"
#include "generic_name.h"

/* The part of name after its last c (none: all of it). */
static lf_str after_last(lf_str name, char c)
{
    for (size_t i = name.len; i > 0; i--)
        if (name.ptr[i - 1] == c)
            return (lf_str){name.ptr + i, name.len - i};
    return name;
}

/* The name after its last '.' or '$': what MAT calls the simple name. */
static lf_str simple_name(lf_str name)
{
    lf_str s = after_last(name, '.');
    return after_last(s, '$');
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

/* name ends with pattern right after a '.', '$' or (.NET's nested types) '+'. */
static int ends_at_boundary(lf_str name, const char *pattern, size_t len)
{
    if (name.len <= len || memcmp(name.ptr + name.len - len, pattern, len) != 0)
        return 0;
    char before = name.ptr[name.len - len - 1];
    return before == '.' || before == '$' || before == '+';
}

/* A generic name matches without its namespaces (generic_name.h):
 * key is the pattern's key, "" when it has none. */
static int same_generic(lf_str name, const char *key)
{
    char mine[1024];
    return key[0] && generic_name_key(name.ptr, name.len, mine, sizeof mine) && strcmp(mine, key) == 0;
}

static int glob_matches_class(const char *glob, lf_str name)
{
    return glob_match(glob, name) || glob_match(glob, after_last(name, '.')) || glob_match(glob, simple_name(name));
}

/* How many different names the matched classes have. */
static uint32_t distinct_names(const lf_snapshot *s, const uint8_t *match)
{
    uint32_t names = 0;
    for (uint32_t c = 0; c < s->class_count; c++) {
        if (!match[c])
            continue;
        lf_str name = lf_snapshot_class_name(s, c);
        int seen = 0;
        for (uint32_t k = 0; k < c && !seen; k++)
            seen = match[k] && str_is(lf_snapshot_class_name(s, k), name.ptr, name.len);
        names += !seen;
    }
    return names;
}

uint8_t *class_match(const lf_snapshot *s, const char *pattern, size_t len, uint32_t *matched, uint32_t *names,
                     int *simple)
{
    uint8_t *match = calloc((size_t)s->class_count + 1, 1);
    char *glob = malloc(len + 1);
    if (!match || !glob) {
        free(match), free(glob);
        return NULL;
    }
    memcpy(glob, pattern, len);
    glob[len] = 0;
    const int is_glob = strpbrk(glob, "*?[") != NULL;
    uint32_t full = 0, n = 0;
    for (uint32_t c = 0; c < s->class_count && !is_glob; c++)
        full += match[c] = (uint8_t)str_is(lf_snapshot_class_name(s, c), pattern, len);
    *simple = !is_glob && full == 0;
    char key[1024] = "";
    if (!is_glob)
        generic_name_key(pattern, len, key, sizeof key);
    for (uint32_t c = 0; c < s->class_count && full == 0; c++) {
        lf_str name = lf_snapshot_class_name(s, c);
        match[c] = (uint8_t)(is_glob ? glob_matches_class(glob, name)
                                     : ends_at_boundary(name, pattern, len) || same_generic(name, key));
    }
    for (uint32_t c = 0; c < s->class_count; c++)
        n += match[c];
    free(glob);
    *matched = n;
    *names = n > 1 ? distinct_names(s, match) : n;
    return match;
}

void class_suggest(const lf_snapshot *s, const char *pattern, size_t len, char *buf, size_t size)
{
    suggest_best best = {0};
    const size_t max = suggest_max_distance(len);
    char key[1024], name_key[1024];
    size_t key_len = generic_name_key(pattern, len, key, sizeof key);
    /* a name given with a package the dump does not have (com.acme.Listener
     * for a Listener of the default package, or of another package): its
     * own last name against the classes' */
    const lf_str given = after_last((lf_str){pattern, len}, '.');
    const size_t given_max = suggest_max_distance(given.len);
    for (uint32_t c = 0; c < s->class_count; c++) {
        lf_str name = lf_snapshot_class_name(s, c), simple = simple_name(name);
        size_t d = suggest_distance(pattern, len, name.ptr, name.len, max);
        size_t ds = suggest_distance(pattern, len, simple.ptr, simple.len, max);
        d = ds < d ? ds : d;
        if (given.len < len && given.len > 0) {
            lf_str last = after_last(name, '.');
            size_t dg = suggest_distance(given.ptr, given.len, last.ptr, last.len, given_max);
            size_t dgs = suggest_distance(given.ptr, given.len, simple.ptr, simple.len, given_max);
            dg = dgs < dg ? dgs : dg;
            d = dg <= given_max && dg < d ? dg : d;
        }
        size_t name_key_len = key_len ? generic_name_key(name.ptr, name.len, name_key, sizeof name_key) : 0;
        if (name_key_len) { /* List<CartLne> is close to List<Shop.CartLine> */
            size_t dk = suggest_distance(key, key_len, name_key, name_key_len, suggest_max_distance(key_len));
            d = dk < d ? dk : d;
        }
        if (d > max)
            continue;
        int seen = 0; /* one suggestion per name (classes of several loaders) */
        for (size_t k = 0; k < best.count; k++)
            seen |= str_is(lf_snapshot_class_name(s, (uint32_t)best.name[k]), name.ptr, name.len);
        if (!seen)
            suggest_offer(&best, c, d);
    }
    size_t used = 0;
    buf[0] = 0;
    for (size_t k = 0; k < best.count && used < size; k++) {
        lf_str name = lf_snapshot_class_name(s, (uint32_t)best.name[k]);
        int n = snprintf(buf + used, size - used, "%s%.*s", k ? ", " : "", (int)name.len, name.ptr);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* "a.B$C, d.E$C and 3 more" for the first names of the matched classes. */
static void list_names(const lf_snapshot *s, const uint8_t *match, uint32_t names, char *buf, size_t size)
{
    enum { SHOWN = 8 };
    size_t used = 0;
    uint32_t listed = 0;
    buf[0] = 0;
    for (uint32_t c = 0; c < s->class_count && listed < SHOWN && used < size; c++) {
        lf_str name = lf_snapshot_class_name(s, c);
        int seen = 0;
        for (uint32_t k = 0; k < c && !seen && match[c]; k++)
            seen = match[k] && str_is(lf_snapshot_class_name(s, k), name.ptr, name.len);
        if (!match[c] || seen)
            continue;
        int n = snprintf(buf + used, size - used, "%s%.*s", listed++ ? ", " : "", (int)name.len, name.ptr);
        used += n > 0 ? (size_t)n : 0;
    }
    if (names > listed && used < size)
        snprintf(buf + used, size - used, " and %u more", names - listed);
}

void class_ambiguity(const lf_snapshot *s, const char *option, const char *pattern, size_t len,
                     const uint8_t *match, uint32_t names, char *buf, size_t size)
{
    char text[1024];
    list_names(s, match, names, text, sizeof text);
    snprintf(buf, size, "%s '%.*s' is the simple name of %u classes: %s; give the full name, or a glob ('*%.*s') "
             "for all of them", option, (int)len, pattern, names, text, (int)len, pattern);
}

int class_match_regex(const lf_snapshot *s, const char *pattern, size_t len, uint8_t **match, uint32_t *matched,
                      char *why, size_t size)
{
    char *anchored = malloc(len + 5);
    regex_t re;
    *match = NULL;
    *matched = 0;
    if (!anchored)
        return -1;
    snprintf(anchored, len + 5, "^(%.*s)$", (int)len, pattern); /* the whole name, as Java's matches() */
    int rc = regcomp(&re, anchored, REG_EXTENDED | REG_NOSUB);
    free(anchored);
    if (rc) {
        regerror(rc, &re, why, size);
        return 1;
    }
    char *name = NULL;
    size_t cap = 0;
    if (!(*match = calloc((size_t)s->class_count + 1, 1)))
        goto nomem;
    for (uint32_t c = 0; c < s->class_count; c++) {
        lf_str n = lf_snapshot_class_name(s, c);
        if (n.len >= cap) {
            char *grown = realloc(name, n.len + 1);
            if (!grown)
                goto nomem;
            name = grown, cap = n.len + 1;
        }
        memcpy(name, n.ptr, n.len);
        name[n.len] = 0;
        *matched += (*match)[c] = (uint8_t)(regexec(&re, name, 0, NULL, 0) == 0);
    }
    free(name);
    regfree(&re);
    return 0;
nomem:
    free(name);
    free(*match);
    *match = NULL;
    regfree(&re);
    return -1;
}

int class_choose(const lf_snapshot *s, const char *option, const char *pattern, size_t len, uint8_t **match,
                 uint32_t *matched)
{
    uint32_t names;
    int simple;
    char text[2048];
    *match = class_match(s, pattern, len, matched, &names, &simple);
    if (!*match) {
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    if (simple && names > 1) {
        class_ambiguity(s, option, pattern, len, *match, names, text, sizeof text);
        cli_message("error", "%s", text);
        free(*match);
        *match = NULL;
        return EXIT_USAGE;
    }
    if (*matched == 0) { /* a misspelt name is a question asked wrong, not an answer of none */
        class_suggest(s, pattern, len, text, sizeof text);
        const char *what = strcmp(option, "--class") == 0 ? "" : " for ";
        const char *which = what[0] ? option : "";
        if (text[0])
            cli_message("error", "no class '%.*s'%s%s (did you mean %s?)", (int)len, pattern, what, which, text);
        else
            cli_message("error", "no class '%.*s'%s%s", (int)len, pattern, what, which);
        free(*match);
        *match = NULL;
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* ocaml_name.c - see ocaml_name.h. */
#include "ocaml_name.h"

#include <stdio.h>
#include <string.h>

static int is_capital(char c)
{
    return c >= 'A' && c <= 'Z';
}

typedef struct sink {
    char *out;
    size_t size, len;
} sink;

static void put(sink *k, const char *p, size_t n)
{
    size_t room = k->size - 1 - k->len;
    if (n > room)
        n = room;
    memcpy(k->out + k->len, p, n);
    k->len += n;
}

/* Appends one non-empty component c[0 .. n), with the '.' before it unless
 * it is the first. */
static void put_component(sink *k, const char *c, size_t n)
{
    static const char dune_exe[] = "Dune__exe__";
    size_t d = sizeof dune_exe - 1;
    if (n > d && memcmp(c, dune_exe, d) == 0 && is_capital(c[d]))
        c += d, n -= d;
    if (k->len)
        put(k, ".", 1);
    if (!is_capital(c[0])) {
        put(k, c, n);
        return;
    }
    size_t from = 0;
    for (size_t i = 1; i + 2 < n; i++) {
        if (c[i] == '_' && c[i + 1] == '_' && is_capital(c[i + 2])) {
            put(k, c + from, i - from);
            put(k, ".", 1);
            from = i + 2;
            i++;
        }
    }
    put(k, c + from, n - from);
}

size_t lf_ocaml_name(const char *name, size_t len, char *out, size_t size)
{
    sink k = {out, size, 0};
    size_t start = 0;
    int depth = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && name[i] == '(')
            depth++;
        else if (i < len && name[i] == ')' && depth > 0)
            depth--;
        else if (i == len || (name[i] == '.' && depth == 0)) {
            if (i > start)
                put_component(&k, name + start, i - start);
            start = i + 1;
        }
    }
    out[k.len] = 0;
    return k.len;
}

static int is_digits(const char *p, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (p[i] < '0' || p[i] > '9')
            return 0;
    return 1;
}

/* The next separator of a symbol's path and its length: "__" (4.x's
 * every level, 5.x's packed units) or "." (5.x after the unit). */
static const char *next_separator(const char *p, size_t *len)
{
    const char *dunder = strstr(p, "__"), *dot = strchr(p, '.');
    if (dot && (!dunder || dot < dunder)) {
        *len = 1;
        return dot;
    }
    *len = 2;
    return dunder;
}

size_t lf_ocaml_symbol(const char *symbol, char *out, size_t size)
{
    if (strncmp(symbol, "caml", 4) != 0 || !is_capital(symbol[4])) {
        int n = snprintf(out, size, "%s", symbol);
        return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
    }
    /* The path as the compiler spelt it, with the function's stamp dropped
     * (Stdlib__List.iter, Dune__exe__Action.run), then read as written by
     * the rules frames' names follow. */
    char raw[512];
    size_t o = 0;
    const char *p = symbol + 4;
    /* dune's executable prefix: its "exe" is no function */
    if (strncmp(p, "Dune__exe__", 11) == 0 && is_capital(p[11])) {
        memcpy(raw, p, 11);
        o = 11;
        p += 11;
    }
    const char *sep_before = "";
    while (*p && o + 1 < sizeof raw) {
        size_t sep_len;
        const char *sep = next_separator(p, &sep_len);
        size_t n = sep ? (size_t)(sep - p) : strlen(p);
        size_t keep = n;
        if (!is_capital(p[0])) {
            /* A function, the path's end: drop the stamp unless the name is
             * anonymous. */
            const char *us = memrchr(p, '_', n);
            if (us && is_digits(us + 1, n - (size_t)(us + 1 - p)) &&
                !(us - p == 3 && strncmp(p, "fun", 3) == 0))
                keep = (size_t)(us - p);
            sep = NULL;
            sep_before = o ? "." : "";
        }
        int w = snprintf(raw + o, sizeof raw - o, "%s%.*s", sep_before, (int)keep, p);
        o = w < 0 || (size_t)w >= sizeof raw - o ? sizeof raw - 1 : o + (size_t)w;
        if (!sep)
            break;
        sep_before = sep_len == 2 ? "__" : ".";
        p = sep + sep_len;
    }
    return lf_ocaml_name(raw, o, out, size);
}

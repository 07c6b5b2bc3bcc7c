/* name_cut.c - see name_cut.h. Candidates are made shortest-loss first and
 * the first that fits is kept; names are short, so each candidate is built
 * whole in a scratch buffer. */
#include "name_cut.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "site_cut.h"
#include "text_buf.h"

#define ELLIPSIS "\xe2\x80\xa6"
#define ELLIPSIS_LEN 3
#define STEP_SEP " / "
#define MAX_STEPS 64
/* A path cut at its front keeps at least this much of its end. */
#define MIN_TAIL 10

static int continuation(unsigned char c)
{
    return (c & 0xc0) == 0x80;
}

size_t lf_text_width(const char *text, size_t len)
{
    size_t w = 0;
    for (size_t i = 0; i < len; i++)
        w += !continuation((unsigned char)text[i]);
    return w;
}

/* Bytes of the first `chars` characters of text. */
static size_t bytes_of_first(const char *text, size_t len, size_t chars)
{
    size_t i = 0;
    for (size_t c = 0; i < len; c++) {
        if (c == chars)
            break;
        i++;
        while (i < len && continuation((unsigned char)text[i]))
            i++;
    }
    return i;
}

/* Copies b (or its first `width` columns, cut at the end, when it is still
 * too wide or could not be made) to out. */
static size_t emit(const char *text, size_t len, size_t width, char *out, size_t size, size_t *shown)
{
    size_t w = lf_text_width(text, len), n = len, cols = w;
    int ellipsis = 0;
    if (w > width) {
        ellipsis = width > 0;
        n = bytes_of_first(text, len, width > 0 ? width - 1 : 0);
        cols = width;
    }
    if (size == 0)
        return 0;
    size_t extra = ellipsis ? ELLIPSIS_LEN : 0;
    if (n + extra + 1 > size) { /* the caller's room is the limit */
        n = size > extra + 1 ? size - extra - 1 : 0;
        while (n > 0 && continuation((unsigned char)text[n]))
            n--;
        if (n + extra + 1 > size)
            extra = 0, ellipsis = 0;
        cols = lf_text_width(text, n) + (size_t)ellipsis;
    }
    memcpy(out, text, n);
    if (ellipsis)
        memcpy(out + n, ELLIPSIS, ELLIPSIS_LEN);
    n += extra;
    out[n] = 0;
    if (shown)
        *shown = cols;
    return n;
}

/* head, an ellipsis and the last columns of tail that fit width, into b. */
static void front_cut(lf_text_buf *b, const char *head, size_t head_len, const char *tail, size_t tail_len,
                      size_t width)
{
    size_t head_w = lf_text_width(head, head_len);
    size_t room = width > head_w + 1 ? width - head_w - 1 : 0;
    size_t tail_w = lf_text_width(tail, tail_len);
    size_t skip = bytes_of_first(tail, tail_len, tail_w > room ? tail_w - room : 0);
    /* from the start of a word or a name part (Tracker.ACTIVE, not
     * s.Tracker.ACTIVE; SessionStore.SESSIONS, not eSeries$SessionStore.
     * SESSIONS), when one starts in the first third of the room kept: a
     * part's last letters tell nothing */
    size_t snap = room / 3 > 4 ? room / 3 : 4;
    int at_word = skip > 0 && skip < tail_len && isupper((unsigned char)tail[skip]) &&
                  islower((unsigned char)tail[skip - 1]);
    if (skip > 0 && !strchr("./ $", tail[skip - 1]) && !at_word) {
        size_t word = 0; /* a word's start inside a camel-case name: "Format" of "CamlinternalFormat" */
        for (size_t i = skip; i + 1 < tail_len && i < skip + snap; i++) {
            if (strchr("./ $", tail[i])) {
                skip = i + 1;
                word = 0;
                break;
            }
            if (!word && i > skip && isupper((unsigned char)tail[i]) && islower((unsigned char)tail[i - 1]))
                word = i;
        }
        if (word)
            skip = word;
    }
    /* past the rest of a " / " between names (V8's "Node / PrincipalRealm"
     * read "…/ PrincipalRealm") */
    while (skip > 0 && skip < tail_len && tail[skip - 1] == ' ' &&
           (tail[skip] == ' ' || (tail[skip] == '/' && skip + 1 < tail_len && tail[skip + 1] == ' ')))
        skip += tail[skip] == '/' ? 2 : 1;
    b->len = 0;
    lf_text_put(b, head, head_len);
    lf_text_put(b, ELLIPSIS, ELLIPSIS_LEN);
    lf_text_put(b, tail + skip, tail_len - skip);
}

/* Where the packages of a class name end: the last '.' before its first
 * '<', '[', '(' or ' ' (a generic's arguments, an array, a note), or 0. */
static size_t package_end(const char *name, size_t len)
{
    size_t stop = 0, last_dot = 0;
    while (stop < len && !strchr("<[( ", name[stop]))
        stop++;
    for (size_t i = 0; i < stop; i++)
        if (name[i] == '.')
            last_dot = i;
    return last_dot;
}

/* name with its first k packages as their initials into b (the rest as is). */
static void abbreviate(lf_text_buf *b, const char *name, size_t len, size_t end, unsigned k)
{
    size_t i = 0;
    unsigned done = 0;
    while (i < end && done < k) {
        size_t j = i;
        while (j < end && name[j] != '.')
            j++;
        size_t first = bytes_of_first(name + i, j - i, 1);
        lf_text_put(b, name + i, first ? first : 0);
        lf_text_put(b, ".", 1);
        i = j + 1;
        done++;
    }
    if (i < len)
        lf_text_put(b, name + i, len - i);
}

static unsigned package_count(const char *name, size_t end)
{
    unsigned n = end > 0;
    for (size_t i = 0; i < end; i++)
        n += name[i] == '.';
    return n;
}

/* The class name cut into b: packages to initials from the left while it
 * does not fit (all of them with full = 1, for paths), else its end. */
/* What comes before a class name and stays: "class " (a class object) or a
 * count of a group ("1,285 x "); its bytes. */
static size_t class_head(const char *text, size_t len)
{
    if (len > 6 && memcmp(text, "class ", 6) == 0)
        return 6;
    size_t i = 0;
    while (i < len && ((text[i] >= '0' && text[i] <= '9') || (i > 0 && text[i] == ',')))
        i++;
    return i > 0 && i + 3 < len && memcmp(text + i, " x ", 3) == 0 ? i + 3 : 0;
}

/* A generic's arguments without their packages into b:
 * "System.Int32,System.Diagnostics.Tracing.EventSource+EventMetadata" ->
 * "Int32,EventSource+EventMetadata" (nested ones too); with inner, a
 * nested type by its own name after "…+" ("Int32,…+EventMetadata"). */
static void simple_arguments(lf_text_buf *b, const char *args, size_t len, int inner)
{
    size_t start = 0; /* of the name being read */
    int outer = 0;    /* the name read is nested: its outer types left out */
    for (size_t i = 0; i <= len; i++) {
        if (i < len && (args[i] == '.' || (inner && args[i] == '+'))) {
            outer |= args[i] == '+';
            start = i + 1;
            continue;
        }
        if (i == len || strchr("<>,[] ", args[i])) {
            if (outer)
                lf_text_put(b, ELLIPSIS "+", ELLIPSIS_LEN + 1);
            outer = 0;
            lf_text_put(b, args + start, i - start);
            if (i < len)
                lf_text_put(b, args + i, 1);
            start = i + 1;
        }
    }
}

/* A generic too long with its packages' initials (.NET's
 * "System.Collections.Generic.Dictionary<System.Int32,System.Diagnostics.
 * Tracing.EventSource+EventMetadata>") in the first of these forms that
 * fits: its arguments without packages, then its own name without them
 * too, then its nested arguments by their own names
 * ("Dictionary<Int32,…+EventMetadata>"), then its first argument alone
 * ("Dictionary<Int32,…>"), then none ("Dictionary<…>"); its end ("[]")
 * stays. 1 when one fits (it is in b), else 0. */
static int cut_generic(lf_text_buf *b, const char *text, size_t head, size_t len, size_t width)
{
    const char *name = text + head, *lt = memchr(name, '<', len - head);
    if (!lt)
        return 0;
    size_t open = (size_t)(lt - name), name_len = len - head, close = open;
    for (int depth = 0; close < name_len; close++)
        if (name[close] == '<')
            depth++;
        else if (name[close] == '>' && --depth == 0)
            break;
    if (close == name_len)
        return 0;
    size_t end = package_end(name, name_len), simple = end ? end + 1 : 0;
    size_t first = open + 1; /* the end of the first argument */
    for (int depth = 0; first < close && (depth > 0 || name[first] != ','); first++)
        depth += name[first] == '<' ? 1 : name[first] == '>' ? -1 : 0;
    int nested = memchr(name + open, '+', close - open) != NULL;
    for (int form = 0; form < 5; form++) {
        if ((form == 2 && !nested) || (form == 3 && first == close))
            continue; /* no nested argument; one argument: nothing to leave out but all */
        b->len = 0;
        lf_text_put(b, text, head);
        if (form == 0)
            abbreviate(b, name, open, end, package_count(name, end));
        else
            lf_text_put(b, name + simple, open - simple);
        lf_text_put(b, "<", 1);
        if (form < 3)
            simple_arguments(b, name + open + 1, close - open - 1, form == 2);
        else if (form == 3) {
            simple_arguments(b, name + open + 1, first - open, 0);
            lf_text_put(b, ELLIPSIS, ELLIPSIS_LEN);
        } else
            lf_text_put(b, ELLIPSIS, ELLIPSIS_LEN);
        lf_text_put(b, name + close, name_len - close);
        if (!b->failed && lf_text_width(b->p, b->len) <= width)
            return 1;
    }
    return 0;
}

/* An OCaml type whose arguments come first ("(string, Typed.session)
 * Hashtbl.t", "(unit, unit) continuation list ref"), too long: its first
 * argument and an ellipsis ("(string, …) Hashtbl.t"), then only the
 * ellipsis ("(…) Hashtbl.t"): the type's own name, at the end, stays
 * whole, where a front cut kept "…session) Hashtbl.t". 1 when one fits
 * (it is in b), else 0. */
static int cut_type_arguments(lf_text_buf *b, const char *text, size_t head, size_t len, size_t width)
{
    const char *name = text + head;
    size_t n = len - head, close = 0, first = 0;
    if (n < 4 || name[0] != '(')
        return 0;
    for (size_t i = 0, depth = 0; i < n && !close; i++)
        if (name[i] == '(')
            depth++;
        else if (name[i] == ')' && --depth == 0)
            close = i;
        else if (name[i] == ',' && depth == 1 && !first)
            first = i;
    if (!close || close + 2 >= n || name[close + 1] != ' ' || !(isalpha((unsigned char)name[close + 2]) ||
                                                                 name[close + 2] == '_'))
        return 0; /* no type after the arguments: V8's "(object shape)" */
    for (int form = first ? 0 : 1; form < 2; form++) {
        b->len = 0;
        lf_text_put(b, text, head);
        lf_text_put(b, "(", 1);
        if (form == 0) {
            lf_text_put(b, name + 1, first - 1);
            lf_text_put(b, ", ", 2);
        }
        lf_text_put(b, ELLIPSIS, ELLIPSIS_LEN);
        lf_text_put(b, name + close, n - close);
        if (!b->failed && lf_text_width(b->p, b->len) <= width)
            return 1;
    }
    return 0;
}

static void cut_class(lf_text_buf *b, const char *text, size_t len, size_t width, int full)
{
    size_t head = class_head(text, len);
    const char *name = text + head;
    size_t name_len = len - head, end = package_end(name, name_len);
    unsigned packages = package_count(name, end);
    if (full && packages == 0) {
        b->len = 0;
        lf_text_put(b, text, len);
        return;
    }
    if (packages > 0) { /* every package or none: j.u.c.X, never j.util.concurrent.X */
        b->len = 0;
        lf_text_put(b, text, head);
        abbreviate(b, name, name_len, end, packages);
        if (full || (!b->failed && lf_text_width(b->p, b->len) <= width))
            return; /* with full, the shortest form: the caller cuts further */
    }
    if (!full && (cut_generic(b, text, head, len, width) || cut_type_arguments(b, text, head, len, width)))
        return;
    front_cut(b, text, head, name, name_len, width);
}

/* --- summary rows ------------------------------------------------------ */

/* The end of the item of a list ("1 java.lang.String, 2 Foo<A, B>, ...")
 * that starts at i: the next ", " outside brackets, or len. */
static size_t item_end(const char *text, size_t len, size_t i)
{
    int depth = 0;
    for (; i < len; i++) {
        if (strchr("<([", text[i]))
            depth++;
        else if (strchr(">)]", text[i]) && depth > 0)
            depth--;
        else if (depth == 0 && text[i] == ',' && i + 1 < len && text[i + 1] == ' ')
            return i;
    }
    return len;
}

/* "head: " and the first item, its class cut to what is left of width
 * (packages as initials, else from its simple name: "1 …AdminSession"),
 * and ", …" when more follow, into b; nothing when the simple name does
 * not fit whole or under 8 columns are left for the class. */
static void cut_first_item(lf_text_buf *b, const char *text, size_t items, size_t end, int more, size_t width)
{
    size_t count = items;
    while (count < end && text[count] != ' ')
        count++;
    size_t used = lf_text_width(text, count < end ? count + 1 : count) + (more ? 3 : 0);
    b->len = 0;
    if (count >= end || used + 8 > width)
        return;
    const char *name = text + count + 1;
    size_t name_len = end - count - 1, room = width - used;
    lf_text_buf cls = {0};
    cut_class(&cls, name, name_len, room, 0);
    /* the simple name whole, or nothing of the item: "…ntrolContext" told
     * nothing */
    size_t simple = 0, stop = 0;
    while (stop < name_len && !strchr("<[( ", name[stop]))
        stop++;
    for (size_t i = 0; i < stop; i++)
        if (name[i] == '.' || name[i] == '$')
            simple = i + 1;
    size_t tail_w = lf_text_width(name + simple, name_len - simple);
    size_t tail = name_len - simple;
    int whole = !cls.failed && lf_text_width(cls.p, cls.len) <= room && cls.len >= tail &&
                memcmp(cls.p + cls.len - tail, name + simple, tail) == 0; /* it ends with the simple name */
    if (whole || (simple > 0 && tail_w + 1 <= room)) {
        lf_text_put(b, text, count + 1);
        if (whole)
            lf_text_put(b, cls.p, cls.len);
        else {
            lf_text_put(b, ELLIPSIS, ELLIPSIS_LEN);
            lf_text_put(b, name + simple, tail);
        }
    }
    b->failed |= cls.failed;
    lf_text_buf_free(&cls);
    if (b->len == 0)
        return;
    if (more)
        lf_text_put(b, ", " ELLIPSIS, 2 + ELLIPSIS_LEN);
}

/* A summary row of the dominator tree ("... 4 more: 1 java.security.
 * AccessControlContext, 1 java.lang.String, ...") cut at its items: its
 * head ("... 4 more") and the whole items that fit, then ", …"; else the
 * first item with its class cut (cut_first_item); else the head alone. An
 * item's count is never parted from its class: "1 java…" said nothing. */
static void cut_summary(lf_text_buf *b, const char *text, size_t len, size_t width)
{
    const char *colon = memchr(text, ':', len);
    size_t head = colon ? (size_t)(colon - text) : len;
    b->len = 0;
    lf_text_put(b, text, head);
    if (head + 2 >= len || text[head + 1] != ' ')
        return;
    size_t fitted = head; /* bytes of text shown as they are */
    for (size_t i = head + 2; i < len;) {
        size_t end = item_end(text, len, i);
        if (end - i == 3 && memcmp(text + i, "...", 3) == 0)
            break; /* the list's own "more" */
        int more = end < len;
        size_t w = lf_text_width(text, end) + (more ? 2 + 1 : 0);
        if (w > width)
            break;
        fitted = end;
        b->len = 0;
        lf_text_put(b, text, fitted);
        if (more)
            lf_text_put(b, ", " ELLIPSIS, 2 + ELLIPSIS_LEN);
        i = end + 2;
    }
    if (fitted > head)
        return;
    lf_text_buf first = {0};
    size_t end = item_end(text, len, head + 2);
    cut_first_item(&first, text, head + 2, end, end < len, width);
    if (!first.failed && first.len > 0 && lf_text_width(first.p, first.len) <= width) {
        b->len = 0;
        lf_text_put(b, first.p, first.len);
    }
    lf_text_buf_free(&first);
}

/* --- paths ------------------------------------------------------------- */

typedef struct step {
    const char *label;   /* the step without its class */
    size_t label_len;
    const char *cls;     /* the class in " (...)" at its end, or NULL */
    size_t cls_len;
} step;

/* Whether text's parentheses pair up: then a " / " inside them is part of
 * a class ("[] (system / Context)", V8's), not between steps. */
static int parens_balanced(const char *text, size_t len)
{
    long depth = 0;
    for (size_t i = 0; i < len && depth >= 0; i++)
        depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    return depth == 0;
}

static size_t split_steps(const char *text, size_t len, step *s)
{
    size_t n = 0, i = 0;
    const int nested = parens_balanced(text, len);
    while (n < MAX_STEPS) {
        const char *sep = NULL;
        long depth = 0;
        for (size_t j = i; j + 3 <= len; j++) {
            depth += text[j] == '(' ? 1 : text[j] == ')' ? -1 : 0;
            if ((depth == 0 || !nested) && memcmp(text + j, STEP_SEP, 3) == 0) {
                sep = text + j;
                break;
            }
        }
        size_t end = sep ? (size_t)(sep - text) : len;
        if (n == MAX_STEPS - 1) /* the rest as one step */
            end = len, sep = NULL;
        step *x = &s[n++];
        x->label = text + i;
        x->label_len = end - i;
        x->cls = NULL;
        x->cls_len = 0;
        if (end > i && text[end - 1] == ')') { /* "name (Class)" */
            for (size_t k = end - 1; k > i + 1; k--)
                if (text[k] == '(' && text[k - 1] == ' ') {
                    x->label_len = k - 1 - i;
                    x->cls = text + k + 1;
                    x->cls_len = end - k - 2;
                    break;
                }
        }
        if (!sep)
            break;
        i = end + 3;
    }
    return n;
}

/* Step k into b: its label and, when with_class, its class (packages to
 * initials when short). */
/* Whether a step's parenthesis is a source place, "Sessions.java:75" (a
 * frame's, a site's), not a class: shortened, its line stays ("…:75"),
 * where initials made a file of it ("S.java:75", "r.ml:22"). */
static int source_place(const char *text, size_t len)
{
    size_t digits = 0;
    while (digits < len && text[len - 1 - digits] >= '0' && text[len - 1 - digits] <= '9')
        digits++;
    return digits > 0 && digits < len && text[len - 1 - digits] == ':';
}

static void put_step(lf_text_buf *b, const step *x, int with_class, int short_class)
{
    lf_text_put(b, x->label, x->label_len);
    if (!with_class || !x->cls)
        return;
    lf_text_put(b, " (", 2);
    if (short_class && source_place(x->cls, x->cls_len)) {
        /* its line kept, its file left out: "(…:75)" */
        const char *colon = x->cls + x->cls_len;
        while (colon[-1] != ':')
            colon--;
        lf_text_put(b, ELLIPSIS, ELLIPSIS_LEN);
        lf_text_put(b, colon - 1, (size_t)(x->cls + x->cls_len - colon) + 1);
    } else if (short_class) {
        lf_text_buf c = {0};
        cut_class(&c, x->cls, x->cls_len, 0, 1);
        if (c.failed)
            lf_text_put(b, x->cls, x->cls_len);
        else
            lf_text_put(b, c.p, c.len);
        lf_text_buf_free(&c);
    } else {
        lf_text_put(b, x->cls, x->cls_len);
    }
    lf_text_put(b, ")", 1);
}

/* The kind that starts a root's step ("static field", "thread", "JNI
 * global"): its first words without a '.', at most two, never the last. */
static size_t kind_length(const char *label, size_t len)
{
    size_t end = 0, words = 0;
    for (size_t i = 0; i <= len && words < 2; i++) {
        if (i < len && label[i] != ' ')
            continue;
        size_t start = end ? end + 1 : 0;
        if (memchr(label + start, '.', i - start) || i == len)
            break;
        end = i;
        words++;
    }
    return end ? end + 1 : 0;
}

/* Whether the kind of kind_length bytes numbers its row ("frame 3: "): the
 * number is the frame's place in its stack, which the rows are read by, so
 * it stays when the method's name is cut at its front. */
static int numbered_kind(const char *label, size_t kind)
{
    return kind >= 3 && label[kind - 1] == ' ' && label[kind - 2] == ':' && label[kind - 3] >= '0' &&
           label[kind - 3] <= '9';
}

/* What of a path's steps is kept, from all (classes shortened) to least. */
typedef struct path_form {
    int middle_classes, first_class, last_class;
    size_t tail;         /* the last steps kept after the first (the others: an ellipsis) */
    int first_kind;      /* the first step's kind ("static field") kept */
    int first_shown;     /* the first step kept (else an ellipsis, with the middle's) */
    int first_alone;     /* the first step, then an ellipsis for all the others */
} path_form;

/* The path of steps s[0..n) into b, in the form f. */
static void build_path(lf_text_buf *b, const step *s, size_t n, const path_form *f)
{
    step first = s[0];
    if (!f->first_kind) {
        size_t kind = kind_length(first.label, first.label_len);
        first.label += kind;
        first.label_len -= kind;
    }
    b->len = 0;
    if (f->first_alone) {
        put_step(b, &first, f->first_class, 1);
        lf_text_put(b, STEP_SEP, 3);
        lf_text_put(b, ELLIPSIS, ELLIPSIS_LEN);
        return;
    }
    for (size_t k = 0; k < n; k++) {
        if (k > 0 && k < n - f->tail)
            continue;
        if (k == 0 && !f->first_shown) {
            lf_text_put(b, ELLIPSIS, ELLIPSIS_LEN);
            continue;
        }
        if (k > 0)
            lf_text_put(b, STEP_SEP, 3);
        if (k > 0 && k == n - f->tail && f->tail < n - 1 && f->first_shown) {
            lf_text_put(b, ELLIPSIS, ELLIPSIS_LEN);
            lf_text_put(b, STEP_SEP, 3);
        }
        int with_class = k == 0 ? f->first_class : k == n - 1 ? f->last_class : f->middle_classes;
        put_step(b, k == 0 ? &first : &s[k], with_class, 1);
    }
}

/* Bytes at the end of text that are its last two dotted names
 * (Tracker.ACTIVE in com.acme.Tracker.ACTIVE): what tells one static field
 * from another. */
static size_t last_names_bytes(const char *text, size_t len)
{
    size_t dots = 0, i;
    for (i = len; i > 0; i--)
        if (text[i - 1] == ' ' || (text[i - 1] == '.' && ++dots == 2))
            break;
    return len - i;
}

static size_t last_names_width(const char *text, size_t len)
{
    size_t n = last_names_bytes(text, len);
    return lf_text_width(text + len - n, n);
}

static int fits(const lf_text_buf *b, size_t width)
{
    return !b->failed && lf_text_width(b->p, b->len) <= width;
}

/* Whether step x is a class alone, "(System.String)": no label before it. */
static int bare_class(const step *x)
{
    return !x->cls && x->label_len > 1 && x->label[0] == '(' && x->label[x->label_len - 1] == ')';
}

static int abbreviate_member(lf_text_buf *b, const char *text, size_t len);

/* A frame's line tells its rows apart ("frame 3: j.l.r.Finalizer$
 * FinalizerThread.run (…:172)"): of a one-step path whose class is a
 * source place, b holding it whole, the packages go to initials before the
 * place goes. Whether that fits (b then holds it). */
static int frame_abbreviated(lf_text_buf *b, const step *s, size_t n, size_t width)
{
    if (n != 1 || !s[0].cls || !source_place(s[0].cls, s[0].cls_len) || b->failed)
        return 0;
    lf_text_buf whole = {0};
    lf_text_put(&whole, b->p, b->len);
    int ok = !whole.failed && abbreviate_member(b, whole.p, whole.len) && fits(b, width);
    lf_text_buf_free(&whole);
    return ok;
}

/* The forms of a path, most kept first: classes shortened; the middle
 * steps' classes dropped, then the first's; the middle steps, from the
 * second on; the last's class. The first that fits is in b (1), else the
 * last tried (0). */
static int shortest_path_form(lf_text_buf *b, const step *s, size_t n, size_t width)
{
    size_t all = n > 1 ? n - 1 : 0;
    path_form f[] = {{1, 1, 1, all, 1, 1, 0}, {0, 1, 1, all, 1, 1, 0}, {0, 0, 1, all, 1, 1, 0}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        build_path(b, s, n, &f[i]);
        if (fits(b, width) || (i == 0 && frame_abbreviated(b, s, n, width)))
            return 1;
    }
    for (size_t tail = n > 2 ? n - 2 : 0; tail >= 1 && n > 2; tail--) {
        build_path(b, s, n, &(path_form){0, 0, 1, tail, 1, 1, 0});
        if (fits(b, width))
            return 1;
    }
    build_path(b, s, n, &(path_form){0, 0, 0, n > 2 ? 1 : all, 1, 1, 0});
    if (n == 1 || fits(b, width))
        return fits(b, width);
    /* Then the root's kind ("static field"): it read "static field …[]",
     * the end of the last step after the kind, in a trend's holder column
     * at 80 columns, where "BigHeap.ROOTS / … / []" fits; then the root
     * (V8's is "(root)"), the last step staying: "… / mixed". */
    build_path(b, s, n, &(path_form){0, 0, 0, n > 2 ? 1 : all, 0, 1, 0});
    if (fits(b, width))
        return 1;
    /* A last step that is a bare class ("(System.String)", an element of
     * an array whose dump names no index) names nothing: the first step
     * stays instead, and a cut keeps its end ("…allNumberCache / …"). */
    if (bare_class(&s[n - 1])) {
        build_path(b, s, n, &(path_form){0, 0, 0, 0, 0, 1, 1});
        return fits(b, width);
    }
    build_path(b, s, n, &(path_form){0, 0, 0, 1, 0, 0, 0});
    return fits(b, width);
}

/* The dotted name after the kind of a one-step path (a static field
 * com.acme.Tracker.ACTIVE, a frame's java.util.concurrent.locks.
 * LockSupport.park): its packages to initials, the class and the member
 * kept (c.a.Tracker.ACTIVE), into b; 0 when it has no packages. */
static int abbreviate_member(lf_text_buf *b, const char *text, size_t len)
{
    size_t kind = kind_length(text, len), end = kind;
    while (end < len && text[end] != ' ')
        end++;
    size_t dots[2] = {0, 0};
    unsigned count = 0;
    for (size_t i = kind; i < end; i++)
        if (text[i] == '.') {
            dots[0] = dots[1];
            dots[1] = i;
            count++;
        }
    if (count < 3) /* at least one package before Class.member */
        return 0;
    lf_text_buf name = {0};
    abbreviate(&name, text + kind, end - kind, dots[0] - kind, count - 1);
    b->len = 0;
    lf_text_put(b, text, kind);
    lf_text_put(b, name.p, name.len);
    lf_text_put(b, text + end, len - end);
    int ok = !name.failed;
    lf_text_buf_free(&name);
    return ok;
}

static void cut_path(lf_text_buf *b, const char *text, size_t len, size_t width)
{
    step s[MAX_STEPS];
    size_t n = split_steps(text, len, s);
    if (shortest_path_form(b, s, n, width) || b->failed)
        return;
    lf_text_buf whole = {0};
    lf_text_put(&whole, b->p, b->len);
    if (n > 1) { /* the last step, cut at its front */
        if (!whole.failed)
            front_cut(b, NULL, 0, whole.p, whole.len, width);
        goto out;
    }
    if (!whole.failed && abbreviate_member(b, whole.p, whole.len)) {
        if (fits(b, width))
            goto out;
        whole.len = 0;
        lf_text_put(&whole, b->p, b->len);
    }
    /* still too long: the first step's kind, and the end of the rest */
    if (!whole.failed) {
        /* the kind stays while what it is of keeps its last two names
         * (Tracker.ACTIVE) or MIN_TAIL columns, whichever is more */
        size_t kind = kind_length(whole.p, whole.len);
        size_t need = last_names_width(whole.p + kind, whole.len - kind);
        if (numbered_kind(whole.p, kind) && lf_text_width(whole.p, kind) + 1 + MIN_TAIL <= width)
            front_cut(b, whole.p, kind, whole.p + kind, whole.len - kind, width); /* frame 3: …ble.run */
        else if (kind && !numbered_kind(whole.p, kind) && lf_text_width(whole.p + kind, whole.len - kind) <= width &&
                 lf_text_width(whole.p, kind) + 1 + need > width && memchr(whole.p + kind, '.', whole.len - kind)) {
            /* a dotted name whole without its kind, as a longer path's first
             * step goes (Registry.EVENTS, not …Registry.EVENTS beside
             * static field Registry.MIXED: the ellipsis says a name was
             * cut); "thread main" and "JNI global" are no kind and a name */
            b->len = 0;
            lf_text_put(b, whole.p + kind, whole.len - kind);
        } else if (lf_text_width(whole.p, kind) + 1 + (need > MIN_TAIL ? need : MIN_TAIL) > width)
            front_cut(b, NULL, 0, whole.p + kind, whole.len - kind, width); /* the kind goes whole */
        else /* the kind, and the last names whole */
            front_cut(b, whole.p, kind, whole.p + whole.len - last_names_bytes(whole.p + kind, whole.len - kind),
                      last_names_bytes(whole.p + kind, whole.len - kind), width);
    }
out:
    lf_text_buf_free(&whole);
}

/* Whether text is a list of roots, "2000 roots: A, B, C, ..." (a top
 * owner's root column): cut at its end, its count first, as free text is
 * (as a path, its "kind" was the count and its end the "...": "4 roots: ….").
 */
static int is_root_list(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && text[i] >= '0' && text[i] <= '9')
        i++;
    if (i == 0)
        return 0;
    if (i < len && text[i] == '+')
        i++;
    return len - i > 8 && memcmp(text + i, " roots: ", 8) == 0;
}

/* A list of roots with each root's dotted name shortened as a one-step
 * path's is ("13 roots: JNI global, static field j.l.Boolean.TYPE, ..."),
 * into b: more of the list shows before its end is cut. */
static void shorten_root_list(lf_text_buf *b, const char *text, size_t len)
{
    const char *colon = memchr(text, ':', len);
    size_t i = colon ? (size_t)(colon - text) + 2 : len;
    b->len = 0;
    lf_text_put(b, text, i < len ? i : len);
    while (i < len) {
        size_t j = i;
        while (j < len && !(text[j] == ',' && j + 1 < len && text[j + 1] == ' '))
            j++;
        lf_text_buf item = {0};
        if (abbreviate_member(&item, text + i, j - i) && !item.failed)
            lf_text_put(b, item.p, item.len);
        else
            lf_text_put(b, text + i, j - i);
        lf_text_buf_free(&item);
        if (j < len)
            lf_text_put(b, ", ", 2);
        i = j + 2;
    }
}

size_t lf_name_cut(const char *text, size_t len, size_t width, lf_cut_style style, char *out, size_t size,
                   size_t *shown)
{
    /* a summary row ("... 10 more: ...") in a class column: a list */
    int summary = len > 4 && memcmp(text, "... ", 4) == 0;
    if (lf_text_width(text, len) <= width || style == LF_CUT_END || (summary && style != LF_CUT_CLASS))
        return emit(text, len, width, out, size, shown);
    if (style == LF_CUT_SITE) {
        char *site;
        size_t site_len;
        if (lf_site_shorten(text, len, width, &site, &site_len))
            return emit(text, len, width, out, size, shown);
        size_t n = emit(site, site_len, width, out, size, shown);
        lf_big_free(site);
        return n;
    }
    lf_text_buf b = {0};
    if (style == LF_CUT_PATH && is_root_list(text, len))
        shorten_root_list(&b, text, len);
    else if (summary)
        cut_summary(&b, text, len, width);
    else if (style == LF_CUT_CLASS)
        cut_class(&b, text, len, width, 0);
    else
        cut_path(&b, text, len, width);
    size_t n = b.failed || !b.p ? emit(text, len, width, out, size, shown)
                                : emit(b.p, b.len, width, out, size, shown);
    lf_text_buf_free(&b);
    return n;
}

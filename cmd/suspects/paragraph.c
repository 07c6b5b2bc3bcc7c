/* paragraph.c - see paragraph.h. */
#include "paragraph.h"

#include <stdio.h>
#include <string.h>


/* Whether " +2.00" (or " -2.00") follows at i: a rate stays with the
 * class before it. */
static int rate_follows(const char *text, size_t len, size_t i)
{
    return i + 2 < len && (text[i + 1] == '+' || text[i + 1] == '-') && text[i + 2] >= '0' && text[i + 2] <= '9';
}


/* Whether the blank at i is one of a " / ". */
static int in_step(const char *text, size_t len, size_t i)
{
    return (i + 1 < len && text[i + 1] == '/') || (i > 0 && text[i - 1] == '/');
}

/* Whether the parenthesis opening at text[from] ("(...)", to its closing
 * one) takes at most room columns. */
static int group_fits(const char *text, size_t len, size_t from, size_t room)
{
    size_t cols = 0;
    int depth = 0;
    for (size_t i = from; i < len && cols <= room; i++) {
        if (((unsigned char)text[i] & 0xc0) == 0x80)
            continue;
        cols++;
        depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
        if (depth == 0)
            return cols <= room;
    }
    return 0;
}

/* Where to break text (len bytes) so that its first part takes at most
 * room columns: after a path's " / " (a backtrace's " < "), else before a parenthesis the break
 * would split ("(the largest 0x...)" moves down whole), else at a space
 * (not the one before a rate), else before a parenthesis that the next
 * line holds whole however short this one ("static field ByName" above
 * "(System.Collections.Generic.Dictionary<System.String,Acme.Profile>)"),
 * else after a type argument's '<' or ',' that fits (a generic class too
 * long for a line: "Dictionary<" above "System.Int32,Acme.CacheEntry>)",
 * each argument whole), else after a name's last '.' or '$' that fits (a
 * static field's class and its field: the identifier after it stays whole,
 * to be read and copied), else at room. */
static size_t break_at(const char *text, size_t len, size_t room, para_kind kind)
{
    size_t cols = 0, i = 0, space = 0, step = 0, paren = 0, dot = 0, argument = 0;
    size_t split = 0; /* the " (" that a break at `space` would split, else 0 */
    int open = 0;     /* a " (" seen and not closed yet */
    while (i < len) {
        /* a blank just past the room is looked at too: the word before it
         * ends at the edge and fits (a class of 67 characters under a
         * label at 80 columns stays whole) */
        if (cols == room && text[i] != ' ')
            break;
        if (text[i] == ' ' && !rate_follows(text, len, i) && !(kind == PARA_TEXT && in_step(text, len, i))) {
            int opens = i + 1 < len && text[i + 1] == '(';
            split = opens || !open ? 0 : paren;
            space = i;
            if (opens)
                paren = i, open = 1;
        } else if (text[i] == ')') {
            open = 0;
        }
        if (cols == room)
            break;
        if (kind != PARA_TEXT && i + 3 <= len && memcmp(text + i, kind == PARA_PATH ? " / " : " < ", 3) == 0 &&
            cols + 2 <= room)
            step = i + 2; /* the line ends with "/" (or "<") */
        if ((text[i] == '.' || text[i] == '$') && i + 1 < len && text[i + 1] != ' ' &&
            !(text[i + 1] >= '0' && text[i + 1] <= '9')) /* not inside a number */
            dot = i + 1; /* the line ends with the separator */
        if ((text[i] == '<' || text[i] == ',') && i + 1 < len && text[i + 1] != ' ')
            argument = i + 1;
        i++;
        while (i < len && ((unsigned char)text[i] & 0xc0) == 0x80)
            i++;
        cols++;
    }
    if (i >= len)
        return len;
    if (step > room / 3)
        return step;
    if (space > room / 3 && split > room / 3)
        return split;
    if (space > room / 3)
        return space;
    if (open && paren > 0 && group_fits(text, len, paren + 1, room))
        return paren;
    if (argument > room / 3)
        return argument;
    return dot > room / 3 ? dot : i;
}

/* text, wrapped to the width: its first line from column first_at (where
 * the caller left off), the others indented to rest_at. */
void para_wrapped(out_buf *b, const char *text, size_t len, size_t width, size_t first_at, size_t rest_at,
                        para_kind kind)
{
    for (int first = 1; len > 0; first = 0) {
        size_t at = first ? first_at : rest_at;
        if (!first) {
            out_buf_put(b, "\n", 1);
            for (size_t i = 0; i < rest_at; i++)
                out_buf_put(b, " ", 1);
        }
        size_t n = break_at(text, len, width > at + 20 ? width - at : 20, kind);
        out_buf_put(b, text, n);
        text += n;
        len -= n;
        while (len > 0 && *text == ' ') /* the break's blank */
            text++, len--;
    }
}

/* "   label     text" and its continuations. */
void para_labelled(out_buf *b, const char *label, const char *text, size_t len, size_t width, para_kind kind)
{
    char head[PARA_TEXT_AT + 1];
    snprintf(head, sizeof head, "%*s%-*s", PARA_LABEL_AT, "", PARA_TEXT_AT - PARA_LABEL_AT, label);
    out_buf_put(b, head, PARA_TEXT_AT);
    para_wrapped(b, text, len, width, PARA_TEXT_AT, PARA_TEXT_AT, kind);
    out_buf_put(b, "\n", 1);
}

size_t para_number(out_buf *b, size_t nth)
{
    char number[32];
    int n = snprintf(number, sizeof number, "%s%zu. ", nth ? "\n" : "", nth + 1);
    out_buf_put(b, number, (size_t)n);
    return (size_t)n - (nth ? 1 : 0);
}

int para_write(out_buf *b, FILE *f)
{
    if (b->len)
        fwrite(b->p, 1, b->len, f);
    int failed = b->failed;
    out_buf_free(b);
    return failed ? -1 : 0;
}

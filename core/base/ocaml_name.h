/* ocaml_name.h - an OCaml name as its programmer wrote it: the one cleaner
 * for every name leakfind shows that comes from a symbol or a frame
 * (globals, closures, stack frames, allocation sites). The compiler and
 * dune spell module paths their own way: dune's executable prefix
 * `Dune__exe__LRijkstraFast` is `LRijkstraFast`, a wrapped library's
 * `Stdlib__List` is `Stdlib.List`, and a path has no empty component
 * (`Misc..String.Set.t` is `Misc.String.Set.t`). Pure C: compiled into
 * leakfind and into the OCaml agents alike. */
#ifndef LF_OCAML_NAME_H
#define LF_OCAML_NAME_H

#include <stddef.h>

/* Writes the cleaned form of name (len bytes) into out (size > 0, always
 * NUL-terminated, cut to size - 1 bytes); returns its length. Rules, per
 * component of the path (separated by '.' outside parentheses, so that an
 * operator `( .%{} )` or an anonymous `(fun)` stays whole):
 *   - an empty component is left out;
 *   - a leading `Dune__exe__` before a capital is dropped;
 *   - in a component that starts with a capital, `__` before a capital is
 *     a '.' (`Mylib__Foo__Bar` -> `Mylib.Foo.Bar`);
 *   - any other component (a function `iter`, `fun_412`, `my__fn`, a type
 *     `t`) is copied as it is. */
size_t lf_ocaml_name(const char *name, size_t len, char *out, size_t size);

/* A symbol's name read the same way: "camlStdlib__Hashtbl__add_123" (4.x)
 * and "camlStdlib__Hashtbl.add_123" (5.x) -> "Stdlib.Hashtbl.add", the
 * function's stamp dropped but an anonymous function's ("Leaky.fun_412");
 * a name that is not an OCaml symbol is copied. out as above. */
size_t lf_ocaml_symbol(const char *symbol, char *out, size_t size);

#endif

/* test_ocaml_name.c - OCaml names read as written (core/base/ocaml_name.h):
 * the frames, sites and symbols of a menhir-shaped dune executable
 * (issue 48: Dune__exe__LRijkstraFast.Run.Solver), of the standard library
 * (Stdlib__List.iter, Stdlib__Hashtbl.resize) and an empty path component
 * (Misc..String.Set.t). Each expected text is the rule applied by hand. */
#include <stdio.h>
#include <string.h>

#include "../../core/base/ocaml_name.h"
#include "test.h"
#include "tests.h"

static void expect_name(const char *name, size_t size, const char *want)
{
    char out[512];
    size_t n = lf_ocaml_name(name, strlen(name), out, size);
    if (strcmp(out, want) != 0 || n != strlen(want)) {
        test_failures++;
        fprintf(stderr, "  lf_ocaml_name('%s', %zu) = '%s' (%zu), expected '%s'\n", name, size, out, n, want);
    }
}

static void expect_symbol(const char *symbol, size_t size, const char *want)
{
    char out[512];
    size_t n = lf_ocaml_symbol(symbol, out, size);
    if (strcmp(out, want) != 0 || n != strlen(want)) {
        test_failures++;
        fprintf(stderr, "  lf_ocaml_symbol('%s', %zu) = '%s' (%zu), expected '%s'\n", symbol, size, out, n,
                want);
    }
}

void test_ocaml_name_frames(void)
{
    /* a frame's defname, as the debuginfo of a dune executable has it */
    expect_name("Dune__exe__LRijkstraFast.Run.Solver", 512, "LRijkstraFast.Run.Solver");
    expect_name("Dune__exe__LRijkstraFast.Run.Solver.hold.(fun)", 512, "LRijkstraFast.Run.Solver.hold.(fun)");
    expect_name("Dune__exe__LRijkstraFast.define", 512, "LRijkstraFast.define");
    /* the standard library's frames and sites */
    expect_name("Stdlib__List.iter", 512, "Stdlib.List.iter");
    expect_name("Stdlib__Hashtbl.resize", 512, "Stdlib.Hashtbl.resize");
    expect_name("Stdlib__Bytes.make", 512, "Stdlib.Bytes.make");
    /* a wrapped library, several levels */
    expect_name("Mylib__Foo__Bar.run", 512, "Mylib.Foo.Bar.run");
    /* no empty component */
    expect_name("Misc..String.Set.t", 512, "Misc.String.Set.t");
    expect_name(".Leaky..serve.", 512, "Leaky.serve");
    /* already clean: the same */
    expect_name("Stdlib.List.mapi", 512, "Stdlib.List.mapi");
    expect_name("LRijkstraFast.define", 512, "LRijkstraFast.define");
    /* a function's own double underscore, an operator, a C frame, no name */
    expect_name("Leaky.my__helper", 512, "Leaky.my__helper");
    expect_name("Leaky.( .%{} )", 512, "Leaky.( .%{} )");
    expect_name("caml_program", 512, "caml_program");
    expect_name("(no debug info)", 512, "(no debug info)");
    expect_name("", 512, "");
    /* dune's prefix needs a module after it */
    expect_name("Dune__exe", 512, "Dune__exe");
    /* cut to the buffer, still terminated */
    expect_name("Stdlib__List.iter", 8, "Stdlib.");
    expect_name("Stdlib__List.iter", 1, "");
}

void test_ocaml_name_symbols(void)
{
    /* 4.x: every level joined by "__" */
    expect_symbol("camlStdlib__List__iter_273", 512, "Stdlib.List.iter");
    expect_symbol("camlStdlib__Hashtbl__resize_749", 512, "Stdlib.Hashtbl.resize");
    expect_symbol("camlDune__exe__LRijkstraFast__define_1204", 512, "LRijkstraFast.define");
    expect_symbol("camlDune__exe__LRijkstraFast__fun_2871", 512, "LRijkstraFast.fun_2871");
    /* 5.x: "." after the unit */
    expect_symbol("camlStdlib__List.iter_123", 512, "Stdlib.List.iter");
    expect_symbol("camlDune__exe__LRijkstraFast.define_88", 512, "LRijkstraFast.define");
    /* a module's block */
    expect_symbol("camlDune__exe__LRijkstraFast", 512, "LRijkstraFast");
    expect_symbol("camlStdlib__Hashtbl", 512, "Stdlib.Hashtbl");
    expect_symbol("camlLeaky", 512, "Leaky");
    /* not OCaml's: copied */
    expect_symbol("caml_program", 512, "caml_program");
    expect_symbol("leaky_registry", 512, "leaky_registry");
    expect_symbol("camlStdlib__List__iter_273", 7, "Stdlib");
}

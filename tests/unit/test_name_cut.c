/* test_name_cut.c - long names cut where they do not tell rows apart
 * (core/base/name_cut.h): the expected texts are the issue's own examples
 * and their like, worked out by hand. */
#include <stdio.h>
#include <string.h>

#include "../../core/base/name_cut.h"
#include "test.h"
#include "tests.h"

/* cut(text, width, style) must give want, want's width at most width. */
static void expect_cut(const char *text, size_t width, lf_cut_style style, const char *want)
{
    char out[512];
    size_t shown = 0;
    size_t n = lf_name_cut(text, strlen(text), width, style, out, sizeof out, &shown);
    if (strcmp(out, want) != 0 || n != strlen(want) || shown > width ||
        shown != lf_text_width(want, strlen(want))) {
        test_failures++;
        fprintf(stderr, "  cut('%s', %zu, %d) = '%s' (%zu columns), expected '%s'\n", text, width, (int)style, out,
                shown, want);
    }
}

/* An OCaml type's arguments go before its own name, at the end: the first
 * argument kept, then none ("…session) Hashtbl.bucketlist" before). */
static void cut_ocaml_types(void)
{
    static const struct {
        const char *text;
        size_t width;
        const char *want;
    } cases[] = {
        {"(string, Typed.session) Hashtbl.bucketlist", 42, "(string, Typed.session) Hashtbl.bucketlist"},
        {"(string, Typed.session) Hashtbl.bucketlist", 30, "(string, \xe2\x80\xa6) Hashtbl.bucketlist"},
        {"(string, Typed.session) Hashtbl.bucketlist", 29, "(\xe2\x80\xa6) Hashtbl.bucketlist"},
        {"300 x (string, Typed.session) Hashtbl.bucketlist array", 34,
         "300 x (\xe2\x80\xa6) Hashtbl.bucketlist array"},
        {"(int * string) list", 10, "(\xe2\x80\xa6) list"},
        /* no type after the parenthesis (V8's synthetic classes): as before */
        {"(concatenated string)", 12, "\xe2\x80\xa6string)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_cut(cases[i].text, cases[i].width, LF_CUT_CLASS, cases[i].want);
}

void test_name_cut_class(void)
{
    const char *chm = "java.util.concurrent.ConcurrentHashMap$Node";
    expect_cut(chm, 80, LF_CUT_CLASS, chm);
    expect_cut(chm, 28, LF_CUT_CLASS, "j.u.c.ConcurrentHashMap$Node");
    /* every package or none: never j.u.concurrent.ConcurrentHashMap$Node */
    expect_cut(chm, 37, LF_CUT_CLASS, "j.u.c.ConcurrentHashMap$Node");
    /* the end, from a name part's start when it is near */
    expect_cut("java.util.concurrent.ConcurrentHashMap$TreeNode", 25, LF_CUT_CLASS,
               "\xe2\x80\xa6ncurrentHashMap$TreeNode");
    /* the packages' initials do not fit: the end of the name */
    expect_cut("org.eclipse.jetty.server.session.SessionData", 20, LF_CUT_CLASS, "\xe2\x80\xa6session.SessionData");
    expect_cut("org.eclipse.jetty.server.session.Session", 20, LF_CUT_CLASS, "o.e.j.s.s.Session");
    /* a class object keeps its "class " */
    expect_cut("class java.util.concurrent.ConcurrentHashMap", 30, LF_CUT_CLASS, "class j.u.c.ConcurrentHashMap");
    /* a generic's arguments are not packages; an array keeps its [] */
    expect_cut("System.Collections.Generic.Dictionary<System.String, Acme.Session>", 50, LF_CUT_CLASS,
               "S.C.G.Dictionary<System.String, Acme.Session>");
    expect_cut("java.lang.Object[]", 12, LF_CUT_CLASS, "j.l.Object[]");
    /* a generic: its arguments' packages, then its own, then arguments */
    const char *dict = "System.Collections.Generic.Dictionary<System.Int32,System.Diagnostics.Tracing.EventSource+EventMetadata>";
    expect_cut(dict, 49, LF_CUT_CLASS, "S.C.G.Dictionary<Int32,EventSource+EventMetadata>");
    expect_cut(dict, 48, LF_CUT_CLASS, "Dictionary<Int32,EventSource+EventMetadata>");
    /* a nested argument by its own name: the one that tells the rows
     * apart (classes at 80 columns showed "Dictionary<Int32,…>") */
    expect_cut(dict, 42, LF_CUT_CLASS, "Dictionary<Int32,\xe2\x80\xa6+EventMetadata>");
    expect_cut(dict, 33, LF_CUT_CLASS, "Dictionary<Int32,\xe2\x80\xa6+EventMetadata>");
    expect_cut(dict, 32, LF_CUT_CLASS, "Dictionary<Int32,\xe2\x80\xa6>");
    expect_cut("Dictionary<A.B+C+D,E+F>", 20, LF_CUT_CLASS, "Dictionary<\xe2\x80\xa6+D,\xe2\x80\xa6+F>");
    expect_cut(dict, 19, LF_CUT_CLASS, "Dictionary<Int32,\xe2\x80\xa6>");
    expect_cut(dict, 18, LF_CUT_CLASS, "Dictionary<\xe2\x80\xa6>");
    expect_cut("Entry<System.Int32,System.Diagnostics.Tracing.EventSource+EventMetadata>[]", 20, LF_CUT_CLASS,
               "Entry<Int32,\xe2\x80\xa6>[]");
    expect_cut("110 x System.Collections.Generic.List<System.String>", 20, LF_CUT_CLASS, "110 x List<String>");
    expect_cut("System.Collections.Generic.List<System.Collections.Generic.List<System.String>>", 30,
               LF_CUT_CLASS, "S.C.G.List<List<String>>");
    /* a group's count stays */
    expect_cut("990 x org.eclipse.jetty.server.session.Session", 24, LF_CUT_CLASS, "990 x o.e.j.s.s.Session");
    /* a summary is cut at its items, an item's count never parted from
     * its class; the first from its simple name; else the head alone */
    const char *more = "... 4 more: 1 java.security.AccessControlContext, 1 java.lang.String, ...";
    expect_cut(more, 60, LF_CUT_CLASS, "... 4 more: 1 java.security.AccessControlContext, \xe2\x80\xa6");
    expect_cut(more, 41, LF_CUT_CLASS, "... 4 more: 1 j.s.AccessControlContext, \xe2\x80\xa6");
    expect_cut(more, 40, LF_CUT_CLASS, "... 4 more: 1 \xe2\x80\xa6" "AccessControlContext, \xe2\x80\xa6");
    expect_cut(more, 37, LF_CUT_CLASS, "... 4 more");
    expect_cut("... 550 more: 115 int[], 70 byte[], ...", 38, LF_CUT_CLASS, "... 550 more: 115 int[], 70 byte[], \xe2\x80\xa6");
    expect_cut("... 10 more: 10 Sessions$AdminSession", 29, LF_CUT_CLASS, "... 10 more: 10 \xe2\x80\xa6" "AdminSession");
    expect_cut("... 10 more: 10 Sessions$AdminSession", 28, LF_CUT_CLASS, "... 10 more");
    expect_cut("... 10 more: 10 Sessions$AdminSession", 8, LF_CUT_CLASS, "... 10 \xe2\x80\xa6");
    /* a generic's ", " is inside its item */
    expect_cut("... 3 more: 2 Dictionary<String, Int32>, 1 Foo", 42, LF_CUT_CLASS,
               "... 3 more: 2 Dictionary<String, Int32>, \xe2\x80\xa6");
    expect_cut("... 3 more: 2 Dictionary<String, Int32>, 1 Foo", 41, LF_CUT_CLASS, "... 3 more");
    /* no packages: the end, from the name after a " / " (V8's roots at
     * 120 columns read "…/ PrincipalRealm") */
    expect_cut("system / Context", 10, LF_CUT_CLASS, "\xe2\x80\xa6" "Context");
    expect_cut("Node / PrincipalRealm", 19, LF_CUT_CLASS, "\xe2\x80\xa6" "PrincipalRealm");
    expect_cut("Detached Node / AliasedBigInt64Array", 26, LF_CUT_CLASS, "\xe2\x80\xa6" "AliasedBigInt64Array");
    /* free text: its start */
    expect_cut("... 2,502 more: byte[]", 10, LF_CUT_END, "... 2,502\xe2\x80\xa6");
    cut_ocaml_types();
}

void test_name_cut_path(void)
{
    /* a frame's source place is no class: shortened, its line stays */
    expect_cut("frame 4: Sessions.main (Sessions.java:75)", 40, LF_CUT_PATH, "frame 4: Sessions.main (\xe2\x80\xa6:75)");
    expect_cut("Requests.Session.open_ (requests.ml:22)", 36, LF_CUT_PATH, "Requests.Session.open_ (\xe2\x80\xa6:22)");
    expect_cut("frame 4: Sessions.main (Sessions.java:75) / x (com.acme.Cls)", 55, LF_CUT_PATH,
               "frame 4: Sessions.main (\xe2\x80\xa6:75) / x (c.a.Cls)");
    const char *holder = "static field com.acme.metrics.Tracker.ACTIVE (java.util.concurrent.ConcurrentHashMap)";
    expect_cut(holder, 100, LF_CUT_PATH, holder);
    /* classes shortened first */
    expect_cut(holder, 70, LF_CUT_PATH, "static field com.acme.metrics.Tracker.ACTIVE (j.u.c.ConcurrentHashMap)");
    /* then the kind and the end of the name; narrower, the end alone */
    expect_cut(holder, 30, LF_CUT_PATH, "static field \xe2\x80\xa6Tracker.ACTIVE");
    /* the end from a name part's start within a third of the room, not a
     * part's last letters (…eSeries$SessionStore.SESSIONS) */
    expect_cut("static field NoiseSeries$SessionStore.SESSIONS", 30, LF_CUT_PATH,
               "\xe2\x80\xa6SessionStore.SESSIONS");
    /* a name that fits whole without its kind goes without it, uncut (a
     * trend's holders at 80 columns read "…Registry.EVENTS" beside "static
     * field Registry.MIXED", as if a package had been cut) */
    expect_cut("static field Sessions.ALL", 16, LF_CUT_PATH, "Sessions.ALL");
    expect_cut("static field Registry.EVENTS (java.util.ArrayList)", 27, LF_CUT_PATH, "Registry.EVENTS");
    expect_cut("static field Registry.MIXED (java.util.Hashtable)", 27, LF_CUT_PATH, "static field Registry.MIXED");
    expect_cut("static field Sessions.ALL", 11, LF_CUT_PATH, "\xe2\x80\xa6ssions.ALL");
    /* two words that are no kind and a dotted name keep their ellipsis */
    expect_cut("thread main (java.lang.Thread)", 9, LF_CUT_PATH, "\xe2\x80\xa6main");
    expect_cut("JNI global", 9, LF_CUT_PATH, "\xe2\x80\xa6global");
    /* a member's packages to initials, its class and name kept */
    expect_cut(holder, 34, LF_CUT_PATH, "static field c.a.m.Tracker.ACTIVE");
    /* a top owner's list of roots: its count first, cut at its end (it
     * read "4 roots: …." cut as a path) */
    expect_cut("2000 roots: finaliser 2000, finaliser 1999, finaliser 1998, ...", 40,
               LF_CUT_PATH, "2000 roots: finaliser 2000, finaliser 1\xe2\x80\xa6");
    expect_cut("2000+ roots: thread t1, thread t2, ...", 20, LF_CUT_PATH, "2000+ roots: thread\xe2\x80\xa6");
    /* each root's packages go to initials before the list's end is cut (it
     * read "2 roots: thread main, static field java.lang.S…" at 120 columns) */
    expect_cut("2 roots: thread main, static field java.lang.System.in", 48, LF_CUT_PATH,
               "2 roots: thread main, static field j.l.System.in");
    expect_cut("13 roots: JNI global, static field java.lang.Boolean.TYPE, static field java.lang.Character.TYPE, ...",
               50, LF_CUT_PATH, "13 roots: JNI global, static field j.l.Boolean.TY\xe2\x80\xa6");
    expect_cut("frame 2: java.util.concurrent.locks.LockSupport.park (LockSupport.java:211)", 36, LF_CUT_PATH,
               "frame 2: j.u.c.l.LockSupport.park");
    /* a frame's line stays while its packages go to initials (`threads`'
     * tree: "frame 3: java.lang.ref.Finalizer$FinalizerThread.run" kept its
     * packages and lost the line that tells it from frame 2) */
    expect_cut("frame 2: java.util.concurrent.locks.LockSupport.park (LockSupport.java:211)", 44, LF_CUT_PATH,
               "frame 2: j.u.c.l.LockSupport.park (\xe2\x80\xa6:211)");
    /* too long even so: the frame's number stays, the method's name is cut
     * at its front (it read "…ctQueuedSynchronizer.acquireSharedInterruptibly"
     * at 80 columns, with no frame number) */
    expect_cut("frame 3: java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireSharedInterruptibly "
               "(AbstractQueuedSynchronizer.java:1047)",
               48, LF_CUT_PATH, "frame 3: \xe2\x80\xa6" "acquireSharedInterruptibly");
    /* from a camel-case word's start near the cut, not "…eIncomingRequestNow" */
    expect_cut("frame 12: com.acme.VeryLongServiceName.handleIncomingRequestNow (VeryLongServiceName.java:9)", 30,
               LF_CUT_PATH, "frame 12: \xe2\x80\xa6" "IncomingRequestNow");
    expect_cut("CamlinternalFormat.[56]", 16, LF_CUT_PATH, "\xe2\x80\xa6" "Format.[56]");
    /* a separator near the cut wins over a word inside the name */
    expect_cut("java.util.concurrent.ConcurrentHashMap$TreeNode", 17, LF_CUT_CLASS, "\xe2\x80\xa6" "HashMap$TreeNode");
    expect_cut("frame 2: java.util.concurrent.locks.LockSupport.park (LockSupport.java:211)", 60, LF_CUT_PATH,
               "frame 2: java.util.concurrent.locks.LockSupport.park (\xe2\x80\xa6:211)");
    /* V8's classes hold " / " ("system / Context"): within a step's
     * parentheses it is no step's end (it read "(root) / … / Context) /
     * compiledRules (Array)", a class cut in two) */
    const char *v8 = "(root) / [] ((GC roots)) / [] ((Strong roots)) / [] (system / Context) / compiledRules (Array)";
    expect_cut(v8, 55, LF_CUT_PATH, "(root) / [] / [] / [] / compiledRules (Array)");
    expect_cut(v8, 40, LF_CUT_PATH, "(root) / \xe2\x80\xa6 / [] / compiledRules (Array)");
    const char *path = "static field Registry.INSTANCE (Registry) / listeners (java.util.ArrayList) / "
                       "elementData (java.lang.Object[])";
    /* the middle steps' classes, then the root's, then the middle steps */
    expect_cut(path, 85, LF_CUT_PATH,
               "static field Registry.INSTANCE (Registry) / listeners / elementData (j.l.Object[])");
    expect_cut(path, 75, LF_CUT_PATH, "static field Registry.INSTANCE / listeners / elementData (j.l.Object[])");
    expect_cut(path, 66, LF_CUT_PATH, "static field Registry.INSTANCE / \xe2\x80\xa6 / elementData (j.l.Object[])");
    expect_cut(path, 50, LF_CUT_PATH, "static field Registry.INSTANCE / \xe2\x80\xa6 / elementData");
    /* then the root's kind (it read "static field …elementData"), then the
     * root, the last step staying */
    expect_cut(path, 40, LF_CUT_PATH, "Registry.INSTANCE / \xe2\x80\xa6 / elementData");
    expect_cut(path, 25, LF_CUT_PATH, "\xe2\x80\xa6 / elementData");
    /* a V8 holder, whose root is always "(root)": its last step stays */
    const char *v8_holder = "(root) / [] (global) / app (Object) / mixed (Map)";
    expect_cut(v8_holder, 20, LF_CUT_PATH, "(root) / \xe2\x80\xa6 / mixed");
    expect_cut(v8_holder, 16, LF_CUT_PATH, "\xe2\x80\xa6 / mixed");
    /* a trend's holder at 80 columns (31 of them): it read "static field …[]" */
    expect_cut("static field BigHeap.ROOTS (java.util.ArrayList) / elementData (java.lang.Object[]) / "
               "[] (java.util.HashMap)", 31, LF_CUT_PATH, "BigHeap.ROOTS / \xe2\x80\xa6 / []");
    expect_cut("static field BigHeap.ROOTS (java.util.ArrayList) / elementData (java.lang.Object[])", 31,
               LF_CUT_PATH, "BigHeap.ROOTS / elementData");
    /* a last step that is a bare class (an element of a .NET array) names
     * nothing: the first step stays (it read "… / (System.String)") */
    const char *bare = "static field s_smallNumberCache (System.String[]) / (System.String)";
    expect_cut(bare, 40, LF_CUT_PATH, "s_smallNumberCache / (System.String)");
    expect_cut(bare, 22, LF_CUT_PATH, "s_smallNumberCache / \xe2\x80\xa6");
    /* a thread's frames: the middle goes before the thread or the local */
    const char *frames = "thread main / frame 3: com.acme.Server.handle (Server.java:42) / "
                         "frame 2: com.acme.Server.loop (Server.java:17) / local (java.util.ArrayList)";
    expect_cut(frames, 60, LF_CUT_PATH, "thread main / \xe2\x80\xa6 / local (j.u.ArrayList)");
}

/* An allocation site: the directories, then the columns, then the outer
 * frames, then the file go; the function and its line stay (V8's
 * "compileForInternalLoader (…:27)" had lost its file and line). */
void test_name_cut_site(void)
{
    const char *v8 = "makeLeak (/tmp/leakfind-node.NU0h6K/alloc_sites.js:26:18)";
    expect_cut(v8, 80, LF_CUT_SITE, v8);
    expect_cut(v8, 40, LF_CUT_SITE, "makeLeak (\xe2\x80\xa6/alloc_sites.js:26:18)");
    expect_cut(v8, 33, LF_CUT_SITE, "makeLeak (\xe2\x80\xa6/alloc_sites.js:26:18)");
    expect_cut(v8, 32, LF_CUT_SITE, "makeLeak (\xe2\x80\xa6/alloc_sites.js:26)");
    expect_cut(v8, 20, LF_CUT_SITE, "makeLeak (\xe2\x80\xa6:26)");
    expect_cut(v8, 12, LF_CUT_SITE, "makeLeak (\xe2\x80\xa6\xe2\x80\xa6");
    /* a builtin's module path: "node:internal/bootstrap/realm" */
    expect_cut("compileForInternalLoader (node:internal/bootstrap/realm:383:27)", 40, LF_CUT_SITE,
               "compileForInternalLoader (\xe2\x80\xa6/realm:383)");
    /* no directories (OCaml): the file goes whole before the line */
    const char *ml = "Requests.Session.open_ (requests.ml:22)";
    expect_cut(ml, 39, LF_CUT_SITE, ml);
    expect_cut(ml, 30, LF_CUT_SITE, "Requests.Session.open_ (\xe2\x80\xa6:22)");
    /* a stack, innermost first: its outer frames go before a line */
    const char *stack = "Stdlib__Hashtbl.replace (hashtbl.ml:593) < Requests.Session.open_ (requests.ml:25) < "
                        "Requests (requests.ml:40)";
    expect_cut(stack, 90, LF_CUT_SITE,
               "Stdlib__Hashtbl.replace (hashtbl.ml:593) < Requests.Session.open_ (requests.ml:25) < \xe2\x80\xa6");
    expect_cut(stack, 50, LF_CUT_SITE, "Stdlib__Hashtbl.replace (hashtbl.ml:593) < \xe2\x80\xa6");
    expect_cut(stack, 35, LF_CUT_SITE, "Stdlib__Hashtbl.replace (\xe2\x80\xa6:593) < \xe2\x80\xa6");
    /* frames with no place (.NET's), and a name in parentheses */
    expect_cut("Acme.Orders.Store.Keep < Acme.Orders.Program.Main", 30, LF_CUT_SITE,
               "Acme.Orders.Store.Keep < \xe2\x80\xa6");
    expect_cut("(anonymous) (/srv/app/lib/router.js:1:1)", 30, LF_CUT_SITE, "(anonymous) (\xe2\x80\xa6/router.js:1:1)");
    expect_cut("(anonymous) (native)", 12, LF_CUT_SITE, "(anonymous)\xe2\x80\xa6");
}

/* graph_listing.c - a dump's graph as leakfind reads it, one line per
 * object, reference and root, for comparing with another reader's listing
 * (tests/dotnet/run.sh: Microsoft's own .gcdump reader):
 *   object ID SHALLOW CLASS
 *   edge FROM-ID TO-ID            (strong references; weak ones say weak)
 *   root ID KIND NAME
 * TAB-separated, ids in hex, in the snapshot's order (the caller sorts). */
#include <inttypes.h>
#include <stdio.h>

#include "../../core/input/open.h"

static void print_str(lf_str s)
{
    fwrite(s.ptr, 1, s.len, stdout);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: graph_listing DUMP\n");
        return 2;
    }
    lf_snapshot s;
    lf_error err;
    lf_open_options opt = {0, 1, 0, NULL};
    if (lf_open(argv[1], &opt, &s, &err)) {
        char msg[800];
        lf_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "graph_listing: %s\n", msg);
        return 3;
    }
    for (uint32_t n = 0; n < s.object_count; n++) {
        printf("object\t0x%" PRIx64 "\t%" PRIu64 "\t", lf_snapshot_object_id(&s, n), lf_snapshot_shallow(&s, n));
        print_str(lf_snapshot_class_name(&s, s.object_class[n]));
        putchar('\n');
        for (uint64_t e = lf_snapshot_edges_begin(&s, n); e < lf_snapshot_edges_end(&s, n); e++) {
            uint32_t t = s.edge_target[e];
            printf("edge\t0x%" PRIx64 "\t0x%" PRIx64 "%s\n", lf_snapshot_object_id(&s, n),
                   lf_snapshot_object_id(&s, t & ~LF_EDGE_WEAK), t & LF_EDGE_WEAK ? "\tweak" : "");
        }
    }
    for (uint32_t r = 0; r < s.root_count; r++) {
        printf("root\t0x%" PRIx64 "\t", lf_snapshot_object_id(&s, s.root[r].node));
        print_str(lf_snapshot_string(&s, s.root[r].kind));
        putchar('\t');
        print_str(lf_snapshot_string(&s, s.root[r].name));
        putchar('\n');
    }
    lf_snapshot_free(&s);
    return 0;
}

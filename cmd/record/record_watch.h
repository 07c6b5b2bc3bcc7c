/* record_watch.h - running the recorded program to its end while leakfind
 * stays alive for every signal a person may send it (INT, TERM, HUP, QUIT,
 * USR1, USR2), each passed on to the program or kept, by the table in
 * docs/OCAML.md ("Signals sent to record"). */
#ifndef LF_RECORD_WATCH_H
#define LF_RECORD_WATCH_H

typedef struct record_watch {
    const char *program; /* as the user named it, for messages */
    const char *prefix;  /* the snapshots' */
    int snapshot_signal; /* always passed on; 0: none */
    long every_major;    /* the other trigger, for messages; 0: none */
    int follow;          /* --follow: the snapshot signal goes to every recorded process */
    int quiet;           /* -q: no warning, no note */
} record_watch;

/* Runs file with argv and waits for it. Returns its exit status (128 + N
 * when signal N ended it), or -1 when it could not be started or waited
 * for (said on stderr). When no snapshot was written meanwhile, says so,
 * and why it may be. */
int record_watch_run(char **argv, const char *file, const record_watch *w);

#endif

/* class_fold.h - rows of `classes` that stand for several (issue 37): the
 * classes of one name that several loaders define (a plugin loaded 500
 * times is one row "Plugin", 500 loaders), and with --by-loader the loaders
 * of one class that define the same classes (500 x URLClassLoader). */
#ifndef LF_CLASS_FOLD_H
#define LF_CLASS_FOLD_H

#include "analysis.h"
#include "loaders.h"

typedef struct lf_fold {
    uint32_t *members;   /* row -> rows it stands for; 0: added into another row */
} lf_fold;

/* Classes (rows: class indices, those with instances) of equal names: their
 * totals are added into the lowest-numbered one. Returns 0 or -1 (memory). */
int lf_fold_same_name(const lf_snapshot *s, lf_class_totals *t, lf_fold *f, lf_error *err);
/* Loader groups (rows: g's groups) whose loaders are of one class and define
 * classes of the same names: added into the lowest-numbered one. The
 * bootstrap loader stands alone. Returns 0 or -1 (memory). */
int lf_fold_same_classes(const lf_snapshot *s, const lf_loader_groups *g, lf_class_totals *t, lf_fold *f,
                         lf_error *err);
void lf_fold_free(lf_fold *f);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* Where lrubench keeps things, relative to the repository, overridable from the environment. */
#ifndef LRUBENCH_PATHS_H
#define LRUBENCH_PATHS_H

const char *path_build(void);	     /* LRUBENCH_BUILD, default "build" */
const char *path_results(void);	     /* LRUBENCH_RESULTS, default "results" */
const char *path_reports(void);	     /* LRUBENCH_REPORTS, default "reports" */
const char *path_kernel_cache(void); /* LRUBENCH_KERNELS, default "kernels/cache" */
const char *path_default_plan(void); /* workloads/plans/default.ini */
const char *path_recipes(void);	     /* LRUBENCH_RECIPES, default "kernels": kernel recipes */

/* "DIR/NAME-YYYYmmdd-HHMMSS SUFFIX" (local time, no space): a new campaign's
 * database or a bisection's folder; malloc'd. */
char *path_stamped(const char *dir, const char *name, const char *suffix);

#endif

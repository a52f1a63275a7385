// SPDX-License-Identifier: GPL-2.0
/*
 * A plot kind is one file and one row: a toy kind, written here as a
 * plot-KIND.c would be (its render function and its PLOT_KIND descriptor,
 * nothing declared anywhere else), is registered and drawn by the report
 * path from the loaded campaign, with the series it asked for. And a
 * report reads its store without writing it: an A/A campaign's report
 * quotes noise figures computed in memory, the same as those the campaign
 * stores when it ends (noise__update).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign-fixture.h"
#include "noise.h"
#include "plot-kinds.h"
#include "report.h"
#include "util.h"
#include "verdict.h"

/* ---- the toy kind: what plot-toy.c would hold ---------------------------- */

static const char *const toy_series[] = { "vmstat:pswpin", NULL };
static int toy_calls;
static size_t toy_points;

static int toy_render(struct plot_ctx *pc)
{
	const struct dataset *ds = pc->an->ds;
	FILE *f = plot_data(pc, "toy.dat");

	toy_calls++;
	if (!f)
		return -errno;
	for (size_t v = 0; v < ds->nv; v++)
		for (int i = 0; i < ds->v[v].measured; i++) {
			const struct report_series *s = report_data__series(
				report_data__run(pc->data, ds->v[v].runs[i]), "vmstat:pswpin", "-");

			for (size_t k = 0; s && k < s->n; k++)
				fprintf(f, "%lld %lld\n", (long long)s->p[k].t_ns, (long long)s->p[k].v);
			toy_points += s ? s->n : 0;
		}
	if (fclose(f) != 0)
		return -EIO;
	return plot_render(pc, "toy", "", "Toy: swap-ins of every measured run",
			   "plot \"toy.dat\" using 1:2 with points notitle\n", 640, 360);
}

PLOT_KIND(toy) = {
	.name = "toy",
	.what = "a test's: swap-ins of every measured run as points",
	.render = toy_render,
	.series = toy_series,
};

/* ---- the tests ------------------------------------------------------------ */

static const struct fx_run twin[] = {
	{ 0, 0, 0, RUN_COMPLETED, 100, 1000, NULL },
	{ 1, 0, 1, RUN_COMPLETED, 120, 2000, NULL },
	{ 0, 1, 2, RUN_COMPLETED, 110, 3000, NULL },
	{ 1, 1, 3, RUN_COMPLETED, 130, 4000, NULL },
};

struct fx {
	char dir[64];
};

static int setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/test-plot-kind.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	_cleanup_free_ char *cmd = xasprintf("rm -rf '%s'", f->dir);
	int r = system(cmd);

	free(f);
	return r == 0 ? 0 : -1;
}

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0;

	assert_int_equal(read_file(path, 1 << 24, &buf, &len), 0);
	return buf;
}

/* Write the report of the campaign at db into dir (quoting the noise figures of noise_db, if
 * not NULL); returns report.md's text. */
static char *report(const char *db, const char *dir, bool plots, const char *noise_db)
{
	struct report_opts o = { .db_path = db,
				 .dir = dir,
				 .vo = VERDICT_OPTS_DEFAULT,
				 .no_plots = !plots,
				 .noise_db = noise_db };
	_cleanup_free_ char *md = xasprintf("%s/report.md", dir);
	struct store *st = NULL;

	assert_int_equal(store__open(db, &st), 0);
	assert_int_equal(report__write(st, &o, NULL), 0);
	store__close(st);
	return slurp(md);
}

static void test_toy_kind(void **state)
{
	struct fx *f = *state;
	_cleanup_free_ char *db = xasprintf("%s/twin.db", f->dir);
	_cleanup_free_ char *dir = xasprintf("%s/report", f->dir);
	_cleanup_free_ char *md = NULL, *gp = NULL, *gpath = NULL;
	const struct plot_kind *const *kinds;
	size_t n;

	if (access("/usr/bin/gnuplot", X_OK) < 0) {
		print_message("skip: gnuplot is needed (make deps)\n");
		skip();
	}
	fx_write(db, &(struct fx_campaign){ .campaign = "twin", .runs = twin, .nruns = 4 });
	kinds = plot__kinds(&n);
	for (size_t i = 0; i < n; i++)
		assert_string_not_equal(kinds[i]->name, "toy");
	assert_int_equal(plot__register(&plot_kind_toy), 0);
	kinds = plot__kinds(&n);
	assert_ptr_equal(kinds[n - 1], &plot_kind_toy);

	md = report(db, dir, true, NULL);
	assert_int_equal(toy_calls, 1);
	assert_int_equal(toy_points, 4 * 3); /* its series, loaded for it: 3 samples a run */
	assert_non_null(strstr(md, "- `plots/toy.{png,svg,pdf}`: Toy: swap-ins of every measured run\n"));
	/* and the table's own kinds are still drawn, before it */
	assert_non_null(strstr(md, "- `plots/heatmap.{png,svg,pdf}`"));
	assert_true(strstr(md, "plots/heatmap.") < strstr(md, "plots/toy."));
	gpath = xasprintf("%s/plots/toy.gp", dir);
	gp = slurp(gpath);
	assert_non_null(strstr(gp, ": toy plot."));
}

/* The "## Noise floor" section of a report.md (malloc'd). */
static char *noise_section(const char *md)
{
	const char *a = strstr(md, "## Noise floor");
	const char *b = a ? strstr(a + 1, "\n## ") : NULL;

	assert_non_null(b);
	return xasprintf("%.*s", (int)(b - a), a);
}

static void test_aa_report_writes_nothing(void **state)
{
	struct fx *f = *state;
	_cleanup_free_ char *aa = xasprintf("%s/aa.db", f->dir);
	_cleanup_free_ char *other = xasprintf("%s/other.db", f->dir);
	_cleanup_free_ char *dir = xasprintf("%s/aa", f->dir);
	_cleanup_free_ char *dir2 = xasprintf("%s/other", f->dir);
	_cleanup_free_ char *md = NULL, *md2 = NULL, *mine = NULL, *quoted = NULL;
	struct store *st = NULL;

	fx_write(aa, &(struct fx_campaign){ .campaign = "twin-noise", .runs = twin, .nruns = 4 });
	assert_int_equal(store__open(aa, &st), 0);
	assert_int_equal(store__meta_set(st, "noise.variant", "classic"), 0);
	store__close(st);

	/* an A/A campaign's report quotes its figures, computed, and stores nothing */
	md = report(aa, dir, false, NULL);
	mine = noise_section(md);
	assert_non_null(strstr(mine, "twin-noise"));
	assert_int_equal(fx_int(aa, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'noise'"), 0);

	/* the campaign's end stores them; another campaign's report quotes the stored ones */
	assert_int_equal(store__open(aa, &st), 0);
	assert_int_equal(noise__update(st), 0);
	store__close(st);
	assert_true(fx_int(aa, "SELECT COUNT(*) FROM noise") > 0);
	fx_write(other, &(struct fx_campaign){ .campaign = "twin", .runs = twin, .nruns = 4 });
	md2 = report(other, dir2, false, aa);
	quoted = noise_section(md2);
	assert_string_equal(mine, quoted);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_toy_kind),
		cmocka_unit_test(test_aa_report_writes_nothing),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

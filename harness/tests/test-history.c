// SPDX-License-Identifier: GPL-2.0
/*
 * The history: summaries with exact numbers, a night against the previous
 * and the pinned one, re-appending, trend plots by gnuplot.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <sys/stat.h>

#include "campaign-fixture.h"
#include "history-plot.h"
#include "history.h"

static void test_summarize(void **state)
{
	const double four[] = { 1, 2, 3, 10 }, three[] = { 3, 1, 2 }, one[] = { 5 };
	struct hist_summary s;

	(void)state;
	hist_summarize(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean) && isnan(s.sd) && isnan(s.median));
	hist_summarize(one, 1, &s);
	assert_true(s.n == 1 && s.mean == 5 && isnan(s.sd) && s.median == 5);
	hist_summarize(four, 4, &s);
	assert_true(s.mean == 4 && s.median == 2.5);
	assert_true(fabs(s.sd - sqrt(50.0 / 3)) < 1e-12);
	hist_summarize(three, 3, &s);
	assert_true(s.median == 2 && s.mean == 2 && s.sd == 1);
	/* the input is not reordered */
	assert_true(three[0] == 3 && three[1] == 1);
}

struct fx {
	char dir[64];
	char *hist, *a, *b;
	struct history *h;
};

static const struct fx_run night_a[] = {
	{ 0, 0, 0, RUN_COMPLETED, 100, 1000, NULL },
	{ 1, 0, 1, RUN_COMPLETED, 120, 2000, NULL },
	{ 0, 1, 2, RUN_COMPLETED, 110, 3000, NULL },
	{ 1, 1, 3, RUN_COMPLETED, 130, 4000, NULL },
};
static const struct fx_run night_b[] = {
	{ 0, 0, 0, RUN_COMPLETED, 110, 1000, NULL },
	{ 1, 0, 1, RUN_COMPLETED, 130, 2000, NULL },
	{ 0, 1, 2, RUN_COMPLETED, 120, 3000, NULL },
	{ 1, 1, 3, RUN_COMPLETED, 140, 4000, NULL },
	{ 1, 2, 4, RUN_FAILED_WORKLOAD, 0, 5000, NULL },
};

static int setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/test-history.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	f->hist = xasprintf("%s/hist.db", f->dir);
	f->a = xasprintf("%s/a.db", f->dir);
	f->b = xasprintf("%s/b.db", f->dir);
	fx_write(f->a, &(struct fx_campaign){ .campaign = "twin-a", .created = "86400",
					      .runs = night_a, .nruns = 4 });
	fx_write(f->b, &(struct fx_campaign){ .campaign = "twin-b", .created = "172800",
					      .kernel = "6.1.0-58 def", .runs = night_b,
					      .nruns = 5 });
	if (history__open(f->hist, &f->h, NULL) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char *cmd = xasprintf("rm -rf '%s'", f->dir);
	int r = system(cmd);

	history__close(f->h);
	free(cmd);
	free(f->hist);
	free(f->a);
	free(f->b);
	free(f);
	return r == 0 ? 0 : -1;
}

static int64_t append(struct fx *f, const char *db)
{
	struct store *st = NULL;
	int64_t night = -1;

	assert_int_equal(store__open(db, &st), 0);
	if (history__append(f->h, st, db, &night) < 0)
		fail_msg("append %s: %s", db, history__errmsg(f->h));
	store__close(st);
	return night;
}

static char *compare_text(struct fx *f, int64_t night)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (history__compare_print(f->h, night, m) < 0)
		fail_msg("compare: %s", history__errmsg(f->h));
	fclose(m);
	return text;
}

/* The line of text that starts with variant and holds metric; fails if none. */
static char *line_of(const char *text, const char *variant, const char *metric)
{
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		char *line = xasprintf("%.*s", (int)len, p);

		if (!strncmp(line, variant, strlen(variant)) && strstr(line, metric))
			return line;
		free(line);
		p += len + (p[len] == '\n');
	}
	fail_msg("no line '%s ... %s' in:\n%s", variant, metric, text);
	return NULL;
}

static void assert_has(const char *s, const char *want)
{
	if (!strstr(s, want))
		fail_msg("'%s' not in '%s'", want, s);
}

static void test_nights(void **state)
{
	struct fx *f = *state;
	int64_t a = append(f, f->a), b = append(f, f->b), again;
	_cleanup_free_ char *rows = NULL, *text = NULL, *line = NULL;

	/* exact summaries: results and counter increases with a direction, per variant */
	rows = fx_rows(f->hist, "SELECT n.campaign, s.variant, s.metric, s.key, s.n, s.mean, "
				"round(s.sd, 6), s.median FROM summary s JOIN night n ON "
				"n.id = s.night_id ORDER BY n.started, s.variant, s.metric");
	assert_string_equal(rows, "twin-a|classic|anon:throughput|1|2|105.0|7.071068|105.0\n"
				  "twin-a|classic|memory.stat:pgmajfault[wl]|0|2|2.0|0.0|2.0\n"
				  "twin-a|classic|vmstat:pswpin|0|2|20.0|0.0|20.0\n"
				  "twin-a|mglru|anon:throughput|1|2|125.0|7.071068|125.0\n"
				  "twin-a|mglru|memory.stat:pgmajfault[wl]|0|2|2.0|0.0|2.0\n"
				  "twin-a|mglru|vmstat:pswpin|0|2|20.0|0.0|20.0\n"
				  "twin-b|classic|anon:throughput|1|2|115.0|7.071068|115.0\n"
				  "twin-b|classic|memory.stat:pgmajfault[wl]|0|2|2.0|0.0|2.0\n"
				  "twin-b|classic|vmstat:pswpin|0|2|20.0|0.0|20.0\n"
				  "twin-b|mglru|anon:throughput|1|2|135.0|7.071068|135.0\n"
				  "twin-b|mglru|memory.stat:pgmajfault[wl]|0|2|2.0|0.0|2.0\n"
				  "twin-b|mglru|vmstat:pswpin|0|2|20.0|0.0|20.0\n");
	free(TAKE_PTR(rows));
	rows = fx_rows(f->hist, "SELECT night_id, ord, variant, kernel, runs, completed FROM "
				"night_variant ORDER BY night_id, ord");
	{
		_cleanup_free_ char *want = xasprintf(
			"%lld|1|classic|6.1.0-57 abc|2|2\n%lld|2|mglru|6.1.0-57 abc|2|2\n"
			"%lld|1|classic|6.1.0-58 def|2|2\n%lld|2|mglru|6.1.0-58 def|3|2\n",
			(long long)a, (long long)a, (long long)b, (long long)b);

		assert_string_equal(rows, want);
	}

	/* b against a: the previous night; none pinned yet */
	text = compare_text(f, b);
	assert_has(text, "history of plan twin\n");
	assert_has(text, "previous  twin-a  1970-01-02 00:00:00 UTC  4 of 4 runs completed");
	assert_has(text, "pinned    none");
	assert_has(text, "kernel    classic: 6.1.0-58 def (previous: 6.1.0-57 abc)");
	line = line_of(text, "classic", "anon:throughput");
	assert_has(line, "115 ±6% n=2");
	assert_has(line, "105 ±7% n=2");
	assert_has(line, "+9.5%");
	free(TAKE_PTR(line));
	line = line_of(text, "mglru", "anon:throughput");
	assert_has(line, "+8.0%");
	free(TAKE_PTR(line));
	line = line_of(text, "mglru", "vmstat:pswpin");
	assert_has(line, "20 ±0% n=2");
	free(TAKE_PTR(line));
	free(TAKE_PTR(text));

	/* a is the first night */
	text = compare_text(f, a);
	assert_has(text, "previous  none: the first night of this plan");
	free(TAKE_PTR(text));

	/* pin a: b is compared with it too */
	assert_int_equal(history__pin(f->h, "twin-a"), 0);
	assert_int_equal(history__pin(f->h, "no-such-campaign"), -ENOENT);
	text = compare_text(f, b);
	assert_has(text, "pinned    twin-a");
	line = line_of(text, "classic", "anon:throughput");
	{
		const char *first = strstr(line, "+9.5%");

		assert_non_null(first);
		assert_non_null(strstr(first + 1, "+9.5%"));
	}
	free(TAKE_PTR(text));

	/* appended again, a night replaces itself and keeps its pin */
	again = append(f, f->a);
	assert_true(again != a);
	assert_int_equal(fx_int(f->hist, "SELECT COUNT(*) FROM night"), 2);
	assert_int_equal(fx_int(f->hist, "SELECT pinned FROM night WHERE campaign = 'twin-a'"), 1);
	assert_int_equal(fx_int(f->hist, "SELECT COUNT(*) FROM summary"), 12);
	assert_int_equal(fx_int(f->hist, "SELECT COUNT(*) FROM pragma_foreign_key_check"), 0);
	/* pinning b unpins a: one baseline per plan */
	assert_int_equal(history__pin(f->h, "twin-b"), 0);
	free(TAKE_PTR(rows));
	rows = fx_rows(f->hist, "SELECT campaign FROM night WHERE pinned");
	assert_string_equal(rows, "twin-b\n");
}

/* A night where nothing completed is kept: it says so, with no summary rows. */
static void test_night_all_failed(void **state)
{
	static const struct fx_run failed[] = {
		{ 0, 0, 0, RUN_FAILED_KERNEL, 0, 1, NULL },
		{ 1, 0, 1, RUN_FAILED_KERNEL, 0, 1, NULL },
	};
	struct fx *f = *state;
	_cleanup_free_ char *db = xasprintf("%s/failed.db", f->dir), *text = NULL;
	int64_t night;

	append(f, f->a);
	fx_write(db, &(struct fx_campaign){ .campaign = "twin-broken", .created = "200000",
					    .runs = failed, .nruns = 2 });
	night = append(f, db);
	assert_int_equal(fx_int(f->hist, "SELECT COUNT(*) FROM summary s JOIN night n ON "
					 "n.id = s.night_id WHERE n.campaign = 'twin-broken'"),
			 0);
	text = compare_text(f, night);
	assert_has(text, "night     twin-broken  1970-01-03 07:33:20 UTC  0 of 2 runs completed");
	assert_has(text, "previous  twin-a");
}

static off_t file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 ? sb.st_size : -1;
}

static void test_plot(void **state)
{
	struct fx *f = *state;
	_cleanup_free_ char *dir = xasprintf("%s/plots", f->dir), *md = NULL, *err = NULL;
	_cleanup_free_ char *png = xasprintf("%s/anon_throughput.png", dir);
	_cleanup_free_ char *svg = xasprintf("%s/anon_throughput.svg", dir);
	size_t plots = 0, len = 0;
	FILE *m;
	int r;

	if (access("/usr/bin/gnuplot", X_OK) < 0) {
		print_message("skip plot: gnuplot is not installed (gnuplot-nox)\n");
		skip();
	}
	append(f, f->a);
	append(f, f->b);
	assert_int_equal(history__pin(f->h, "twin-a"), 0);
	m = open_memstream(&md, &len);
	r = history__plot(f->h, "twin", dir, m, &plots, &err);
	fclose(m);
	if (r < 0)
		fail_msg("plot: %d %s", r, err ? err : "");
	assert_int_equal(plots, 1);
	assert_string_equal(md, "![anon:throughput](anon_throughput.svg)\n\n");
	assert_true(file_size(png) > 1000);
	assert_true(file_size(svg) > 1000);
	{
		_cleanup_free_ char *text = NULL;

		assert_int_equal(read_file(svg, 1 << 20, &text, NULL), 0);
		/* names arrive verbatim: '_' not a subscript, both variants, the pin */
		assert_has(text, "twin: anon:throughput (higher is better)");
		assert_has(text, "<title>classic</title>");
		assert_has(text, "<title>mglru</title>");
		assert_has(text, "pinned");
	}
	assert_int_equal(history__plot(f->h, "no-such-plan", dir, NULL, &plots, &err), 0);
	assert_int_equal(plots, 0);
}

static void test_open_errors(void **state)
{
	struct fx *f = *state;
	_cleanup_free_ char *other = xasprintf("%s/v7.db", f->dir), *err = NULL;
	_cleanup_free_ char *nodir = xasprintf("%s/no/such/dir/h.db", f->dir);
	struct history *h = NULL;
	sqlite3 *db = NULL;

	assert_int_equal(sqlite3_open(other, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 7", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(history__open(other, &h, &err), -EPROTO);
	assert_null(h);
	assert_string_equal(err, "history schema version 7, this lrubench knows 1");
	free(TAKE_PTR(err));
	assert_int_equal(history__open(nodir, &h, &err), -ENOENT);
	assert_null(h);
	assert_non_null(strstr(err, "cannot open"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summarize),
		cmocka_unit_test_setup_teardown(test_nights, setup, teardown),
		cmocka_unit_test_setup_teardown(test_night_all_failed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_errors, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

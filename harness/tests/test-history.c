// SPDX-License-Identifier: GPL-2.0
/*
 * The history: summaries with exact numbers, a night against the previous
 * and the pinned one, re-appending, trend plots by gnuplot; host classes
 * (nights compared within their class, --any-host across, one pin per class,
 * plot lines per class) and a version 1 history migrated in place.
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

static char *compare_text_any(struct fx *f, int64_t night, bool any_host);

static char *compare_text(struct fx *f, int64_t night)
{
	return compare_text_any(f, night, false);
}

static char *compare_text_any(struct fx *f, int64_t night, bool any_host)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (history__compare_print(f->h, night, any_host, m) < 0)
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
	/* one host class (the fixture records no hardware): the line says which, nothing left out */
	assert_has(text, "\nhosts     compared with 1 night of host class ?/?cpu/?GiB/?/qemu-?\n");
	assert_null(strstr(text, "--any-host"));
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
	assert_string_equal(err, "history schema version 7, this lrubench knows 2 (and migrates 1)");
	free(TAKE_PTR(err));
	assert_int_equal(history__open(nodir, &h, &err), -ENOENT);
	assert_null(h);
	assert_non_null(strstr(err, "cannot open"));
}

static void test_host_class(void **state)
{
	static const char qemu[] = "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)\n"
				   "Copyright (c) 2003-2022 Fabrice Bellard";
	_cleanup_free_ char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL, *f = NULL;
	_cleanup_free_ char *g = NULL, *h = NULL;

	(void)state;
	/* this machine's: MemTotal 24683784 kB is 23.5 GiB, rounded up to 24 */
	a = hist_host_class("AMD EPYC", "2", "25276194816", "tcg", qemu, NULL);
	assert_string_equal(a, "AMD EPYC/2cpu/24GiB/tcg/qemu-7.2.22");
	/* 40 MiB less (another kernel's reserve): the same class */
	b = hist_host_class("AMD EPYC", "2", "25234251776", "tcg", qemu, NULL);
	assert_string_equal(a, b);
	/* the instruction-counted clock is another machine, each shift another unit */
	f = hist_host_class("AMD EPYC", "2", "25276194816", "tcg", qemu,
			    "instructions shift=3 sleep=on");
	assert_string_equal(f, "AMD EPYC/2cpu/24GiB/tcg+icount3/qemu-7.2.22");
	g = hist_host_class("AMD EPYC", "2", "25276194816", "tcg", qemu, "real");
	assert_string_equal(g, a);
	h = hist_host_class("AMD EPYC", "2", "25276194816", "tcg", qemu, "instructions");
	assert_string_equal(h, "AMD EPYC/2cpu/24GiB/tcg+icount?/qemu-7.2.22");
	/* marks and blanks, a '/' in the model; 16 GiB installed shows 15.6 */
	c = hist_host_class("Intel(R) Xeon(R)  CPU E5-2680 v4 @ 2.40GHz/x ", "56", "16750372454",
			    "kvm", "QEMU emulator version 8.2.2", NULL);
	assert_string_equal(c, "Intel Xeon CPU E5-2680 v4 @ 2.40GHz-x/56cpu/16GiB/kvm/qemu-8.2.2");
	/* unknown parts are '?', never a guess */
	d = hist_host_class(NULL, "", "lots", NULL, "unknown", NULL);
	assert_string_equal(d, "?/?cpu/?GiB/?/qemu-?");
	e = hist_host_class("unknown", "0", "-5", "", NULL, NULL);
	assert_string_equal(e, "?/?cpu/?GiB/?/qemu-?");
}

#define QEMU_A "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)"
#define CLASS_A "AMD EPYC/2cpu/24GiB/tcg/qemu-7.2.22"
#define CLASS_B "Intel Xeon Gold 6230/8cpu/32GiB/kvm/qemu-8.2.2"

/* Nights a (class A), b (class B), c (class A) of the same plan, in this order. */
static void three_nights(struct fx *f, int64_t *a, int64_t *b, int64_t *c)
{
	_cleanup_free_ char *da = xasprintf("%s/host-a1.db", f->dir);
	_cleanup_free_ char *db = xasprintf("%s/host-b1.db", f->dir);
	_cleanup_free_ char *dc = xasprintf("%s/host-a2.db", f->dir);

	fx_write(da, &(struct fx_campaign){ .campaign = "host-a1", .created = "86400",
					      .runs = night_a, .nruns = 4,
					      .cpu_model = "AMD EPYC", .cpus = "2",
					      .mem_bytes = "25276194816", .qemu_version = QEMU_A,
					      .accel = "tcg" });
	fx_write(db, &(struct fx_campaign){ .campaign = "host-b1", .created = "172800",
					      .runs = night_b, .nruns = 5,
					      .cpu_model = "Intel(R) Xeon(R) Gold 6230", .cpus = "8",
					      .mem_bytes = "33554432000",
					      .qemu_version = "QEMU emulator version 8.2.2",
					      .accel = "kvm" });
	/* class A again, memory some MiB apart */
	fx_write(dc, &(struct fx_campaign){ .campaign = "host-a2", .created = "259200",
					    .runs = night_a, .nruns = 4, .cpu_model = "AMD EPYC",
					    .cpus = "2", .mem_bytes = "25234251776",
					    .qemu_version = QEMU_A, .accel = "tcg" });
	*a = append(f, da);
	*b = append(f, db);
	*c = append(f, dc);
}

static void test_host_classes(void **state)
{
	struct fx *f = *state;
	_cleanup_free_ char *rows = NULL, *text = NULL, *list = NULL;
	int64_t a, b, c;
	size_t len = 0;
	FILE *m;

	three_nights(f, &a, &b, &c);
	rows = fx_rows(f->hist, "SELECT campaign, host_class FROM night ORDER BY started");
	assert_string_equal(rows, "host-a1|" CLASS_A "\nhost-b1|" CLASS_B "\nhost-a2|" CLASS_A "\n");

	/* by default a2 is compared with a1, the night of its class, not with b1 the latest */
	text = compare_text(f, c);
	assert_has(text, "\nprevious  host-a1  ");
	assert_has(text, "\nhosts     compared with 1 night of host class " CLASS_A
			 "; 1 night of other classes left out: --any-host\n");
	assert_null(strstr(text, "warning"));
	free(TAKE_PTR(text));
	/* b1 is the first night of its class */
	text = compare_text(f, b);
	assert_has(text, "previous  none: the first night of this plan\n");
	assert_has(text, "hosts     compared with 0 nights of host class " CLASS_B
			 "; 2 nights of other classes left out: --any-host\n");
	free(TAKE_PTR(text));

	/* --any-host: the previous night whatever its class, and a warning that says so */
	text = compare_text_any(f, c, true);
	assert_has(text, "\nprevious  host-b1  ");
	assert_has(text, "\nhosts     compared with 2 nights of any host class (--any-host): 1 of "
			 "host class " CLASS_A ", 1 of other classes\n");
	assert_has(text, "\nwarning   the previous night ran on host class " CLASS_B
			 ", this night on " CLASS_A ": its change may be the hosts'\n");
	free(TAKE_PTR(text));

	/* one pin per class: pinning b1 leaves a1's; a2 compares with a1, b1 with itself */
	assert_int_equal(history__pin(f->h, "host-a1"), 0);
	assert_int_equal(history__pin(f->h, "host-b1"), 0);
	free(TAKE_PTR(rows));
	rows = fx_rows(f->hist, "SELECT campaign FROM night WHERE pinned ORDER BY started");
	assert_string_equal(rows, "host-a1\nhost-b1\n");
	text = compare_text(f, c);
	assert_has(text, "\npinned    host-a1  ");
	free(TAKE_PTR(text));
	/* with --any-host the class's own pin still comes first */
	text = compare_text_any(f, c, true);
	assert_has(text, "\npinned    host-a1  ");
	assert_null(strstr(text, "the pinned night ran on"));
	free(TAKE_PTR(text));
	/* a pin of another class only, under --any-host: used, with its warning */
	assert_int_equal(history__pin(f->h, "host-a2"), 0);
	text = compare_text_any(f, a, true);
	assert_has(text, "\npinned    host-a2  ");
	free(TAKE_PTR(text));
	text = compare_text(f, b);
	assert_has(text, "\npinned    host-b1  ");
	free(TAKE_PTR(text));

	/* the list names the classes, now that there are two */
	m = open_memstream(&list, &len);
	assert_int_equal(history__list_print(f->h, m), 0);
	fclose(m);
	assert_has(list, "host class\n");
	{
		_cleanup_free_ char *line = line_of(list, "twin", "host-b1");

		assert_has(line, "pinned " CLASS_B);
	}
}

static void test_plot_classes(void **state)
{
	struct fx *f = *state;
	_cleanup_free_ char *dir = xasprintf("%s/plots", f->dir), *err = NULL, *dat = NULL;
	_cleanup_free_ char *path = xasprintf("%s/anon_throughput.dat", dir);
	_cleanup_free_ char *gp = xasprintf("%s/trend.gp", dir), *script = NULL;
	size_t plots = 0;
	int64_t a, b, c;
	int r;

	three_nights(f, &a, &b, &c);
	assert_int_equal(history__pin(f->h, "host-a1"), 0);
	assert_int_equal(history__pin(f->h, "host-b1"), 0);
	r = history__plot(f->h, "twin", dir, NULL, &plots, &err);
	/* the data is written before gnuplot runs */
	assert_int_equal(read_file(path, 1 << 20, &dat, NULL), 0);
	/* a block per variant and class, the class in its title: a1 and a2 on one line, b1 apart */
	assert_string_equal(dat, "\"classic @ " CLASS_A "\"\n"
				 "0 105 7.0710678118654755 \"01-02 00:00\"\n"
				 "2 105 7.0710678118654755 \"01-04 00:00\"\n"
				 "\n\n\"classic @ " CLASS_B "\"\n"
				 "1 115 7.0710678118654755 \"01-03 00:00\"\n"
				 "\n\n\"mglru @ " CLASS_A "\"\n"
				 "0 125 7.0710678118654755 \"01-02 00:00\"\n"
				 "2 125 7.0710678118654755 \"01-04 00:00\"\n"
				 "\n\n\"mglru @ " CLASS_B "\"\n"
				 "1 135 7.0710678118654755 \"01-03 00:00\"\n");
	assert_int_equal(read_file(gp, 1 << 20, &script, NULL), 0);
	assert_has(script, "do for [i=1:words(ARG7)]");
	if (r == -ENOENT || access("/usr/bin/gnuplot", X_OK) < 0) {
		print_message("skip the drawing: gnuplot is not installed (gnuplot-nox)\n");
		skip();
	}
	if (r < 0)
		fail_msg("plot: %d %s", r, err ? err : "");
	assert_int_equal(plots, 1);
	{
		_cleanup_free_ char *svgp = xasprintf("%s/anon_throughput.svg", dir), *svg = NULL;
		const char *p;
		int pins = 0;

		assert_int_equal(read_file(svgp, 1 << 20, &svg, NULL), 0);
		assert_has(svg, "<title>classic @ " CLASS_A "</title>");
		assert_has(svg, "<title>mglru @ " CLASS_B "</title>");
		/* both classes' pins marked */
		for (p = svg; (p = strstr(p, ">pinned<")); p++)
			pins++;
		assert_int_equal(pins, 2);
	}
}

/* The version 1 schema as lrubench wrote it, with one pinned night and its summary. */
static const char v1_sql[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);"
	"CREATE TABLE night(id INTEGER PRIMARY KEY, campaign TEXT NOT NULL UNIQUE, "
	"  plan TEXT NOT NULL, plan_sha256 TEXT NOT NULL, started INTEGER NOT NULL, "
	"  appended INTEGER NOT NULL, host TEXT NOT NULL, db TEXT NOT NULL, "
	"  lrubench_version TEXT NOT NULL, "
	"  pinned INTEGER NOT NULL DEFAULT 0 CHECK(pinned IN (0, 1)));"
	"CREATE INDEX night_plan ON night(plan, started);"
	"CREATE TABLE night_variant(night_id INTEGER NOT NULL REFERENCES night(id) ON DELETE "
	"  CASCADE, ord INTEGER NOT NULL, variant TEXT NOT NULL, kernel TEXT NOT NULL, "
	"  lru_mode TEXT NOT NULL, knobs TEXT NOT NULL, runs INTEGER NOT NULL, "
	"  completed INTEGER NOT NULL, PRIMARY KEY(night_id, variant));"
	"CREATE TABLE summary(night_id INTEGER NOT NULL REFERENCES night(id) ON DELETE CASCADE, "
	"  variant TEXT NOT NULL, metric TEXT NOT NULL, unit TEXT NOT NULL, "
	"  better TEXT NOT NULL CHECK(better IN ('higher', 'lower', 'none')), "
	"  key INTEGER NOT NULL CHECK(key IN (0, 1)), n INTEGER NOT NULL, mean REAL NOT NULL, "
	"  sd REAL, median REAL NOT NULL, PRIMARY KEY(night_id, variant, metric));"
	"CREATE VIEW v_summary AS SELECT n.campaign, n.plan, n.started, "
	"  datetime(n.started, 'unixepoch') AS time, nv.kernel, s.variant, s.metric, s.n, s.mean, "
	"  s.sd, s.median, s.unit, s.better FROM summary s JOIN night n ON n.id = s.night_id "
	"  JOIN night_variant nv ON nv.night_id = s.night_id AND nv.variant = s.variant;"
	"PRAGMA user_version = 1;"
	"INSERT INTO meta VALUES ('schema.version', '1'), ('created', '1');"
	"INSERT INTO night VALUES (1, 'old-night', 'twin', 'x', 3600, 3600, 'box', '/gone.db', "
	"  '0.1', 1);"
	"INSERT INTO night_variant VALUES (1, 1, 'classic', '6.1.0-57 abc', 'classic', '', 2, 2);"
	"INSERT INTO summary VALUES (1, 'classic', 'anon:throughput', 'ops/s', 'higher', 1, 2, "
	"  100, 10, 100);";

static void test_migrate_v1(void **state)
{
	struct fx *f = *state;
	_cleanup_free_ char *old = xasprintf("%s/v1.db", f->dir), *err = NULL, *rows = NULL;
	_cleanup_free_ char *fresh = xasprintf("%s/new.db", f->dir);
	_cleanup_free_ char *text = NULL;
	struct history *h = NULL, *keep = f->h;
	sqlite3 *db = NULL;
	int64_t night;

	assert_int_equal(sqlite3_open(old, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, v1_sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	if (history__open(old, &h, &err) < 0)
		fail_msg("v1 not migrated: %s", err);
	assert_int_equal(fx_int(old, "PRAGMA user_version"), 2);
	rows = fx_rows(old, "SELECT value FROM meta WHERE key = 'schema.version' UNION ALL "
			    "SELECT COUNT(*) FROM meta WHERE key = 'migrated.v1' UNION ALL "
			    "SELECT campaign || ' ' || host_class || ' ' || pinned FROM night UNION ALL "
			    "SELECT host_class || ' ' || mean FROM v_summary");
	assert_string_equal(rows, "2\n1\nold-night unrecorded 1\nunrecorded 100.0\n");
	assert_int_equal(fx_int(old, "SELECT COUNT(*) FROM pragma_integrity_check "
				     "WHERE integrity_check <> 'ok'"), 0);
	/* a new night of a recorded class is not compared with the old one by default */
	f->h = h;
	fx_write(fresh, &(struct fx_campaign){ .campaign = "new-night", .created = "86400",
					      .runs = night_a, .nruns = 4, .cpu_model = "AMD EPYC",
					      .cpus = "2", .mem_bytes = "25276194816",
					      .qemu_version = QEMU_A, .accel = "tcg" });
	night = append(f, fresh);
	text = compare_text(f, night);
	assert_has(text, "previous  none");
	assert_has(text, "pinned    none");
	assert_has(text, "1 night of other classes left out: --any-host");
	free(TAKE_PTR(text));
	text = compare_text_any(f, night, true);
	assert_has(text, "\nprevious  old-night  ");
	assert_has(text, "\npinned    old-night  ");
	assert_has(text, "warning   the pinned night ran on host class unrecorded");
	f->h = keep;
	history__close(h);
	/* opened again: version 2 as it is, nothing migrated twice */
	assert_int_equal(history__open(old, &h, NULL), 0);
	history__close(h);
	assert_int_equal(fx_int(old, "SELECT COUNT(*) FROM night"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summarize),
		cmocka_unit_test_setup_teardown(test_nights, setup, teardown),
		cmocka_unit_test_setup_teardown(test_night_all_failed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_errors, setup, teardown),
		cmocka_unit_test(test_host_class),
		cmocka_unit_test_setup_teardown(test_host_classes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plot_classes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v1, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

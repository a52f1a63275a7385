// SPDX-License-Identifier: GPL-2.0
/*
 * The deck, checked as a person would: campaign databases written through
 * the store (campaign-fixture.h), the deck written from them, then its pages
 * rendered to PNG by pdftoppm and read back: how many, their shape (16:9),
 * ink on each, and the words a reader would look for (pdftotext).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "campaign-fixture.h"
#include "claims.h"
#include "report-deck.h"
#include "spawn.h"
#include "util.h"
#include "verdict.h"

/* A plan with the C1 mix beside the fixture's anon workload. */
static const char mix_plan[] = "[campaign]\nname = twin\nrepetitions = 2\nseed = 7\n"
			       "baseline = classic\n[variant classic]\nlru = classic\n"
			       "[variant mglru]\nlru = mglru\n[memcg wl]\nmemory.max = 64M\n"
			       "[memcg mix]\nmemory.max = 64M\n[workload anon]\ntype = anon-zipf\n"
			       "memcg = wl\nsize = 2x\n[workload mix]\ntype = anon-file-mix\n"
			       "memcg = mix\nanon-size = 0.75x\nfile-size = 1x\n";

static const struct fx_run twin[] = {
	{ 0, 0, 0, RUN_COMPLETED, 100, 1000, NULL },
	{ 1, 0, 1, RUN_COMPLETED, 120, 2000, NULL },
	{ 0, 1, 2, RUN_COMPLETED, 110, 3000, NULL },
	{ 1, 1, 3, RUN_COMPLETED, 130, 4000, NULL },
};

/* C1 planted: classic reclaims some anon, MGLRU none and keeps its anon in the youngest generation.
 */
static void c1_numbers(struct store *st, int64_t id, const struct fx_run *r, int64_t seq)
{
	if (seq < 0) {
		assert_int_equal(store__result(st, id, "mix", "anon_steal_pct",
					       r->variant ? 0 : 40.0 + 0.1 * r->rep, "pct", "none"),
				 0);
		/* the precondition: mix did nearly all of the guest's reclaim */
		assert_int_equal(store__result(st, id, "mix", "steal_attributed", 0.95, "ratio",
					       "none"),
				 0);
		return;
	}
	fx_value(st, id, seq, "vmstat:pgsteal_anon", "-", r->variant ? 0 : 100 * seq + r->rep);
	fx_value(st, id, seq, "vmstat:pgsteal_file", "-", 1000 * seq);
	for (int g = 0; r->variant == 1 && g < 4; g++)
		assert_int_equal(store__lru_gen(st, id, seq, 2, "/mix", 0, 4 + seq + g,
						1000 * (3 - g), g == 3 ? 12000 : 0,
						g == 3 ? 500 : 3000),
				 0);
}

struct fx {
	char dir[64];
	char *measured, *empty, *measured612;
};

static int setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/test-deck.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	f->measured = xasprintf("%s/c1.db", f->dir);
	f->empty = xasprintf("%s/twin.db", f->dir);
	fx_write(f->measured, &(struct fx_campaign){ .plan = mix_plan, .campaign = "c1-fixture",
						     .runs = twin, .nruns = 4,
						     .extra = c1_numbers });
	fx_write(f->empty, &(struct fx_campaign){ .campaign = "twin", .runs = twin, .nruns = 4 });
	f->measured612 = xasprintf("%s/c1-612.db", f->dir);
	fx_write(f->measured612,
		 &(struct fx_campaign){ .plan = mix_plan, .campaign = "c1-fixture-612",
					.kernel = "6.12.57+deb12-cloud-amd64 0123456789ab",
					.runs = twin, .nruns = 4, .extra = c1_numbers });
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char *cmd = xasprintf("rm -rf '%s'", f->dir);
	int r = system(cmd);

	free(cmd);
	free(f->measured);
	free(f->empty);
	free(f->measured612);
	free(f);
	return r == 0 ? 0 : -1;
}

static bool have(const char *tool)
{
	_cleanup_free_ char *p = xasprintf("/usr/bin/%s", tool);

	return access(p, X_OK) == 0;
}

static void skip_without_tools(void)
{
	if (!have("gnuplot") || !have("pdfunite") || !have("pdftoppm") || !have("pdftotext")) {
		print_message("skip: gnuplot and poppler-utils are needed (make deps)\n");
		skip();
	}
}

/* Write the deck of dbs (the same database may come twice) into dir; returns deck__write's. */
static int write_deck(const char *const *dbs, size_t n, const char *dir, bool *ret_measured)
{
	struct store *st[4] = { 0 };
	struct analysis *an[4] = { 0 };
	struct deck_source src[4];
	struct claims_board b;
	int r;

	assert_true(n <= 4);
	for (size_t i = 0; i < n; i++) {
		struct verdict_opts o = VERDICT_OPTS_DEFAULT;

		assert_int_equal(store__open(dbs[i], &st[i]), 0);
		assert_int_equal(analysis__run(st[i], NULL, &o, &an[i]), 0);
		src[i] = (struct deck_source){ .db_path = dbs[i], .st = st[i], .an = an[i] };
	}
	claims__board((const struct analysis *const *)an, n, &b);
	if (ret_measured)
		*ret_measured = b.measured;
	r = deck__write(src, n, &b, dir);
	claims_board__clear(&b);
	for (size_t i = 0; i < n; i++) {
		analysis__free(an[i]);
		store__close(st[i]);
	}
	return r;
}

/* Run argv, its stdout (malloc'd); fails the test unless it exits 0. */
static char *run_out(const char *const *argv)
{
	char *out = NULL;
	struct spawn_opts so = { .ret_stdout = &out };
	int r = spawn_run(argv, &so);

	if (r != 0)
		fail_msg("%s exit %d", argv[0], r);
	return out ? out : xstrdup("");
}

static char *page_text(const char *pdf, int page)
{
	char p[16];
	const char *argv[] = { "pdftotext", "-f", p, "-l", p, "-layout", pdf, "-", NULL };

	snprintf(p, sizeof(p), "%d", page);
	return run_out(argv);
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/*
 * A PNG of pdftoppm (8-bit gray, RGB or RGBA, not interlaced): its size and
 * the share of its pixels with ink (a channel below 200 of 255).
 */
static void png_read(const char *path, uint32_t *ret_w, uint32_t *ret_h, double *ret_ink)
{
	_cleanup_free_ char *buf = NULL;
	_cleanup_free_ unsigned char *idat = NULL, *raw = NULL;
	const unsigned char *p;
	size_t len = 0, ilen = 0, bpp, stride, ink = 0;
	uLongf rlen;
	uint32_t w, h;

	assert_int_equal(read_file(path, 64 << 20, &buf, &len), 0);
	p = (const unsigned char *)buf;
	assert_true(len > 33 && !memcmp(p, "\x89PNG\r\n\x1a\n", 8) && !memcmp(p + 12, "IHDR", 4));
	w = be32(p + 16);
	h = be32(p + 20);
	assert_int_equal(p[24], 8); /* bit depth */
	assert_int_equal(p[28], 0); /* not interlaced */
	bpp = p[25] == 0 ? 1 : p[25] == 2 ? 3 : p[25] == 6 ? 4 : 0;
	if (!bpp)
		fail_msg("%s: PNG colour type %d", path, p[25]);
	for (size_t off = 8; off + 12 <= len;) {
		uint32_t n = be32(p + off);

		if (!memcmp(p + off + 4, "IDAT", 4)) {
			idat = xrealloc(idat, ilen + n, 1);
			memcpy(idat + ilen, p + off + 8, n);
			ilen += n;
		}
		off += 12 + n;
	}
	stride = w * bpp;
	rlen = (uLongf)(h * (stride + 1));
	raw = xcalloc(rlen, 1);
	assert_int_equal(uncompress(raw, &rlen, idat, ilen), Z_OK);
	assert_int_equal(rlen, h * (stride + 1));
	for (uint32_t y = 0; y < h; y++) {
		unsigned char *row = raw + y * (stride + 1), *px = row + 1;
		const unsigned char *up = y ? raw + (y - 1) * (stride + 1) + 1 : NULL;

		for (size_t i = 0; i < stride; i++) {
			int a = i >= bpp ? px[i - bpp] : 0, b = up ? up[i] : 0,
			    c = up && i >= bpp ? up[i - bpp] : 0;

			switch (row[0]) {
			case 1:
				px[i] = (unsigned char)(px[i] + a);
				break;
			case 2:
				px[i] = (unsigned char)(px[i] + b);
				break;
			case 3:
				px[i] = (unsigned char)(px[i] + (a + b) / 2);
				break;
			case 4:
				px[i] = (unsigned char)(px[i] + paeth(a, b, c));
				break;
			}
		}
		for (size_t x = 0; x < w; x++) {
			bool dark = false;

			for (size_t k = 0; k < (bpp == 4 ? 3 : bpp); k++)
				dark |= px[x * bpp + k] < 200;
			ink += dark;
		}
	}
	*ret_w = w;
	*ret_h = h;
	*ret_ink = (double)ink / ((double)w * h);
}

/*
 * The deck as a reader gets it: deck__pages() pages of 960 x 540 pt, each
 * rendered to a 16:9 PNG with ink on it.
 */
static void check_pages(const char *pdf, const char *dir)
{
	_cleanup_free_ char *prefix = xasprintf("%s/png", dir);
	const char *info[] = { "pdfinfo", "-f", "1", "-l", "99", pdf, NULL };
	const char *ppm[] = { "pdftoppm", "-png", "-r", "48", pdf, prefix, NULL };
	_cleanup_free_ char *out = run_out(info);
	_cleanup_free_ char *pages = xasprintf("Pages:           %zu\n", deck__pages());
	size_t sized = 0;

	if (!strstr(out, pages))
		fail_msg("pdfinfo: not %zu pages:\n%s", deck__pages(), out);
	for (const char *p = out; (p = strstr(p, " size: ")); p++) {
		double w = 0, h = 0;

		if (sscanf(p, " size: %lf x %lf pts", &w, &h) == 2 && w == 960 && h == 540)
			sized++;
	}
	assert_int_equal(sized, deck__pages());
	free(run_out(ppm));
	for (size_t i = 1; i <= deck__pages(); i++) {
		_cleanup_free_ char *png = xasprintf("%s-%02zu.png", prefix, i);
		uint32_t w, h;
		double ink;

		png_read(png, &w, &h, &ink);
		/* 48 dpi of 13.333 x 7.5 in */
		assert_int_equal(w, 640);
		assert_int_equal(h, 360);
		if (ink < 0.004)
			fail_msg("page %zu looks blank: %.2f%% of its pixels have ink", i,
				 100 * ink);
		print_message("page %2zu: %ux%u, ink on %.1f%% of the pixels\n", i, w, h,
			      100 * ink);
	}
}

static void assert_has(const char *text, const char *what)
{
	if (!strstr(text, what))
		fail_msg("'%s' not found in:\n%s", what, text);
}

static void test_measured(void **state)
{
	struct fx *f = *state;
	_cleanup_free_ char *dir = xasprintf("%s/measured", f->dir);
	_cleanup_free_ char *pdf = xasprintf("%s/deck.pdf", dir);
	_cleanup_free_ char *gp = xasprintf("%s/deck/page-03-C1.gp", dir);
	const char *dbs[] = { f->measured, f->empty };
	bool measured = false;

	skip_without_tools();
	assert_int_equal(write_deck(dbs, 2, dir, &measured), 0);
	assert_true(measured);
	check_pages(pdf, f->dir);
	{
		_cleanup_free_ char *t1 = page_text(pdf, 1), *t2 = page_text(pdf, 2);
		_cleanup_free_ char *t3 = page_text(pdf, 3), *t11 = page_text(pdf, 11);

		assert_has(t1, "Classic LRU vs MGLRU");
		assert_has(t1, "2 campaigns");
		assert_has(t1, "6.1.0-57");
		assert_null(strstr(t1, "NO CLAIM MEASURED"));
		/* the scoreboard: C1 decided by the planted numbers */
		assert_has(t2, "C1");
		assert_has(t2, "SUPPORTED");
		assert_has(t2, "mix:anon_steal_pct: mglru vs classic -100.0%");
		/* C1's page is the generation table of memcg mix under MGLRU */
		assert_has(t3, "memcg /mix under mglru");
		assert_has(t3, "youngest");
		assert_has(t3, "deciding: mix:anon_steal_pct");
		/* provenance names both databases */
		assert_has(t11, "c1.db");
		assert_has(t11, "twin.db");
	}
	/* each page is a script that re-runs where it lies */
	assert_true(access(gp, R_OK) == 0);
}

/* Two kernels: the scoreboard is claim x kernel, a column per kernel beside the merged verdict. */
static void test_kernels(void **state)
{
	struct fx *f = *state;
	_cleanup_free_ char *dir = xasprintf("%s/kernels", f->dir);
	_cleanup_free_ char *pdf = xasprintf("%s/deck.pdf", dir);
	const char *dbs[] = { f->measured, f->measured612 };

	skip_without_tools();
	assert_int_equal(write_deck(dbs, 2, dir, NULL), 0);
	{
		_cleanup_free_ char *t2 = page_text(pdf, 2);
		const char *c1 = strstr(t2, "C1"), *c2 = c1 ? strstr(c1, "C2") : NULL;
		_cleanup_free_ char *line = c1 && c2 ? strndup(c1, (size_t)(c2 - c1)) : NULL;

		assert_has(t2, "on 6.1.0");
		assert_has(t2, "on 6.12.57");
		/* C1's line: merged, then each kernel's verdict */
		assert_non_null(line);
		assert_has(line, "SUPPORTED");
		if (!strstr(line, "supported") || strstr(strstr(line, "supported") + 1, "supported") == NULL)
			fail_msg("C1's line has not both kernels' verdicts:\n%s", line);
	}
}

static void test_nothing_measured(void **state)
{
	struct fx *f = *state;
	_cleanup_free_ char *dir = xasprintf("%s/empty", f->dir);
	_cleanup_free_ char *pdf = xasprintf("%s/deck.pdf", dir);
	const char *dbs[] = { f->empty };
	bool measured = true;

	skip_without_tools();
	assert_int_equal(write_deck(dbs, 1, dir, &measured), 0);
	assert_false(measured);
	check_pages(pdf, f->dir);
	{
		_cleanup_free_ char *t1 = page_text(pdf, 1), *t2 = page_text(pdf, 2);
		_cleanup_free_ char *t5 = page_text(pdf, 5);

		/* it must not look like a success */
		assert_has(t1, "NO CLAIM MEASURED");
		assert_has(t1, "This deck holds no evidence");
		assert_has(t2, "NO CLAIM MEASURED");
		assert_has(t5, "No measured data for this claim");
		assert_has(t5, "c3.ini");
	}
}

/* Without pdfunite (or gnuplot) the deck fails with -ENOENT and leaves no deck.pdf, not even an old
 * one. */
static void test_missing_tools(void **state)
{
	struct fx *f = *state;
	_cleanup_free_ char *dir = xasprintf("%s/tools", f->dir);
	_cleanup_free_ char *bin = xasprintf("%s/bin", f->dir);
	_cleanup_free_ char *gp = xasprintf("%s/gnuplot", bin);
	_cleanup_free_ char *pdf = xasprintf("%s/deck.pdf", dir);
	_cleanup_free_ char *path = xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	const char *dbs[] = { f->measured };
	struct stat sb;

	skip_without_tools();
	assert_int_equal(write_deck(dbs, 1, dir, NULL), 0);
	assert_int_equal(stat(pdf, &sb), 0);
	assert_int_equal(mkdir_p(bin), 0);
	assert_int_equal(symlink("/usr/bin/gnuplot", gp), 0);
	setenv("PATH", bin, 1); /* gnuplot, no pdfunite */
	assert_int_equal(write_deck(dbs, 1, dir, NULL), -ENOENT);
	assert_int_not_equal(stat(pdf, &sb), 0);
	setenv("PATH", f->dir, 1); /* neither */
	assert_int_equal(write_deck(dbs, 1, dir, NULL), -ENOENT);
	assert_int_not_equal(stat(pdf, &sb), 0);
	setenv("PATH", path, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measured),
		cmocka_unit_test(test_kernels),
		cmocka_unit_test(test_nothing_measured),
		cmocka_unit_test(test_missing_tools),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

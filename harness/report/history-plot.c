// SPDX-License-Identifier: GPL-2.0
/* Trend plots of the history's key metrics across nights, drawn by gnuplot. */
#include "history.h"
#include "spawn.h"
#include "util.h"

#include <sqlite3.h>
#include <string.h>

/*
 * The script is fixed text: the data file, outputs, title and labels come in
 * as gnuplot's ARG1..ARG7 (strings it never parses as commands), the variant
 * names as column headers of the data blocks, and text is noenhanced so '_'
 * stays '_'.
 *   ARG1 data  ARG2 png  ARG3 svg  ARG4 blocks  ARG5 title  ARG6 y label
 *   ARG7 x of the pinned night, or ""
 */
static const char trend_gp[] =
	"# lrubench history trend plot: gnuplot -c trend.gp DATA PNG SVG BLOCKS TITLE YLABEL PIN\n"
	"nb = int(ARG4)\n"
	"set title ARG5 noenhanced\n"
	"set ylabel ARG6 noenhanced\n"
	"set xlabel 'night (UTC start)' noenhanced\n"
	"set key outside right noenhanced\n"
	"set xtics rotate by -30 noenhanced\n"
	"set offsets 0.3, 0.3, 0, 0\n"
	"set grid ytics\n"
	"if (ARG7 ne '') {\n"
	"  set arrow 1 from real(ARG7), graph 0 to real(ARG7), graph 1 nohead dashtype 2\n"
	"  set label 1 'pinned' at real(ARG7), graph 1 offset 0.5, -1 noenhanced\n"
	"}\n"
	"set terminal pngcairo size 960, 540 noenhanced\n"
	"set output ARG2\n"
	"plot for [i=0:nb-1] ARG1 index i using 1:2:($3 == $3 ? $3 : 0):xtic(4) "
	"with yerrorlines title columnheader(1)\n"
	"set terminal svg size 960, 540 noenhanced\n"
	"set output ARG3\n"
	"replot\n"
	"unset output\n";

static void stmt_finalizep(sqlite3_stmt **s)
{
	sqlite3_finalize(*s);
}
#define _cleanup_stmt_ _cleanup_(stmt_finalizep)

/* A file name from a metric: anything but [A-Za-z0-9._-] becomes '_'. */
static char *slug(const char *metric)
{
	char *s = xstrdup(metric);

	for (char *p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
			*p = '_';
	return s;
}

/* A name as a double-quoted gnuplot data column: no quotes or control characters inside. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fputc(*s == '"' || (unsigned char)*s < 0x20 ? '_' : *s, f);
	fputc('"', f);
}

/*
 * Write the data of one metric: a block per variant ("variant" header, then
 * x, mean, sd or NaN, "night label"), blocks apart by two blank lines.
 * *ret_blocks counts them.
 */
static int data_write(sqlite3 *db, const char *plan, const char *metric, const char *path,
		      int *ret_blocks)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	_cleanup_free_ char *last = NULL;
	int blocks = 0, rc, r = 0;
	FILE *f;

	if (sqlite3_prepare_v2(
		    db,
		    "WITH nights AS (SELECT id, started, ROW_NUMBER() OVER (ORDER BY started, id) - 1 "
		    "                  AS x FROM night WHERE plan = ?1), "
		    "     vord AS (SELECT variant, MIN(night_id * 1000 + ord) AS o FROM night_variant "
		    "              WHERE night_id IN (SELECT id FROM nights) GROUP BY variant) "
		    "SELECT s.variant, n.x, s.mean, s.sd, "
		    "  strftime('%m-%d %H:%M', n.started, 'unixepoch') "
		    "FROM summary s JOIN nights n ON n.id = s.night_id "
		    "JOIN vord ON vord.variant = s.variant "
		    "WHERE s.metric = ?2 ORDER BY vord.o, s.variant, n.x",
		    -1, &q, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(q, 1, plan, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, metric, -1, SQLITE_STATIC);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *variant = (const char *)sqlite3_column_text(q, 0);

		if (!last || strcmp(last, variant)) {
			fprintf(f, "%s", blocks ? "\n\n" : "");
			put_quoted(f, variant);
			fputc('\n', f);
			free(last);
			last = xstrdup(variant);
			blocks++;
		}
		fprintf(f, "%d %.17g ", sqlite3_column_int(q, 1), sqlite3_column_double(q, 2));
		if (sqlite3_column_type(q, 3) == SQLITE_NULL)
			fprintf(f, "NaN ");
		else
			fprintf(f, "%.17g ", sqlite3_column_double(q, 3));
		put_quoted(f, (const char *)sqlite3_column_text(q, 4));
		fputc('\n', f);
	}
	if (rc != SQLITE_DONE)
		r = -EIO;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	if (r == 0)
		*ret_blocks = blocks;
	return r;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	int r = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		r = -errno;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	return r;
}

int history__plot(struct history *h, const char *plan, const char *dir, FILE *md,
		  size_t *ret_plots, char **ret_err)
{
	sqlite3 *db = history__db(h);
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	_cleanup_free_ char *gp = xasprintf("%s/trend.gp", dir);
	char pin[32] = "";
	size_t plots = 0;
	int r, rc;

	r = mkdir_p(dir);
	if (r < 0)
		return r;
	r = write_text(gp, trend_gp);
	if (r < 0)
		return r;
	if (sqlite3_prepare_v2(db,
			       "SELECT x FROM (SELECT pinned, ROW_NUMBER() OVER (ORDER BY started, id) "
			       "- 1 AS x FROM night WHERE plan = ?) WHERE pinned",
			       -1, &q, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(q, 1, plan, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		snprintf(pin, sizeof(pin), "%d", sqlite3_column_int(q, 0));
	sqlite3_finalize(TAKE_PTR(q));

	if (sqlite3_prepare_v2(db,
			       "SELECT s.metric, MAX(s.unit), MAX(s.better) FROM summary s "
			       "JOIN night n ON n.id = s.night_id WHERE n.plan = ? AND s.key "
			       "GROUP BY s.metric ORDER BY s.metric",
			       -1, &q, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(q, 1, plan, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *metric = (const char *)sqlite3_column_text(q, 0);
		const char *unit = (const char *)sqlite3_column_text(q, 1);
		const char *better = (const char *)sqlite3_column_text(q, 2);
		_cleanup_free_ char *base = slug(metric);
		_cleanup_free_ char *dat = xasprintf("%s/%s.dat", dir, base);
		_cleanup_free_ char *png = xasprintf("%s/%s.png", dir, base);
		_cleanup_free_ char *svg = xasprintf("%s/%s.svg", dir, base);
		_cleanup_free_ char *title = xasprintf("%s: %s (%s is better), mean ± sd per night",
						       plan, metric, better);
		_cleanup_free_ char *err = NULL;
		char nb[16];
		int blocks = 0;

		r = data_write(db, plan, metric, dat, &blocks);
		if (r < 0)
			return r;
		if (!blocks)
			continue;
		snprintf(nb, sizeof(nb), "%d", blocks);
		{
			const char *argv[] = { "gnuplot", "-c", gp, dat, png, svg, nb,
					       title, unit,	pin, NULL };
			struct spawn_opts so = { .ret_stderr = &err };

			r = spawn_run(argv, &so);
		}
		if (r == 127 && err && strstr(err, "exec gnuplot"))
			return -ENOENT;
		if (r != 0) {
			if (ret_err)
				*ret_err = xasprintf("gnuplot on %s exited %d: %s", dat, r,
						     err ? strstrip(err) : "");
			return r < 0 ? r : -EIO;
		}
		if (md)
			fprintf(md, "![%s](%s.svg)\n\n", metric, base);
		plots++;
	}
	if (rc != SQLITE_DONE)
		return -EIO;
	*ret_plots = plots;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Drawing a deck page (report-deck-priv.h): a page's script begun, labels,
 * legends and the empty plot under them, rendered in slide mode through
 * plot-render.c; text folding and fitting. Used by the text pages
 * (report-deck.c) and the claim pages (report-deck-claims.c).
 */
#include "report-deck-priv.h"
#include "escape.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *deck_state_color(enum claim_state s)
{
	switch (s) {
	case CLAIM_SUPPORTED:
		return "#009E73";
	case CLAIM_CONTRADICTED:
		return RED;
	case CLAIM_KERNEL_DEPENDENT:
		return "#E69F00";
	case CLAIM_NOT_TESTED:
		return "#999999";
	case CLAIM_INCONCLUSIVE:
		break;
	}
	return "#666666";
}

char *deck_upper(const char *s)
{
	char *u = xstrdup(s);

	for (char *p = u; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	return u;
}

char *deck_wrap(const char *s, size_t width, size_t lines)
{
	_cleanup_free_ char *copy = xstrdup(s);
	char *out = NULL, *save = NULL;
	size_t len = 0, col = 0, line = 1;
	FILE *f = open_memstream(&out, &len);

	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		size_t wl = strlen(w);

		if (col && col + 1 + wl > width) {
			if (line == lines) {
				fputs(" ...", f);
				break;
			}
			fputc('\n', f);
			line++;
			col = 0;
		}
		if (wl > width) { /* a word longer than a line: cut it */
			fprintf(f, "%s%.*s...", col ? " " : "", (int)(width - 3), w);
			col = width;
			continue;
		}
		fprintf(f, "%s%s", col ? " " : "", w);
		col += (col ? 1 : 0) + wl;
	}
	fclose(f);
	return out;
}

size_t deck_fit(double frac, int pt)
{
	return (size_t)(frac * 2700 / pt);
}

void deck__page_begin(struct deck *d, struct page *pg, const char *what)
{
	*pg = (struct page){ .tag = 100, .obj = 200 };
	pg->name = xasprintf("page-%02zu-%s", d->page + 1, what);
	pg->b = open_memstream(&pg->body, &pg->len);
}

void deck_page_drop(struct page *pg)
{
	if (pg->b)
		fclose(pg->b);
	free(pg->body);
	free(pg->name);
	*pg = (struct page){ 0 };
}

/* Render the page; a failure is counted in the plot set (and fails the deck). */
int deck__page_end(struct deck *d, struct page *pg, const char *title)
{
	int r;

	fclose(pg->b);
	pg->b = NULL;
	r = plot_render(&d->pc, pg->name, "", title, pg->body, 0, 0);
	d->page++;
	deck_page_drop(pg);
	return r;
}

/* A label at screen x, y; just is left, center or right. */
void deck_text_at(struct page *pg, double x, double y, const char *just, int pt, bool bold,
		    const char *color, const char *text)
{
	fprintf(pg->b, "set label %d ", pg->tag++);
	escape_gnuplot(pg->b, text);
	fprintf(pg->b, " at screen %.4f, screen %.4f %s font '%s,%d' tc rgb '%s' front\n", x, y,
		just, bold ? "sans:Bold" : "sans", pt, color);
}

/* Nothing but the labels: an empty plot over the whole page. */
void deck_legend(struct page *pg, double y, const char *const *names, const char *const *colors,
		 size_t n)
{
	const double sw = 0.02, gap = 0.008, sep = 0.035;
	int pt = 24;
	double total, x;

	for (;; pt -= 2) { /* one row: smaller text when the names are long */
		total = 0;
		for (size_t i = 0; i < n; i++)
			total += sw + gap + (double)strlen(names[i]) * pt / 2700 + (i ? sep : 0);
		if (total <= 0.94 || pt <= 16)
			break;
	}
	x = 0.5 - total / 2;
	for (size_t i = 0; i < n; i++) {
		fprintf(pg->b,
			"set object %d rect from screen %.4f, screen %.4f to screen %.4f, "
			"screen %.4f fc rgb '%s' fillstyle solid 1.0 noborder front\n",
			pg->obj++, x, y - 0.014, x + sw, y + 0.014, colors[i]);
		x += sw + gap;
		deck_text_at(pg, x, y, "left", pt, false, INK, names[i]);
		x += (double)strlen(names[i]) * pt / 2700 + sep;
	}
}

void deck_text_only(struct page *pg)
{
	fprintf(pg->b, "unset border\nunset tics\nunset key\nunset grid\n"
		       "set lmargin at screen 0\nset rmargin at screen 1\n"
		       "set tmargin at screen 1\nset bmargin at screen 0\n"
		       "set xrange [0:1]\nset yrange [0:1]\nplot -1 notitle\n");
}

/* A meta value of the loaded campaign, or def when it has none or an empty one (malloc'd). */
char *deck_meta(const struct report_data *d, const char *key, const char *def)
{
	const char *v = report_data__meta(d, key);

	return xstrdup(v && *v ? v : def);
}

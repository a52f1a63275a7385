// SPDX-License-Identifier: GPL-2.0
/*
 * Drawing for the plot kinds and the deck (plot-kinds.h): the palette, the
 * house style, gnuplot run on a script per image, the plots directory, and
 * what several kinds draw from the loaded campaign (a run's time origin and
 * its phase markers).
 */
#include "plot-kinds.h"
#include "escape.h"
#include "spawn.h"
#include "util.h"
#include "verdict.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

const char *plot_color(size_t i)
{
	/* Okabe and Ito (2008): blue, orange, bluish green, reddish purple, sky blue,
	 * vermillion, yellow, black; yellow last, it is faint on white. */
	static const char *const c[] = { "#0072B2", "#E69F00", "#009E73", "#CC79A7",
					 "#56B4E9", "#D55E00", "#000000", "#F0E442" };

	return c[i % ARRAY_SIZE(c)];
}

FILE *plot_data(struct plot_ctx *pc, const char *name)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", pc->set->dir, name);

	return fopen(path, "we");
}

/* The house style, after reset: the same for every kind and terminal. */
static const char style[] = "set encoding utf8\n"
			    "set border lw 1.5\n"
			    "set grid ytics lc rgb '#c8c8c8' lw 1 dt 2\n"
			    "set key noenhanced\n"
			    "set tics nomirror\n"
			    "set style fill solid 0.85 border lc rgb '#333333'\n";

static bool file_ok(const char *dir, const char *name, const char *ext)
{
	_cleanup_free_ char *p = xasprintf("%s/%s.%s", dir, name, ext);
	struct stat sb;

	return stat(p, &sb) == 0 && sb.st_size > 0;
}

static void fail_note(struct plot_ctx *pc, const char *name, const char *why)
{
	pc->set->failed++;
	if (!pc->set->first_error)
		pc->set->first_error = xasprintf("%s: %s", name, why);
}

int plot_render(struct plot_ctx *pc, const char *name, const char *group, const char *title,
		const char *body, int width, int height)
{
	static const struct plot_term {
		const char *ext, *term;
	} terms[] = {
		{ "png", "pngcairo size %d,%d font 'sans,16' linewidth 1.5 noenhanced" },
		{ "svg", "svg size %d,%d dynamic font 'sans,16' linewidth 1.5 noenhanced "
			 "background '#ffffff'" },
		{ "pdf", "pdfcairo size %gin,%gin font 'sans,9' linewidth 1.5 noenhanced" },
	}, slide = { "pdf", "pdfcairo size %gin,%gin font 'sans,%d' linewidth 2 noenhanced" };
	_cleanup_free_ char *script = xasprintf("%s.gp", name);
	_cleanup_free_ char *path = xasprintf("%s/%s", pc->set->dir, script);
	_cleanup_free_ char *err = NULL, *out = NULL;
	const char *argv[] = { "gnuplot", script, NULL };
	struct spawn_opts so = { .cwd = pc->set->dir, .ret_stdout = &out, .ret_stderr = &err };
	size_t nterms = pc->slide ? 1 : ARRAY_SIZE(terms);
	FILE *f;
	int r;

	if (pc->gnuplot_missing)
		return -ENOENT;
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fprintf(f, "# lrubench %s: %s %s. Re-run in this directory: gnuplot %s\n",
		LRUBENCH_VERSION, pc->kind, pc->slide ? "page" : "plot", script);
	for (size_t i = 0; i < nterms; i++) {
		const struct plot_term *t = pc->slide ? &slide : &terms[i];

		fprintf(f, "\nreset\nset terminal ");
		if (pc->slide)
			fprintf(f, t->term, PLOT_SLIDE_W_IN, PLOT_SLIDE_H_IN, PLOT_SLIDE_FONT);
		else if (!strcmp(t->ext, "pdf"))
			fprintf(f, t->term, width / 128.0, height / 128.0);
		else
			fprintf(f, t->term, width, height);
		fprintf(f, "\nset output \"%s.%s\"\n%s%s\nunset output\n", name, t->ext, style,
			body);
	}
	if (fclose(f) != 0)
		return -errno;
	r = spawn_run(argv, &so);
	/* spawn's child exits 127 when exec fails */
	if (r == -ENOENT || (r == 127 && err && strstr(err, "exec gnuplot"))) {
		pc->gnuplot_missing = true;
		fail_note(pc, name, "gnuplot not found");
		return -ENOENT;
	}
	if (r != 0 || !file_ok(pc->set->dir, name, "pdf") ||
	    (!pc->slide && (!file_ok(pc->set->dir, name, "png") ||
			    !file_ok(pc->set->dir, name, "svg")))) {
		_cleanup_free_ char *why =
			xasprintf("gnuplot exit %d: %s", r, err ? strstrip(err) : "no output");

		fail_note(pc, name, why);
		return -EIO;
	}
	pc->set->img = xrealloc(pc->set->img, pc->set->n + 1, sizeof(*pc->set->img));
	pc->set->img[pc->set->n++] = (struct plot_image){
		.kind = xstrdup(pc->kind),
		.group = xstrdup(group ? group : ""),
		.name = xstrdup(name),
		.title = xstrdup(title),
	};
	return 0;
}

int plot_variant_mean(const struct dataset *ds, const struct ds_row *r, size_t v, double *ret_mean,
		      double *ret_half)
{
	struct stats_summary s;

	if (!r->n[v] || stats__summary(ds_vals(ds, r, v), r->n[v], &s) < 0)
		return -ENODATA;
	*ret_mean = s.mean;
	*ret_half = stats__mean_ci_half(s.n, s.sd, 0.95);
	return 0;
}

int64_t plot_run_origin(struct plot_ctx *pc, int64_t run_id)
{
	const struct report_run_data *r = report_data__run(pc->data, run_id);

	return r ? r->origin : 0;
}

void plot_phase_marks(struct plot_ctx *pc, FILE *body, int64_t run_id, int64_t origin,
		      const char *color, bool labels)
{
	const struct report_run_data *r = report_data__run(pc->data, run_id);

	for (size_t i = 0; r && i < r->nphases; i++) {
		const struct store_event_row *e = &r->phases[i];
		double x = (double)(e->t_ns - origin) / 1e9;
		_cleanup_free_ char *word = xstrdup(e->text);
		_cleanup_free_ char *label = NULL;

		word[strcspn(word, " ")] = '\0';
		if (!strcmp(e->kind, "workload-start"))
			label = xasprintf("%s start", word);
		else if (!strcmp(e->kind, "workload-exit"))
			label = xasprintf("%s exit", word);
		else if (!strcmp(e->kind, "oom"))
			label = xstrdup("OOM kill");
		else
			label = xstrdup(word);
		fprintf(body,
			"set arrow from %.3f, graph 0 to %.3f, graph 1 nohead dt 3 lw 1.5 "
			"lc rgb '%s' back\n",
			x, x, color);
		if (!labels)
			continue;
		fprintf(body, "set label ");
		escape_gnuplot(body, label);
		fprintf(body,
			" at %.3f, graph 0.98 rotate by 90 right offset -0.6,0 "
			"font ',12' tc rgb '%s' back\n",
			x, color);
	}
}

/* Remove what an earlier rendering left (its images, data and scripts), nothing else. */
static void clear_old(const char *dir)
{
	static const char *const ext[] = { ".png", ".svg", ".pdf", ".dat", ".gp" };
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		for (size_t i = 0; i < ARRAY_SIZE(ext); i++) {
			size_t el = strlen(ext[i]);

			if (e->d_type == DT_REG && len > el &&
			    !strcmp(e->d_name + len - el, ext[i])) {
				unlinkat(dirfd(d), e->d_name, 0);
				break;
			}
		}
	}
	closedir(d);
}

int plot_dir_prepare(const char *dir)
{
	int r = mkdir_p(dir);

	if (r < 0)
		return r;
	clear_old(dir);
	return 0;
}

const char *plot_set__find(const struct plot_set *s, const char *part)
{
	for (size_t i = 0; i < s->n; i++)
		if (strstr(s->img[i].name, part))
			return s->img[i].name;
	return NULL;
}

void plot_set__clear(struct plot_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->img[i].kind);
		free(s->img[i].group);
		free(s->img[i].name);
		free(s->img[i].title);
	}
	free(s->img);
	free(s->dir);
	free(s->first_error);
	memset(s, 0, sizeof(*s));
}

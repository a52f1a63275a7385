// SPDX-License-Identifier: GPL-2.0
#include "wl-opts.h"

#include "util.h"
#include "wl.h"

#include <string.h>

static const char *prog_name(const struct workload_def *w)
{
	const char *slash = strrchr(w->binary, '/');

	return slash ? slash + 1 : w->binary;
}

/* The value at p's field of opts. */
static void opt_store(const struct wl_param *p, void *opts, const union wl_value *v)
{
	char *dst = (char *)opts + p->off;

	switch (p->type) {
	case WLP_FRACTION:
		memcpy(dst, &v->d, sizeof(v->d));
		break;
	case WLP_CHOICE:
		memcpy(dst, &v->s, sizeof(v->s));
		break;
	case WLP_SIZE:
	case WLP_U64:
	case WLP_DURATION:
		memcpy(dst, &v->u, sizeof(v->u));
		break;
	}
}

/* The parameter of w named by the len bytes at name, or NULL. */
static const struct wl_param *param_n(const struct workload_def *w, const char *name, size_t len)
{
	for (const struct wl_param *p = w->params; p->name; p++)
		if (strlen(p->name) == len && !strncmp(p->name, name, len))
			return p;
	return NULL;
}

static const char *const type_word[] = {
	[WLP_SIZE] = "BYTES", [WLP_U64] = "N", [WLP_FRACTION] = "NUMBER",
	[WLP_DURATION] = "DURATION", [WLP_CHOICE] = "WORD",
};

/* text on lines of at most 78 columns, each indented by two spaces */
static void print_wrapped(FILE *f, const char *text)
{
	while (*text) {
		size_t len = strlen(text);

		if (len > 76) {
			len = 76;
			while (len > 0 && text[len] != ' ')
				len--;
			if (!len)
				len = strcspn(text, " ");
		}
		fprintf(f, "  %.*s\n", (int)len, text);
		text += len;
		while (*text == ' ')
			text++;
	}
}

void wl_opts_usage(const struct workload_def *w, FILE *f)
{
	_cleanup_free_ char *keys = xstrdup("");

	fprintf(f, "usage: %s --NAME=VALUE...\n", prog_name(w));
	print_wrapped(f, w->description);
	for (const struct wl_param *p = w->params; p->name; p++) {
		_cleanup_free_ char *opt = xasprintf("--%s=%s", p->name, type_word[p->type]);

		fprintf(f, "  %-22s %s", opt, p->help);
		if (p->type == WLP_FRACTION)
			fprintf(f, "; %g to %g", p->min, p->max);
		if (p->type == WLP_CHOICE)
			fprintf(f, "; %s", p->choices);
		if (p->def)
			fprintf(f, "; default %s\n", p->def);
		else if (p->guest_def)
			fprintf(f, "; by hand %s\n", p->guest_def);
		else
			fprintf(f, wl_param__required(p) ? "; required\n" : "; optional\n");
	}
	if (w->scratch)
		fprintf(f, "  %-22s its files' directory (lrubench: /scratch/NAME); required\n",
			"--dir=PATH");
	fprintf(f, "It prints 'result KEY VALUE UNIT BETTER' lines, KEY:\n");
	for (const struct wl_metric *m = w->metrics; m->key; m++) {
		char *more = xasprintf("%s%s%s", keys, *keys ? " " : "", m->key);

		free(keys);
		keys = more;
	}
	print_wrapped(f, keys);
}

int wl_opts_parse(const struct workload_def *w, int argc, char **argv, void *opts)
{
	const char *prog = prog_name(w), *dir = NULL;
	size_t nparams = 0;
	_cleanup_free_ bool *seen = NULL;

	while (w->params[nparams].name)
		nparams++;
	seen = xcalloc(nparams + 1, sizeof(bool));
	for (const struct wl_param *p = w->params; p->name; p++) {
		const char *d = p->def ? p->def : p->guest_def;
		union wl_value v;

		if (!d)
			continue;
		if (wl_param__parse(p, d, &v) < 0) {
			fprintf(stderr, "%s: its default '%s' of --%s does not parse\n", prog, d,
				p->name);
			return -EINVAL;
		}
		opt_store(p, opts, &v);
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq;
		const struct wl_param *p;
		union wl_value v;
		size_t len;

		if (!strcmp(a, "--help")) {
			wl_opts_usage(w, stdout);
			return 1;
		}
		if (strncmp(a, "--", 2) || !(eq = strchr(a, '='))) {
			fprintf(stderr, "%s: expected --name=value, got '%s'\n", prog, a);
			return -EINVAL;
		}
		len = (size_t)(eq - a - 2);
		if (w->scratch && len == 3 && !strncmp(a + 2, "dir", 3)) {
			dir = eq + 1;
			continue;
		}
		p = param_n(w, a + 2, len);
		if (!p) {
			fprintf(stderr, "%s: unknown option '%.*s'\n", prog, (int)(eq - a), a);
			return -EINVAL;
		}
		if (wl_param__parse(p, eq + 1, &v) < 0) {
			fprintf(stderr, "%s: bad value '%s' for --%s%s%s\n", prog, eq + 1, p->name,
				p->choices ? " " : "", p->choices ? p->choices : "");
			return -EINVAL;
		}
		opt_store(p, opts, &v);
		seen[p - w->params] = true;
	}
	for (size_t j = 0; j < nparams; j++) {
		if (wl_param__required(&w->params[j]) && !seen[j]) {
			fprintf(stderr, "%s: --%s is required\n", prog, w->params[j].name);
			return -EINVAL;
		}
	}
	if (w->scratch && !dir) {
		fprintf(stderr, "%s: --dir is required\n", prog);
		return -EINVAL;
	}
	if (w->scratch)
		memcpy((char *)opts + w->dir_off, &dir, sizeof(dir));
	wl_result_def(w);
	return 0;
}

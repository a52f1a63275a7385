// SPDX-License-Identifier: GPL-2.0
#include "wl-opts.h"

#include "util.h"

#include <string.h>

static bool choice_ok(const char *choices, const char *v)
{
	size_t n = strlen(v);

	for (const char *c = choices; *c;) {
		size_t len = strcspn(c, "|");

		if (len == n && !strncmp(c, v, n))
			return true;
		c += len + (c[len] == '|');
	}
	return false;
}

static int opt_set(const struct wl_opt *o, const char *v)
{
	switch (o->type) {
	case WL_OPT_SIZE:
		return parse_size(v, o->dst);
	case WL_OPT_U64:
		return parse_u64(v, o->dst);
	case WL_OPT_DURATION:
		return parse_duration_ms(v, o->dst);
	case WL_OPT_DOUBLE: {
		double d;

		if (parse_double(v, &d) < 0 || !(d >= o->min && d <= o->max))
			return -EINVAL;
		*(double *)o->dst = d;
		return 0;
	}
	case WL_OPT_STRING:
		if (o->choices && !choice_ok(o->choices, v))
			return -EINVAL;
		*(const char **)o->dst = v;
		return 0;
	}
	return -EINVAL;
}

int wl_opts_parse(const char *prog, int argc, char **argv, const struct wl_opt *opts)
{
	size_t nopts = 0;
	_cleanup_free_ bool *seen = NULL;

	while (opts[nopts].name)
		nopts++;
	seen = xcalloc(nopts + 1, sizeof(bool));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq;
		size_t j;

		if (strncmp(a, "--", 2) || !(eq = strchr(a, '='))) {
			fprintf(stderr, "%s: expected --name=value, got '%s'\n", prog, a);
			return -EINVAL;
		}
		for (j = 0; j < nopts; j++)
			if (strlen(opts[j].name) == (size_t)(eq - a - 2) &&
			    !strncmp(opts[j].name, a + 2, (size_t)(eq - a - 2)))
				break;
		if (j == nopts) {
			fprintf(stderr, "%s: unknown option '%.*s'\n", prog, (int)(eq - a), a);
			return -EINVAL;
		}
		if (opt_set(&opts[j], eq + 1) < 0) {
			fprintf(stderr, "%s: bad value '%s' for --%s%s%s\n", prog, eq + 1,
				opts[j].name, opts[j].choices ? " " : "",
				opts[j].choices ? opts[j].choices : "");
			return -EINVAL;
		}
		seen[j] = true;
	}
	for (size_t j = 0; j < nopts; j++) {
		if (opts[j].required && !seen[j]) {
			fprintf(stderr, "%s: --%s is required\n", prog, opts[j].name);
			return -EINVAL;
		}
	}
	return 0;
}

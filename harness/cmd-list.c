// SPDX-License-Identifier: GPL-2.0
#include "catalogue.h"
#include "cmd.h"
#include "util.h"

static const char *type_name(enum wl_param_type t)
{
	switch (t) {
	case WLP_SIZE:
		return "size";
	case WLP_U64:
		return "count";
	case WLP_FRACTION:
		return "number";
	case WLP_DURATION:
		return "duration";
	}
	return "?";
}

int cmd_list(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (size_t i = 0; workload_catalogue[i]; i++) {
		const struct workload_def *w = workload_catalogue[i];

		printf("%s  [%s]\n  %s\n  parameters:\n", w->name, w->claims, w->description);
		for (const struct wl_param *p = w->params; p->name; p++)
			printf("    %-14s %-8s %-10s %s\n", p->name, type_name(p->type),
			       p->def ? p->def : "-", p->help);
		printf("  results:\n");
		for (const struct wl_metric *m = w->metrics; m->key; m++)
			printf("    %-14s %-8s %-7s %s\n", m->key, m->unit, m->better, m->help);
		printf("\n");
	}
	return 0;
}

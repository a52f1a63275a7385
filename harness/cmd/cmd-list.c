// SPDX-License-Identifier: GPL-2.0
#include "catalogue.h"
#include "cmd.h"
#include "util.h"

#include <string.h>

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
	case WLP_CHOICE:
		return "choice";
	}
	return "?";
}

/* One line per result: TYPE KEY UNIT BETTER ONLY ("-" when always reported). For scripts. */
static void list_results(void)
{
	for (size_t i = 0; workload_catalogue[i]; i++) {
		const struct workload_def *w = workload_catalogue[i];

		for (const struct wl_metric *m = w->metrics; m->key; m++)
			printf("%s %s %s %s %s\n", w->name, m->key, m->unit, m->better,
			       m->only ? m->only : "-");
	}
}

int cmd_list(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--results")) {
		list_results();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--markdown")) {
		workload_catalogue_markdown(stdout);
		return 0;
	}
	if (argc > 1) {
		bool help = !strcmp(argv[1], "--help");

		fprintf(help ? stdout : stderr,
			"usage: lrubench list [--results | --markdown]\n"
			"  the workload catalogue; --results: one line per result\n"
			"  (TYPE KEY UNIT BETTER ONLY) for scripts; --markdown: the\n"
			"  README's table of workloads\n");
		return help ? 0 : 2;
	}
	for (size_t i = 0; workload_catalogue[i]; i++) {
		const struct workload_def *w = workload_catalogue[i];

		printf("%s  [%s]\n  %s\n", w->name, w->claims, w->description);
		if (w->scratch || w->tools) {
			printf("  needs:");
			if (w->scratch)
				printf(" scratch disk (--dir=/scratch/NAME)");
			for (const char *const *t = w->tools; t && *t; t++)
				printf(" %s (tools disk)", *t);
			printf("\n");
		}
		printf("  parameters:\n");
		for (const struct wl_param *p = w->params; p->name; p++) {
			printf("    %-14s %-8s %-10s %s", p->name, type_name(p->type),
			       p->def ? p->def : "-", p->help);
			if (p->type == WLP_CHOICE)
				printf(" (%s)", p->choices);
			printf("\n");
		}
		printf("  results:\n");
		for (const struct wl_metric *m = w->metrics; m->key; m++) {
			printf("    %-18s %-8s %-7s %s", m->key, m->unit, m->better, m->help);
			if (m->only)
				printf(" (%s only)", m->only);
			printf("\n");
		}
		printf("\n");
	}
	return 0;
}

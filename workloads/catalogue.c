// SPDX-License-Identifier: GPL-2.0
#include "catalogue.h"

#include <string.h>

/*
 * The list: workloads/WORKLOADS.def, whose row WORKLOAD(id) names the
 * definition wl_def_ID of workloads/wl-ID.c. A test builds this file with a
 * list of its own (WORKLOADS_LIST), as one row more would be.
 */
#ifndef WORKLOADS_LIST
#define WORKLOADS_LIST "WORKLOADS.def"
#endif

#define WORKLOAD(id) extern const struct workload_def wl_def_##id;
#include WORKLOADS_LIST
#undef WORKLOAD

const struct workload_def *const workload_catalogue[] = {
#define WORKLOAD(id) &wl_def_##id,
#include WORKLOADS_LIST
#undef WORKLOAD
	NULL,
};

const struct workload_def *workload_find(const char *name)
{
	for (size_t i = 0; workload_catalogue[i]; i++)
		if (!strcmp(workload_catalogue[i]->name, name))
			return workload_catalogue[i];
	return NULL;
}

/* s in a Markdown table cell: '|' escaped */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void workload_catalogue_markdown(FILE *f)
{
	fprintf(f, "| workload | claims | what it does |\n|---|---|---|\n");
	for (size_t i = 0; workload_catalogue[i]; i++) {
		const struct workload_def *w = workload_catalogue[i];

		fprintf(f, "| `%s` | ", w->name);
		md_cell(f, w->claims);
		fprintf(f, " | ");
		md_cell(f, w->description);
		fprintf(f, " |\n");
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the plan parser (plan.c): any bytes either parse into
 * a plan whose invariants hold or fail with a "file:line: ..." message.
 * Built and run by 'make fuzz'.
 */
#include "plan.h"
#include "catalogue.h"
#include "util.h"

#include <string.h>

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c))                                                                          \
			abort();                                                                   \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xcalloc(1, size + 1);
	struct plan *p = NULL;
	char *err = NULL;

	memcpy(text, data, size); /* a NUL inside ends the text, as read_file's callers see it */
	if (plan__parse("fuzz.ini", text, &p, &err) == 0) {
		CHECK(p && !err && p->nvariants > 0 && p->nworkloads > 0 && p->baseline);
		for (size_t i = 0; i < p->nworkloads; i++)
			CHECK(p->workloads[i].def && p->workloads[i].memcg);
		for (size_t i = 0; i < p->nvariants; i++)
			CHECK(p->variants[i].lru_enabled <= 7);
		plan__free(p);
	} else {
		CHECK(!p && err && !strncmp(err, "fuzz.ini:", 9));
		free(err);
	}
	free(text);
	return 0;
}

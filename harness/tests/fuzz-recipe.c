// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the kernel recipe parser (kbuild-recipe.c): any bytes
 * either parse into a recipe whose invariants hold or fail with a
 * "file:line: ..." message. Built and run by 'make fuzz'.
 */
#include "kernel-build.h"
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
	struct kbuild_recipe *r = NULL;
	char *err = NULL;

	memcpy(text, data, size); /* a NUL inside ends the text, as read_file's callers see it */
	if (kbuild_recipe__parse("/k/fuzz.ini", text, &r, &err) == 0) {
		CHECK(r && !err && r->name && !strcmp(r->name, "fuzz") && r->source);
		/* A git source always has its ref, and only a git source has one. */
		CHECK((r->source_kind == KBUILD_SRC_GIT) == (r->ref != NULL));
		/* Values never start with '-': they reach git and patch as argv elements. */
		CHECK(r->source[0] != '-' && (!r->ref || r->ref[0] != '-'));
		for (size_t i = 0; i < r->npatches; i++) {
			const struct kbuild_patch *p = &r->patches[i];

			CHECK(p->spec && p->line > 0 && (p->range ? !p->path : p->path != NULL));
			CHECK(p->range ? strstr(p->spec, "..") != NULL : p->path[0] == '/');
		}
		for (size_t i = 0; i < r->nfragments; i++)
			CHECK(r->fragments[i].path && r->fragments[i].path[0] == '/');
		CHECK((r->base == KBUILD_BASE_FILE) == (r->base_path != NULL));
		kbuild_recipe__free(r);
	} else {
		CHECK(!r && err && !strncmp(err, "/k/fuzz.ini", 11));
		free(err);
	}
	free(text);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The plan parser's core, which every part of the parser uses: its error
 * message ("path:line: ..."), where a key was given, and the key-value lists
 * the plan holds (sysctls, memcg files, workload parameters).
 */
#include "plan-priv.h"
#include "ini.h"
#include "util.h"

#include <stdarg.h>

int parser__fail(struct parser *ps, const char *fmt, ...)
{
	_cleanup_free_ char *safe = NULL;
	va_list ap;

	va_start(ap, fmt);
	safe = ini__vmsg(fmt, ap);
	va_end(ap);
	ps->err = xasprintf("%s:%d: %s", ps->path, ps->line, safe);
	return -EINVAL;
}

/* The line where key was given in section sec ("memcg wl"), or 0. */
int parser__seen_line(const struct parser *ps, const char *sec, const char *key)
{
	return (int)ini__line_of(&ps->ini, sec, key);
}

void kv__add(struct kv **kv, size_t *n, const char *k, const char *v)
{
	*kv = xrealloc(*kv, *n + 1, sizeof(**kv));
	(*kv)[*n].key = xstrdup(k);
	(*kv)[*n].value = xstrdup(v);
	(*n)++;
}

void kv__free(struct kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

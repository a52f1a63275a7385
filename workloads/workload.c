// SPDX-License-Identifier: GPL-2.0
/* A workload definition's lookups and value parsing: linked by the host and the guest binaries. */
#include "workload.h"

#include "util.h"

#include <string.h>

const struct wl_param *workload_param(const struct workload_def *w, const char *name)
{
	for (const struct wl_param *p = w->params; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

const struct wl_metric *workload_metric(const struct workload_def *w, const char *key)
{
	for (const struct wl_metric *m = w->metrics; m->key; m++)
		if (!strcmp(m->key, key))
			return m;
	return NULL;
}

bool wl_param__choice_ok(const struct wl_param *p, const char *word)
{
	size_t n = strlen(word);

	if (p->type != WLP_CHOICE || !p->choices || !n)
		return false;
	for (const char *c = p->choices; *c;) {
		size_t len = strcspn(c, "|");

		if (len == n && !strncmp(c, word, n))
			return true;
		c += len;
		if (*c == '|')
			c++;
	}
	return false;
}

bool wl_param__required(const struct wl_param *p)
{
	return !p->def && p->type != WLP_DURATION && p->type != WLP_U64;
}

int wl_param__parse(const struct wl_param *p, const char *v, union wl_value *ret)
{
	union wl_value x = { 0 };
	int r = -EINVAL;

	switch (p->type) {
	case WLP_SIZE:
		r = parse_size(v, &x.u);
		break;
	case WLP_U64:
		r = parse_u64(v, &x.u);
		break;
	case WLP_DURATION:
		r = parse_duration_ms(v, &x.u);
		break;
	case WLP_FRACTION:
		r = parse_double(v, &x.d);
		if (r == 0 && !(x.d >= p->min && x.d <= p->max))
			r = -EINVAL;
		break;
	case WLP_CHOICE:
		r = wl_param__choice_ok(p, v) ? 0 : -EINVAL;
		x.s = v;
		break;
	}
	if (r < 0)
		return r;
	*ret = x;
	return 0;
}

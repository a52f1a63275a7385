// SPDX-License-Identifier: GPL-2.0
/* A workload's NUMA placement: its syntax (mempolicy.h). */
#include "mempolicy.h"

#include <errno.h>
#include <linux/mempolicy.h>
#include <stdlib.h>
#include <string.h>

/* One node number at *s, below MEMPOLICY_NODES_MAX. */
static int node_at(const char **s, unsigned *ret)
{
	char *end;
	unsigned long v;

	if (**s < '0' || **s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(*s, &end, 10);
	if (errno || v >= MEMPOLICY_NODES_MAX)
		return -EINVAL;
	*s = end;
	*ret = (unsigned)v;
	return 0;
}

int mempolicy_node_list(const char *s, uint64_t *ret)
{
	uint64_t nodes = 0;

	for (;;) {
		unsigned lo, hi;

		if (node_at(&s, &lo) < 0)
			return -EINVAL;
		hi = lo;
		if (*s == '-') {
			s++;
			if (node_at(&s, &hi) < 0 || hi < lo)
				return -EINVAL;
		}
		for (unsigned n = lo; n <= hi; n++)
			nodes |= 1ull << n;
		if (!*s)
			break;
		if (*s++ != ',')
			return -EINVAL;
	}
	*ret = nodes;
	return 0;
}

int mempolicy_parse(const char *s, struct mempolicy *ret, const char **ret_why)
{
	static const struct {
		const char *name;
		int mode;
	} modes[] = {
		{ "bind:", MPOL_BIND },
		{ "interleave:", MPOL_INTERLEAVE },
		{ "preferred:", MPOL_PREFERRED },
	};

	*ret_why = "want default, bind:LIST, interleave:LIST or preferred:N (LIST: 0,1 or 0-3)";
	if (!strcmp(s, "default")) {
		*ret = (struct mempolicy){ MPOL_DEFAULT, 0 };
		return 0;
	}
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		size_t len = strlen(modes[i].name);
		uint64_t nodes;

		if (strncmp(s, modes[i].name, len))
			continue;
		if (mempolicy_node_list(s + len, &nodes) < 0) {
			*ret_why = "a node list is numbers below 64 and ranges: 0, 0,2 or 0-3";
			return -EINVAL;
		}
		if (modes[i].mode == MPOL_PREFERRED && (nodes & (nodes - 1))) {
			*ret_why = "preferred takes one node";
			return -EINVAL;
		}
		*ret = (struct mempolicy){ modes[i].mode, nodes };
		return 0;
	}
	return -EINVAL;
}

int mempolicy__max_node(const struct mempolicy *m)
{
	int max = -1;

	for (int n = 0; n < MEMPOLICY_NODES_MAX; n++)
		if (m->nodes & (1ull << n))
			max = n;
	return max;
}

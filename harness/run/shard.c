// SPDX-License-Identifier: GPL-2.0
#include "shard.h"

#include <errno.h>
#include <string.h>

/* A decimal number of 1..4 digits, no sign, no leading zero; -1 if not. */
static int small_number(const char *s, size_t len)
{
	int v = 0;

	if (len < 1 || len > 4 || s[0] == '0')
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int shard__parse(const char *s, struct shard *ret)
{
	const char *slash;
	int i, n;

	if (!s)
		return -EINVAL;
	slash = strchr(s, '/');
	if (!slash)
		return -EINVAL;
	i = small_number(s, (size_t)(slash - s));
	n = small_number(slash + 1, strlen(slash + 1));
	if (i < 1 || n < 1 || i > n || n > SHARD_MAX)
		return -EINVAL;
	*ret = (struct shard){ .index = i, .count = n };
	return 0;
}

bool shard__has(const struct shard *sh, int rep)
{
	return !sh || sh->count <= 0 || rep % sh->count == sh->index - 1;
}

bool shard__fits(const struct shard *sh, int reps)
{
	return !sh || sh->count <= 0 || sh->count <= reps;
}

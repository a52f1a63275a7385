/* Kernel versions from release strings, and whether one falls in a range
 * (metrics.c's comparability table, kernel.c's config needs). */
#include "kernel-version.h"

#include <errno.h>
#include <stdlib.h>

/*
 * Kernel versions. "6.1.192" is upstream: the sublevel is known. Debian's ABI
 * strings ("6.1.0-57-cloud-amd64": X.Y.0 then "-ABI" digits) say nothing of
 * the upstream sublevel, so they stand for the whole X.Y series (sub = -1).
 */
int kernel_version_parse(const char *release, struct kernel_version *ret)
{
	struct kernel_version v = { 0 };
	const char *p = release;
	long part[3] = { 0, 0, 0 };
	int n = 0;

	if (!release)
		return -EINVAL;
	while (n < 3) {
		char *end;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		part[n] = strtol(p, &end, 10);
		if (errno || part[n] > 65535)
			return -ERANGE;
		n++;
		p = end;
		if (*p != '.')
			break;
		p++;
	}
	if (n < 2)
		return -EINVAL;
	v.major = (int)part[0];
	v.minor = (int)part[1];
	v.sub = (int)part[2];
	/* Debian: "X.Y.0-N" or "X.Y.0-N-flavour", N all digits */
	if (n == 3 && v.sub == 0 && p[0] == '-' && p[1] >= '0' && p[1] <= '9') {
		const char *q = p + 1;

		while (*q >= '0' && *q <= '9')
			q++;
		if (*q == '\0' || *q == '-')
			v.sub = -1;
	}
	*ret = v;
	return 0;
}

static int kv_cmp(struct kernel_version a, struct kernel_version b)
{
	if (a.major != b.major)
		return a.major < b.major ? -1 : 1;
	if (a.minor != b.minor)
		return a.minor < b.minor ? -1 : 1;
	if (a.sub != b.sub)
		return a.sub < b.sub ? -1 : 1;
	return 0;
}

bool kernel_version_in_range(struct kernel_version v, struct kernel_version from,
			     struct kernel_version until)
{
	struct kernel_version lo = v, hi = v;

	if (v.sub < 0) {
		lo.sub = 0;
		hi.sub = 65535;
	}
	if (kv_cmp(hi, from) < 0)
		return false;
	if (until.major && kv_cmp(lo, until) >= 0)
		return false;
	return true;
}

// SPDX-License-Identifier: GPL-2.0
/* Where lrubench keeps things, relative to the repository, overridable from the environment. */
#include "paths.h"

#include <stdlib.h>
#include <time.h>

#include "util.h"

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

const char *path_build(void)
{
	return env_or("LRUBENCH_BUILD", "build");
}

const char *path_results(void)
{
	return env_or("LRUBENCH_RESULTS", "results");
}

const char *path_reports(void)
{
	return env_or("LRUBENCH_REPORTS", "reports");
}

const char *path_kernel_cache(void)
{
	return env_or("LRUBENCH_KERNELS", "kernels/cache");
}

const char *path_recipes(void)
{
	return env_or("LRUBENCH_RECIPES", "kernels");
}

const char *path_default_plan(void)
{
	return env_or("LRUBENCH_PLAN", "workloads/plans/quick.ini");
}


char *path_stamped(const char *dir, const char *name, const char *suffix)
{
	char stamp[32];
	time_t now = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	return xasprintf("%s/%s-%s%s", dir, name, stamp, suffix);
}

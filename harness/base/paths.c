// SPDX-License-Identifier: GPL-2.0
/* Where lrubench keeps things, relative to the repository, overridable from the environment. */
#include "paths.h"

#include <stdlib.h>

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


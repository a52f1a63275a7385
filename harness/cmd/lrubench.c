// SPDX-License-Identifier: GPL-2.0
/*
 * lrubench: settle arguments about Linux page reclaim (classic LRU vs MGLRU)
 * with data. See README.md.
 */
#include "cmd.h"
#include "util.h"

#include <string.h>

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "run", cmd_run, "run a plan (default: classic vs MGLRU on Debian's kernel)" },
	{ "compare", cmd_compare, "print the comparison table of a campaign database" },
	{ "claims", cmd_claims, "the scoreboard of claims C1-C8 over campaign databases" },
	{ "report", cmd_report, "write reports/<campaign>/ from a campaign database" },
	{ "noise", cmd_noise, "A/A: a plan's variant against itself; noise floor and MDE" },
	{ "wss", cmd_wss, "each memcg's working set, beside what its workloads' parameters say" },
	{ "export", cmd_export, "export --kcidb DB: the campaign in KernelCI's KCIDB JSON" },
	{ "merge", cmd_merge, "merge shards (or any databases of one plan) into one database" },
	{ "history", cmd_history, "history add|pin|show|plot: nightly campaigns over time" },
	{ "list", cmd_list, "the workload catalogue: parameters, results, directions" },
	{ "kernel", cmd_kernel, "kernel build|list|check|fetch: build a recipe, check a kernel" },
	{ "ab", cmd_ab, "A/B: build two kernel recipes, run a plan on each, compare" },
	{ "bisect", cmd_bisect, "find the commit that made a metric worse (git bisect run)" },
	{ "doctor", cmd_doctor, "what works on this host, and why not where it does not" },
	{ "__run-one", cmd_run_one, NULL }, /* the campaign scheduler's worker */
	{ "__bisect-step", cmd_bisect_step, NULL }, /* what git bisect run calls */
};

static void usage(FILE *f)
{
	fprintf(f, "usage: lrubench [-v] COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (commands[i].help)
			fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'lrubench COMMAND --help' for a command's options. Version %s.\n",
		LRUBENCH_VERSION);
}

int main(int argc, char **argv)
{
	int i = 1;

	log_set_prefix("lrubench");
	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			log_set_level(LOG_DEBUG);
		} else if (!strcmp(argv[i], "--version")) {
			printf("lrubench %s\n", LRUBENCH_VERSION);
			return 0;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			log_err("unknown option '%s'", argv[i]);
			usage(stderr);
			return 2;
		}
		i++;
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	for (size_t c = 0; c < ARRAY_SIZE(commands); c++)
		if (!strcmp(argv[i], commands[c].name))
			return commands[c].fn(argc - i, argv + i);
	log_err("unknown command '%s'", argv[i]);
	usage(stderr);
	return 2;
}

// SPDX-License-Identifier: GPL-2.0
/* lrubench merge OUT.db IN.db...: join shards (or any databases of one plan) into one. */
#include "cmd.h"
#include "merge.h"
#include "util.h"

#include <string.h>
#include <sys/stat.h>

static double mib(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 ? (double)sb.st_size / (1 << 20) : 0;
}

int cmd_merge(int argc, char **argv)
{
	_cleanup_free_ char *err = NULL;
	struct merge_stats ms;
	double in_mib = 0;
	int64_t t0;
	int r;

	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: lrubench merge OUT.db IN.db [IN.db...]\n"
		       "  Merge campaign databases of one plan (the shards of 'lrubench run --shard')\n"
		       "  into the new database OUT.db; refuses databases of different plans.\n");
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: lrubench merge OUT.db IN.db [IN.db...]\n");
		return 2;
	}
	for (int i = 2; i < argc; i++)
		in_mib += mib(argv[i]);
	t0 = now_mono_ns();
	r = merge__run(argv[1], (const char *const *)argv + 2, (size_t)argc - 2, &ms, &err);
	if (r < 0) {
		log_err("merge: %s", err ? err : strerror(-r));
		return 2;
	}
	printf("merged %zu databases (%.1f MiB) into %s (%.1f MiB) in %.2f s: %llu runs from %llu "
	       "(%llu duplicates dropped, %llu replaced by a more finished copy), %llu samples, "
	       "%llu values; integrity_check ok\n",
	       ms.inputs, in_mib, argv[1], mib(argv[1]), (double)(now_mono_ns() - t0) / 1e9,
	       (unsigned long long)ms.runs, (unsigned long long)ms.runs_in,
	       (unsigned long long)ms.duplicates, (unsigned long long)ms.replaced,
	       (unsigned long long)ms.samples, (unsigned long long)ms.values);
	if (ms.host_classes > 1)
		log_warn("%s: its shards ran on %zu kinds of machine (meta host.classes): its "
			 "times mix them, and history compares it with no single-machine night "
			 "unless --any-host",
			 argv[1], ms.host_classes);
	if (ms.unfinished)
		log_warn("%s: %llu runs are not finished (pending or running in their shard): "
			 "'lrubench run --resume %s' runs them", argv[1],
			 (unsigned long long)ms.unfinished, argv[1]);
	return 0;
}

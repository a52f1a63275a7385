// SPDX-License-Identifier: GPL-2.0
#include "cmd.h"
#include "kernel.h"
#include "util.h"

#include <string.h>

static int kernel_check(int argc, char **argv)
{
	_cleanup_(kernel__freep) struct kernel *k = NULL;
	_cleanup_free_ char *err = NULL, *missing = NULL;
	const char *config = argc > 2 ? argv[2] : NULL;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: lrubench kernel check BZIMAGE [CONFIG]\n");
		return 2;
	}
	if (kernel__open(argv[1], config, NULL, &k, &err) < 0) {
		log_err("%s", err);
		return 2;
	}
	printf("kernel   %s\nrelease  %s\nsha256   %s\nconfig   %s\nmodules  %s\n", k->image,
	       k->release, k->sha256, k->config_path, k->modules_dir ? k->modules_dir : "(none)");
	if (kernel__check(k, &missing) < 0) {
		printf("refused: missing %s\n", missing);
		return 1;
	}
	printf("ok: has every option lrubench needs\n");
	return 0;
}

static int kernel_fetch(int argc, char **argv)
{
	_cleanup_free_ char *image = NULL, *err = NULL;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: lrubench kernel fetch\n");
		return 2;
	}
	if (kernel__debian_default(path_kernel_cache(), &image, &err) < 0) {
		log_err("%s", err);
		return 2;
	}
	printf("%s\n", image);
	return 0;
}

int cmd_kernel(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "check"))
		return kernel_check(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "fetch"))
		return kernel_fetch(argc - 1, argv + 1);
	fprintf(stderr, "usage: lrubench kernel check BZIMAGE [CONFIG] | kernel fetch\n");
	return 2;
}

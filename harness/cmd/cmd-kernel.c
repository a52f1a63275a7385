// SPDX-License-Identifier: GPL-2.0
#include "cmd.h"
#include "paths.h"
#include "kernel-build.h"
#include "kernel.h"
#include "kernel-version.h"
#include "util.h"

#include <dirent.h>
#include <getopt.h>
#include <string.h>
#include <sys/stat.h>

static void kbuild_opts_init(struct kbuild_opts *o, const char *name)
{
	*o = (struct kbuild_opts){
		.cache_dir = path_kernel_cache(),
		.progress = kbuild_progress_log,
		.ctx = (void *)name,
	};
}

static int recipe_load(const char *spec, struct kbuild_recipe **ret)
{
	_cleanup_free_ char *path = kernel_spec_recipe_path(spec, path_recipes());
	_cleanup_free_ char *err = NULL;

	if (kbuild_recipe__load(path, ret, &err) < 0) {
		log_err("%s", err);
		return -EINVAL;
	}
	return 0;
}

static void print_kernel(const struct kernel *k)
{
	printf("kernel   %s\nrelease  %s\nsha256   %s\nconfig   %s\nmodules  %s\n", k->image,
	       k->release, k->sha256, k->config_path, k->modules_dir ? k->modules_dir : "(none)");
}

/* The needs of the kernel's series, checked: its version, its zram compressors, the verdict. */
static int print_check(const struct kernel *k, const char *zram_comp)
{
	_cleanup_free_ char *missing = NULL, *comps = NULL;
	struct kernel_version v;
	const char *from = NULL, *how = NULL;

	if (kernel__version(k, &v, &from) < 0)
		printf("version  unknown\n");
	else if (v.sub < 0)
		printf("version  %d.%d (from %s)\n", v.major, v.minor, from);
	else
		printf("version  %d.%d.%d (from %s)\n", v.major, v.minor, v.sub, from);
	comps = kernel__zram_comps(k, &how);
	printf("zram     %s%s%s\n", *comps ? comps : "no compressor", how ? ": " : "",
	       how ? how : "");
	if (kernel__check(k, zram_comp, 1, &missing) < 0) {
		printf("refused: missing %s\n", missing);
		return 1;
	}
	printf("ok: has every option lrubench needs (zram_comp %s)\n", zram_comp);
	return 0;
}

static void check_usage(FILE *f)
{
	fprintf(f, "usage: lrubench kernel check RECIPE|BUILD_DIR|BZIMAGE|debian-SERIES [CONFIG] "
		   "[--zram-comp NAME]\n"
		   "  --zram-comp NAME  the plan's zram compressor (default %s): the option\n"
		   "                    that provides it differs by kernel series\n",
		KERNEL_ZRAM_COMP_DEFAULT);
}

/* kernel check KERNEL [CONFIG]: a recipe, a build directory, a bzImage or a Debian kernel. */
static int kernel_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "zram-comp", required_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	_cleanup_(kernel__freep) struct kernel *k = NULL;
	_cleanup_free_ char *err = NULL, *image = NULL;
	const char *config, *spec, *zram_comp = KERNEL_ZRAM_COMP_DEFAULT;
	struct stat st;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'z':
			zram_comp = optarg;
			break;
		case 'h':
			check_usage(stdout);
			return 0;
		default:
			check_usage(stderr);
			return 2;
		}
	}
	if (argc - optind < 1 || argc - optind > 2) {
		check_usage(stderr);
		return 2;
	}
	spec = argv[optind];
	config = argc - optind > 1 ? argv[optind + 1] : NULL;
	if (stat(spec, &st) == 0 && S_ISDIR(st.st_mode)) {
		image = xasprintf("%s/bzImage", spec);
	} else if (kernel_spec_kind(spec) == KERNEL_SPEC_DEBIAN) {
		if (kernel__debian(path_kernel_cache(), kernel__debian_spec_series(spec), &image,
				   &err) < 0) {
			log_err("%s", err);
			return 2;
		}
	} else if (kernel_spec_kind(spec) == KERNEL_SPEC_RECIPE && !config) {
		_cleanup_(kbuild_recipe__freep) struct kbuild_recipe *r = NULL;
		_cleanup_(kbuild__freep) struct kbuild *b = NULL;
		_cleanup_free_ char *text = NULL;
		struct kbuild_opts o;
		struct kernel fake = { 0 };

		if (recipe_load(spec, &r) < 0)
			return 2;
		kbuild_opts_init(&o, r->name);
		if (kbuild__lookup(r, &o, &b, &err) == 0) {
			image = xstrdup(b->image);
		} else {
			/* Not built: resolve its config (the checks are part of it). */
			free(err);
			err = NULL;
			if (kbuild__resolve_config(r, &o, &text, &err) < 0) {
				printf("recipe   %s\nrefused: %s\n", r->path, err);
				return 1;
			}
			fake.config = text;
			printf("recipe   %s (not built yet; its resolved config was checked)\n",
			       r->path);
			return print_check(&fake, zram_comp);
		}
	} else {
		image = xstrdup(spec);
	}
	if (kernel__open(image, config, NULL, &k, &err) < 0) {
		log_err("%s", err);
		return 2;
	}
	print_kernel(k);
	return print_check(k, zram_comp);
}

static int kernel_fetch(int argc, char **argv)
{
	_cleanup_free_ char *image = NULL, *err = NULL;

	const char *series = argc == 2 ? kernel__debian_spec_series(argv[1]) : "6.1";

	if (argc > 2 || !series) {
		fprintf(stderr, "usage: lrubench kernel fetch [debian|debian-6.1|debian-6.12]\n");
		return 2;
	}
	if (kernel__debian(path_kernel_cache(), series, &image, &err) < 0) {
		log_err("%s", err);
		return 2;
	}
	printf("%s\n", image);
	return 0;
}

static void build_usage(FILE *f)
{
	fprintf(f, "usage: lrubench kernel build RECIPE [options]\n"
		   "  RECIPE           a name (%s/NAME.ini) or a recipe file (*.ini)\n"
		   "  --jobs N         make -jN (default: the number of CPUs)\n"
		   "  --force          build even when the cache has this recipe's build\n"
		   "  --no-ccache      compile without ccache even when it is installed\n"
		   "Prints the bzImage's path; the build directory beside it holds config,\n"
		   "System.map, build.log and the manifest.\n",
		path_recipes());
}

static int kernel_build(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "force", no_argument, NULL, 'f' },
		{ "no-ccache", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	_cleanup_(kbuild_recipe__freep) struct kbuild_recipe *r = NULL;
	_cleanup_(kbuild__freep) struct kbuild *b = NULL;
	_cleanup_free_ char *err = NULL;
	struct kbuild_opts o;
	int c, jobs = 0;
	bool force = false, no_ccache = false;

	optind = 1;
	while ((c = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
		int64_t n;

		switch (c) {
		case 'j':
			if (parse_i64(optarg, &n) < 0 || n < 1 || n > 1024) {
				log_err("--jobs: bad value '%s' (1..1024)", optarg);
				return 2;
			}
			jobs = (int)n;
			break;
		case 'f':
			force = true;
			break;
		case 'n':
			no_ccache = true;
			break;
		case 'h':
			build_usage(stdout);
			return 0;
		default:
			build_usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		build_usage(stderr);
		return 2;
	}
	if (kernel_spec_kind(argv[optind]) != KERNEL_SPEC_RECIPE) {
		log_err("'%s' is not a recipe: a name (%s/NAME.ini) or a file ending in .ini",
			argv[optind], path_recipes());
		return 2;
	}
	if (recipe_load(argv[optind], &r) < 0)
		return 2;
	kbuild_opts_init(&o, r->name);
	o.jobs = jobs;
	o.force = force;
	o.no_ccache = no_ccache;
	if (kbuild__build(r, &o, &b, &err) < 0) {
		log_err("kernel %s: %s", r->name, err);
		return 2;
	}
	if (b->cached)
		log_info("kernel %s: up to date: %s (built %s; nothing to do)", r->name, b->dir,
			 kbuild__get(b, "built_at") ? kbuild__get(b, "built_at") : "?");
	else
		log_info("kernel %s: built %s (release %s)", r->name, b->dir,
			 kbuild__get(b, "release"));
	printf("%s\n", b->image);
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of dir's entries that start with prefix (and end with suffix), sorted. */
static size_t list_dir(const char *dir, const char *prefix, const char *suffix, char ***ret)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;

	if (d) {
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name), sl = strlen(suffix);

			if (strncmp(e->d_name, prefix, strlen(prefix)) || len < sl ||
			    strcmp(e->d_name + len - sl, suffix))
				continue;
			names = xrealloc(names, n + 1, sizeof(*names));
			names[n++] = xstrdup(e->d_name);
		}
		closedir(d);
	}
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	*ret = names;
	return n;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int kernel_list(int argc, char **argv)
{
	const char *cache = path_kernel_cache();
	char **names = NULL;
	size_t n;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: lrubench kernel list\n");
		return 2;
	}
	printf("recipes (%s/):\n", path_recipes());
	n = list_dir(path_recipes(), "", ".ini", &names);
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *path = xasprintf("%s/%s", path_recipes(), names[i]);
		_cleanup_(kbuild_recipe__freep) struct kbuild_recipe *r = NULL;
		_cleanup_(kbuild__freep) struct kbuild *b = NULL;
		_cleanup_free_ char *err = NULL;
		struct kbuild_opts o;

		if (kbuild_recipe__load(path, &r, &err) < 0) {
			printf("  %-22s invalid: %s\n", names[i], err);
			continue;
		}
		kbuild_opts_init(&o, r->name);
		o.progress = NULL;
		if (kbuild__lookup(r, &o, &b, &err) == 0)
			printf("  %-22s built    %s\n", r->name, b->image);
		else
			printf("  %-22s %-8s %s\n", r->name, err ? "error" : "not built",
			       err ? err : (r->description ? r->description : ""));
	}
	free_names(names, n);

	printf("built (%s/build-*):\n", cache);
	n = list_dir(cache, "build-", "", &names);
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *dir = xasprintf("%s/%s", cache, names[i]), *err = NULL;
		_cleanup_(kbuild__freep) struct kbuild *b = NULL;

		if (kbuild__open(dir, &b, &err) < 0)
			continue;
		printf("  %.22s  %-28s recipe %-16s patches %s, built %s in %s s\n", names[i],
		       kbuild__get(b, "release"), kbuild__get(b, "recipe"),
		       kbuild__get(b, "patches"), kbuild__get(b, "built_at"),
		       kbuild__get(b, "build_seconds"));
	}
	free_names(names, n);

	printf("prebuilt (%s/debian-*):\n", cache);
	n = list_dir(cache, "debian-", "", &names);
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *img = xasprintf("%s/%s/boot/vmlinuz-%s", cache, names[i],
						     names[i] + strlen("debian-"));

		if (access(img, R_OK) == 0)
			printf("  %-22s %s\n", names[i], img);
	}
	free_names(names, n);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
} kernel_cmds[] = {
	{ "build", kernel_build, "build RECIPE [--jobs N] [--force] [--no-ccache]" },
	{ "list", kernel_list, "list" },
	{ "check", kernel_check,
	  "check RECIPE|BUILD_DIR|BZIMAGE|debian-SERIES [CONFIG] [--zram-comp NAME]" },
	{ "fetch", kernel_fetch, "fetch [debian|debian-6.1|debian-6.12]" },
};

int cmd_kernel(int argc, char **argv)
{
	for (size_t i = 0; argc >= 2 && i < ARRAY_SIZE(kernel_cmds); i++)
		if (!strcmp(argv[1], kernel_cmds[i].name))
			return kernel_cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "usage:\n");
	for (size_t i = 0; i < ARRAY_SIZE(kernel_cmds); i++)
		fprintf(stderr, "  lrubench kernel %s\n", kernel_cmds[i].usage);
	return 2;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Before any run of a campaign: each distinct kernel of its variants found,
 * built from its recipe or opened, checked for what lrubench needs, its
 * guest image made and its accelerator chosen; and the tools disk when a
 * workload runs a host tool.
 *
 * A campaign's runs all boot the guest image it started with. Each run is
 * a fresh process that resolves the kernels again, and the image is made
 * from build/guest/bin as it is then: a rebuild during the campaign (or
 * before a --resume) would mix guest builds in one campaign. So the image
 * of each kernel is pinned in the store's meta when the campaign is
 * recorded (campaign__images_pin), and a later run keeps the pinned image
 * from the cache, or refuses when it is gone.
 */
#include "accel.h"
#include "campaign-priv.h"
#include "disks.h"
#include "guest-clock.h"
#include "image.h"
#include "kernel-build.h"
#include "kernel.h"
#include "plan.h"
#include "store.h"
#include "util.h"
#include "vm-qemu.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *pin_key(const struct campaign_kernel *ck)
{
	return xasprintf("guest.image_sha256.%.16s", ck->k->sha256);
}

void campaign__images_pin(struct campaign *c)
{
	for (size_t i = 0; i < c->nkernels; i++) {
		_cleanup_free_ char *key = pin_key(&c->kernels[i]);

		store__meta_set(c->st, key, c->kernels[i].img->hash);
	}
}

/* The pinned image of ck's kernel instead of the one build/guest/bin makes now. */
static int image_keep_pinned(struct campaign *c, struct campaign_kernel *ck)
{
	_cleanup_free_ char *key = pin_key(ck), *pin = NULL, *path = NULL;

	if (!c->st || store__meta_get(c->st, key, &pin) < 0 || !strcmp(pin, ck->img->hash))
		return 0;
	path = xasprintf("%s/images/initramfs-%.16s.cpio", c->o->build_dir, pin);
	if (access(path, R_OK) < 0) {
		log_err("campaign %s started with guest image %.16s (its agent and workloads), "
			"which is no longer in %s/images, and %s/guest/bin has changed since: its "
			"runs cannot go on with the same guest; start a new campaign",
			c->name, pin, c->o->build_dir, c->o->build_dir);
		return -ESTALE;
	}
	log_info("%s/guest/bin changed since campaign %s started: its runs keep the guest "
		 "image it started with, %s",
		 c->o->build_dir, c->name, path);
	free(ck->img->base);
	ck->img->base = TAKE_PTR(path);
	snprintf(ck->img->hash, sizeof(ck->img->hash), "%s", pin);
	return 0;
}

/* The tools disk, when a workload of the plan runs fio or sysbench: its tools only (disks.h). */
static int tools_resolve(struct campaign *c)
{
	_cleanup_free_ char *cache = xasprintf("%s/images", c->o->build_dir);
	_cleanup_free_ char *err = NULL;
	_cleanup_free_ const struct workload_def **defs = NULL;
	int r;

	if (!c->plan->needs_tools || c->tools)
		return 0;
	defs = xcalloc(c->plan->nworkloads, sizeof(*defs));
	for (size_t i = 0; i < c->plan->nworkloads; i++)
		defs[i] = c->plan->workloads[i].def;
	r = tools_image__get(cache, defs, c->plan->nworkloads, &c->tools, &err);
	if (r < 0)
		log_err("tools disk: %s", err);
	return r;
}

/* A recipe: built (or found in the cache) before any run starts. */
static int recipe_build(struct campaign *c, const char *spec, struct kbuild **ret)
{
	_cleanup_(kbuild_recipe__freep) struct kbuild_recipe *r = NULL;
	_cleanup_free_ char *path = NULL, *err = NULL;
	struct kbuild_opts o = {
		.cache_dir = c->o->kernel_cache,
		.progress = kbuild_progress_log,
	};
	int ret_code;

	path = kernel_spec_recipe_path(spec, c->o->recipes_dir ? c->o->recipes_dir : "kernels");
	ret_code = kbuild_recipe__load(path, &r, &err);
	if (ret_code < 0) {
		log_err("kernel %s: %s", spec, err);
		return ret_code;
	}
	o.ctx = r->name;
	ret_code = kbuild__build(r, &o, ret, &err);
	if (ret_code < 0) {
		log_err("kernel %s: %s", r->name, err);
		return ret_code;
	}
	log_info("kernel %s: %s %s", r->name, (*ret)->cached ? "cached" : "built", (*ret)->dir);
	return 0;
}

/* The compressor zram will use, NULL without zram swap. */
static const char *plan_zram_comp(const struct plan *p)
{
	if (strcmp(p->swap, "zram"))
		return NULL;
	return p->zram_comp ? p->zram_comp : KERNEL_ZRAM_COMP_DEFAULT;
}

int campaign__kernels_resolve(struct campaign *c)
{
	struct plan *p = c->plan;

	c->variant_kernel = xcalloc(p->nvariants, sizeof(size_t));
	for (size_t i = 0; i < p->nvariants; i++) {
		struct plan_variant *v = &p->variants[i];
		const char *spec = c->o->kernel ? c->o->kernel : v->kernel;
		const char *config = c->o->kernel ? c->o->config : v->config;
		const char *modules = c->o->kernel ? c->o->modules : v->modules;
		_cleanup_free_ char *image = NULL, *err = NULL, *missing = NULL;
		struct kbuild *kb = NULL;
		struct campaign_kernel *ck;
		size_t j;
		int r;

		for (j = 0; j < c->nkernels; j++)
			if (!strcmp(c->kernels[j].spec, spec))
				break;
		c->variant_kernel[i] = j;
		if (j < c->nkernels)
			continue;
		if (kernel__debian_spec_series(spec)) {
			r = kernel__debian(c->o->kernel_cache, kernel__debian_spec_series(spec),
					   &image, &err);
			if (r < 0) {
				log_err("embedded default kernel: %s", err);
				return r;
			}
		} else if (kernel_spec_kind(spec) == KERNEL_SPEC_RECIPE) {
			r = recipe_build(c, spec, &kb);
			if (r < 0)
				return r;
			image = xstrdup(kb->image);
		} else {
			_cleanup_free_ char *d = xstrdup(spec), *kerr = NULL;

			image = xstrdup(spec);
			/* A build directory's bzImage keeps its recipe's provenance. */
			if (kbuild__open(dirname(d), &kb, &kerr) < 0)
				kb = NULL;
		}
		c->kernels = xrealloc(c->kernels, c->nkernels + 1, sizeof(*c->kernels));
		ck = &c->kernels[c->nkernels++];
		memset(ck, 0, sizeof(*ck));
		ck->spec = xstrdup(spec);
		ck->kb = kb;
		r = kernel__open(image, config, modules, &ck->k, &err);
		if (r < 0) {
			log_err("variant %s: %s", v->name, err);
			return r;
		}
		if (kernel__debian_spec_series(spec)) {
			_cleanup_free_ char *src = NULL, *srcfile = NULL, *d = xstrdup(image);

			srcfile = xasprintf("%s/../source", dirname(d));
			if (read_file(srcfile, 4096, &src, NULL) == 0) {
				free(ck->k->source);
				ck->k->source = xstrdup(strstrip(src));
			}
		}
		if (ck->kb && kbuild__get(ck->kb, "source")) {
			free(ck->k->source);
			ck->k->source = xstrdup(kbuild__get(ck->kb, "source"));
		}
		/* Refuse before booting, naming what is missing (zram's compressor too). */
		r = kernel__check(ck->k, plan_zram_comp(p), p->numa, &missing);
		if (r < 0) {
			log_err("kernel %s (%s) cannot run lrubench: missing %s; config read from %s",
				ck->k->image, ck->k->release, missing, ck->k->config_path);
			return r;
		}
		if (v->lru_enabled && !strcmp(v->lru, "mglru")) {
			char buf[8];

			if (!kernel__config(ck->k, "LRU_GEN", buf, sizeof(buf)))
				return -ENOTSUP;
		}
		{
			_cleanup_free_ char *bin = xasprintf("%s/guest/bin", c->o->build_dir);
			_cleanup_free_ char *cache = xasprintf("%s/images", c->o->build_dir);

			r = guest_image__get(ck->k, plan_zram_comp(p), bin, cache, &ck->img, &err);
			if (r < 0) {
				log_err("guest image for %s: %s", ck->k->image, err);
				return r;
			}
			r = image_keep_pinned(c, ck);
			if (r < 0)
				return r;
		}
		if (!strcmp(p->clock, PLAN_CLOCK_INSTRUCTIONS)) {
			/* -icount is TCG's: KVM runs the guest's instructions uncounted */
			if (!strcmp(c->o->accel, "kvm")) {
				log_err("--accel kvm: the instruction-counted clock (clock = "
					"instructions) runs under TCG only; give --accel tcg or "
					"--clock real");
				return -EINVAL;
			}
			ck->accel = xstrdup("tcg");
			ck->accel_why = xstrdup("the instruction-counted clock runs under TCG only");
		} else {
			r = accel_choose(c->o->accel, ck->k, ck->img, c->o->build_dir, true,
					 &ck->accel, &ck->accel_why);
			if (r < 0) {
				log_err("--accel %s: expected auto, kvm or tcg", c->o->accel);
				return r;
			}
		}
		if (!c->quiet)
			log_info("kernel %s (%s): accel %s: %s", ck->k->release, ck->k->sha256, ck->accel,
			 ck->accel_why);
	}
	return tools_resolve(c);
}

int campaign__qemu_choose(const struct campaign *c)
{
	const struct plan *p = c->plan;
	_cleanup_free_ char *dir = NULL, *bin = NULL;
	char root[PATH_MAX];

	if (strcmp(p->clock, PLAN_CLOCK_INSTRUCTIONS) || p->cpus <= 1)
		return 0;
	dir = xasprintf("%s/" QEMU_BACKPORTS_DIR "/root", c->o->build_dir);
	bin = xasprintf("%s/usr/bin/qemu-system-x86_64", dir);
	if (access(bin, X_OK) < 0) {
		log_err("%s: cpus = %d with clock = instructions runs on the QEMU that make "
			"unpacks from bookworm-backports (scripts/fetch-qemu-backports.sh %s/%s), "
			"and %s is not there: run make, or say cpus = 1 (the clock's default)",
			p->path, p->cpus, c->o->build_dir, QEMU_BACKPORTS_DIR, bin);
		return -ENOENT;
	}
	if (!realpath(dir, root))
		return -errno;
	vm_qemu_use(root); /* absolute: the runs' qemu.argv says which binary ran */
	if (!c->quiet)
		log_info("cpus = %d with clock = instructions: the QEMU in %s", p->cpus, root);
	return 0;
}

int campaign__clock_resolve(struct campaign *c)
{
	const struct plan *p = c->plan;
	_cleanup_free_ char *err = NULL;
	int r;

	r = campaign__qemu_choose(c);
	if (r < 0)
		return r;
	if (!strcmp(p->clock, PLAN_CLOCK_INSTRUCTIONS) && p->cpus > 1) {
		_cleanup_free_ char *qv = vm_qemu_version();

		if (guest_clock_cpus_ok(p->cpus, qv, &err) < 0) {
			log_err("%s: cpus = %d with clock = instructions: %s; say cpus = 1 (the "
				"clock's default) or clock = real",
				p->path, p->cpus, err);
			return -ENOTSUP;
		}
		log_warn("%s: cpus = %d with clock = instructions: the second vCPU's interleaving "
			 "follows the host's timing; expect A/A CVs of 6-16%% on throughput "
			 "metrics (issue 31: 2 vCPUs, QEMU 10.0.2) against 0.4-4%% with one "
			 "(README, \"The guest's clock\")",
			 p->path, p->cpus);
	}
	r = guest_clock__resolve(&c->clock, p->clock, c->kernels[0].k, c->kernels[0].img,
				 p->clock_sleep, c->o->build_dir, true, &err);
	if (r < 0) {
		log_err("%s: clock = %s: %s", p->path, p->clock, err);
		return r;
	}
	if (c->clock.instructions)
		log_info("guest clock: %s; %s", p->clock, c->clock.why);
	return 0;
}

void campaign__kernels_free(struct campaign *c)
{
	for (size_t i = 0; i < c->nkernels; i++) {
		free(c->kernels[i].spec);
		kernel__free(c->kernels[i].k);
		kbuild__free(c->kernels[i].kb);
		guest_image__free(c->kernels[i].img);
		free(c->kernels[i].accel);
		free(c->kernels[i].accel_why);
	}
	free(c->kernels);
	free(c->variant_kernel);
	guest_clock__clear(&c->clock);
	tools_image__free(c->tools);
}

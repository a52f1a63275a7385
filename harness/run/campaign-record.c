// SPDX-License-Identifier: GPL-2.0
/*
 * A campaign's record of itself in its store: at its start the plan, the
 * options it was started with, the host, its variants and its runs in
 * interleaved order; read back by --resume and by each worker, so both run
 * the rest the same way.
 */
#include "campaign-priv.h"
#include "kernel.h"
#include "noise.h"
#include "plan.h"
#include "store-campaign.h"
#include "store.h"
#include "util.h"
#include "vm-qemu.h"
#include "wss.h"

#include <stddef.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* The options a campaign was started with, kept so --resume runs the rest the same way. */
static const struct {
	const char *key;
	size_t off;
} saved_opts[] = {
	{ "opt.kernel", offsetof(struct campaign_opts, kernel) },
	{ "opt.config", offsetof(struct campaign_opts, config) },
	{ "opt.modules", offsetof(struct campaign_opts, modules) },
	{ "opt.accel", offsetof(struct campaign_opts, accel) },
	{ "opt.clock", offsetof(struct campaign_opts, clock) },
	{ "opt.fault", offsetof(struct campaign_opts, fault) },
	{ "opt.history", offsetof(struct campaign_opts, history) },
};

_Static_assert(ARRAY_SIZE(saved_opts) == CAMPAIGN_SAVED_OPTS, "campaign-priv.h counts them");

/* The host's hardware, for the history's host class (store/history.c): the CPU's model name
 * (/proc/cpuinfo "model name", "unknown" where it has none), online CPUs, memory in bytes. */
static void host_record(struct store *st)
{
	_cleanup_free_ char *cpuinfo = NULL;
	const char *model = NULL;
	char buf[32];

	if (read_file("/proc/cpuinfo", 1 << 20, &cpuinfo, NULL) == 0) {
		char *p = strstr(cpuinfo, "model name");

		if (p && (p = strchr(p, ':'))) {
			p[strcspn(p, "\n")] = '\0';
			model = strstrip(p + 1);
		}
	}
	store__meta_set(st, "host.cpu_model", model && *model ? model : "unknown");
	snprintf(buf, sizeof(buf), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	store__meta_set(st, "host.cpus", buf);
	snprintf(buf, sizeof(buf), "%lld",
		 (long long)sysconf(_SC_PHYS_PAGES) * (long long)sysconf(_SC_PAGESIZE));
	store__meta_set(st, "host.mem_bytes", buf);
}

int campaign__record(struct campaign *c, const char *db, time_t now, int reps, size_t *ret_nruns)
{
	const struct plan *plan = c->plan;
	const struct campaign_opts *o = c->o;
	int order = 0, r;
	size_t nruns = 0;

	{
		struct utsname un;
		_cleanup_free_ char *qv = vm_qemu_version();
		char buf[32];

		uname(&un);
		store__meta_set(c->st, "campaign", c->name);
		store__meta_set(c->st, "plan.path", plan->path);
		store__meta_set(c->st, "plan.text", plan->text);
		store__meta_set(c->st, "plan.baseline", plan->baseline);
		if (plan->remap) /* ab, bisect: the variants as they re-made them */
			store__meta_set(c->st, "plan.remap", plan->remap);
		store__meta_set(c->st, "lrubench.version", LRUBENCH_VERSION);
		store__meta_set(c->st, "host", un.nodename);
		host_record(c->st);
		store__meta_set(c->st, "qemu.version", qv ? qv : "unknown");
		{
			_cleanup_free_ char *clock = guest_clock__format(&c->clock);

			/* the workers and --resume run on this, never calibrating again */
			store__meta_set(c->st, "guest.clock", clock);
			if (c->clock.why)
				store__meta_set(c->st, "guest.clock.why", c->clock.why);
			snprintf(buf, sizeof(buf), "%d", plan->cpus);
			store__meta_set(c->st, "guest.cpus", buf);
		}
		snprintf(buf, sizeof(buf), "%lld", (long long)now);
		store__meta_set(c->st, "created", buf);
		snprintf(buf, sizeof(buf), "%d", reps);
		store__meta_set(c->st, "repetitions", buf);
		snprintf(buf, sizeof(buf), "%d", plan->warmup);
		store__meta_set(c->st, "plan.warmup", buf); /* stats skip repetitions below it */
		/* the verdicts' alpha spending over looks, and --resume, read it */
		store__meta_set(c->st, "plan.adaptive", c->adaptive ? "1" : "0");
		if (o->aa_variant)
			store__meta_set(c->st, "noise.variant", o->aa_variant);
		if (o->wss_opts)
			store__meta_set(c->st, "wss.opts", o->wss_opts);
		{
			char sha[65];

			/* merge compares plans by this hash, and their runs by place */
			sha256_buf(plan->text, strlen(plan->text), sha);
			store__meta_set(c->st, "plan.sha256", sha);
			snprintf(buf, sizeof(buf), "%zu", (size_t)reps * plan->nvariants);
			store__meta_set(c->st, "plan.runs", buf);
		}
		if (o->shard.count) {
			snprintf(buf, sizeof(buf), "%d/%d", o->shard.index, o->shard.count);
			store__meta_set(c->st, "shard", buf);
		}
		snprintf(buf, sizeof(buf), "%d", o->fault_run);
		store__meta_set(c->st, "opt.fault_run", buf);
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->silence_timeout_ms);
		store__meta_set(c->st, "opt.silence_ms", buf);
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->timeout_ms);
		store__meta_set(c->st, "opt.timeout_ms", buf);
		for (size_t i = 0; i < ARRAY_SIZE(saved_opts); i++) {
			const char *v = *(const char *const *)((const char *)o + saved_opts[i].off);

			if (v)
				store__meta_set(c->st, saved_opts[i].key, v);
		}
	}
	campaign__images_pin(c);
	c->variant_id = xcalloc(plan->nvariants, sizeof(int64_t));
	for (size_t i = 0; i < plan->nvariants; i++) {
		const struct plan_variant *v = &plan->variants[i];
		const struct campaign_kernel *ck = &c->kernels[c->variant_kernel[i]];
		_cleanup_free_ char *knobs = NULL, *kname = NULL;
		size_t klen = 0;
		FILE *f = open_memstream(&knobs, &klen);

		fprintf(f, "lru_enabled=0x%04x", v->lru_enabled);
		if (v->min_ttl_ms >= 0)
			fprintf(f, " min_ttl_ms=%lld", (long long)v->min_ttl_ms);
		for (size_t j = 0; j < v->nsysctls; j++)
			fprintf(f, " %s=%s", v->sysctls[j].key, v->sysctls[j].value);
		if (v->thp)
			fprintf(f, " thp=%s", v->thp);
		if (v->read_ahead_kb >= 0)
			fprintf(f, " read_ahead_kb=%lld", (long long)v->read_ahead_kb);
		if (v->fault_around_bytes >= 0)
			fprintf(f, " fault_around_bytes=%lld", (long long)v->fault_around_bytes);
		if (v->trace >= 0)
			fprintf(f, " trace=%s", v->trace ? "on" : "off");
		for (size_t j = 0; j < v->nmemcg_files; j++)
			fprintf(f, " memcg.%s=%s", v->memcg_files[j].key, v->memcg_files[j].value);
		fclose(f);
		kname = xasprintf("%s %.12s", ck->k->release, ck->k->sha256);
		r = store__variant_add(c->st, v->name, kname, v->lru, knobs, &c->variant_id[i]);
		if (r < 0) {
			log_err("%s: %s", db, store__errmsg(c->st));
			return r;
		}
	}
	/* Interleave: every variant once per repetition, A B A B; a shard keeps its repetitions. */
	for (int rep = 0; rep < reps; rep++) {
		for (size_t i = 0; i < plan->nvariants; i++) {
			int64_t id;

			if (!shard__has(&o->shard, rep)) {
				order++;
				continue;
			}
			r = store__run_add(c->st, c->variant_id[i], rep, order++,
					   plan->seed + (uint64_t)rep, &id);
			if (r < 0) {
				log_err("%s: %s", db, store__errmsg(c->st));
				return r;
			}
			nruns++;
		}
	}
	store__commit(c->st);
	*ret_nruns = nruns;
	return 0;
}

/*
 * Load a campaign from its database: the plan it was started with, its
 * options, its variants and kernels. Shared by --resume and the workers.
 */
int campaign__load(struct campaign *c, const char *db, struct campaign_opts *o, char **saved)
{
	_cleanup_free_ char *text = NULL, *path = NULL, *err = NULL;
	int r;

	r = store__open(db, &c->st);
	if (r < 0 || store__meta_get(c->st, "plan.text", &text) < 0 ||
	    store__meta_get(c->st, "plan.path", &path) < 0 ||
	    store__meta_get(c->st, "campaign", &c->name) < 0) {
		log_err("%s: not a campaign database", db);
		return -EINVAL;
	}
	if (plan__parse(path, text, &c->plan, &err) < 0) {
		log_err("%s: its plan no longer parses: %s", db, err);
		return -EINVAL;
	}
	{
		/* 'lrubench ab' and 'bisect' re-made the plan's variants on their kernels */
		_cleanup_free_ char *remap = NULL;

		if (store__meta_get(c->st, "plan.remap", &remap) == 0 &&
		    plan__remap(c->plan, remap, &err) < 0) {
			log_err("%s: %s", db, err);
			return -EINVAL;
		}
	}
	{
		/* an A/A campaign ('lrubench noise') ran its plan's A/A form */
		_cleanup_free_ char *aa = NULL;

		if (store__meta_get(c->st, "noise.variant", &aa) == 0 &&
		    noise__plan(c->plan, aa, &err) < 0) {
			log_err("%s: %s", db, err);
			return -EINVAL;
		}
	}
	{
		/* a measuring pass ('lrubench wss') ran its plan's measuring form */
		_cleanup_free_ char *wo = NULL;
		struct wss_opts opts;

		if (store__meta_get(c->st, "wss.opts", &wo) == 0) {
			int k = wss_opts__parse(wo, &opts, &err);

			if (k == 0) {
				k = wss__plan(c->plan, &opts, &err);
				wss_opts__clear(&opts);
			}
			if (k < 0) {
				log_err("%s: %s", db, err);
				return -EINVAL;
			}
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(saved_opts); i++) {
		const char **dst = (const char **)((char *)o + saved_opts[i].off);

		if (store__meta_get(c->st, saved_opts[i].key, &saved[i]) == 0)
			*dst = saved[i];
	}
	{
		_cleanup_free_ char *fr = NULL, *sl = NULL, *to = NULL;
		int64_t v;

		if (store__meta_get(c->st, "opt.fault_run", &fr) == 0 && parse_i64(fr, &v) == 0)
			o->fault_run = (int)v;
		if (store__meta_get(c->st, "opt.silence_ms", &sl) == 0 && parse_i64(sl, &v) == 0)
			o->silence_timeout_ms = (uint64_t)v;
		if (store__meta_get(c->st, "opt.timeout_ms", &to) == 0 && parse_i64(to, &v) == 0)
			o->timeout_ms = (uint64_t)v;
	}
	{
		_cleanup_free_ char *ad = NULL;

		c->adaptive = store__meta_get(c->st, "plan.adaptive", &ad) == 0 && !strcmp(ad, "1");
	}
	{
		/* the clock it started on; a campaign from before clocks ran on the real one */
		_cleanup_free_ char *clock = NULL, *why = NULL;
		const char *mode;

		if (store__meta_get(c->st, "guest.clock", &clock) < 0)
			clock = xstrdup("real");
		mode = guest_clock_mode(clock);
		if (guest_clock__parse(&c->clock, clock) < 0) {
			log_err("%s: guest.clock '%s' is not a clock", db, clock);
			return -EINVAL;
		}
		if (o->clock && strcmp(o->clock, mode)) {
			log_err("--clock %s: campaign %s ran on the %s clock; its runs cannot mix "
				"clocks",
				o->clock, c->name, mode);
			return -EINVAL;
		}
		plan__set_clock(c->plan, mode);
		if (store__meta_get(c->st, "guest.clock.why", &why) == 0)
			c->clock.why = TAKE_PTR(why);
		r = campaign__qemu_choose(c);
		if (r < 0)
			return r;
	}
	c->dir = xasprintf("%s/%s", o->results_dir, c->name);
	mkdir_p(c->dir);
	r = campaign__kernels_resolve(c);
	if (r < 0)
		return r;
	c->variant_id = xcalloc(c->plan->nvariants, sizeof(int64_t));
	for (size_t i = 0; i < c->plan->nvariants; i++) {
		c->variant_id[i] = -1;
		if (store__variant_id(c->st, c->plan->variants[i].name, &c->variant_id[i]) < 0)
			return -EIO;
	}
	return 0;
}

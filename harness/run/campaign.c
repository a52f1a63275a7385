// SPDX-License-Identifier: GPL-2.0
#include "campaign.h"
#include "accel.h"
#include "adaptive.h"
#include "catalogue.h"
#include "classify.h"
#include "cmd.h"
#include "compare.h"
#include "disks.h"
#include "image.h"
#include "ingest.h"
#include "kernel-build.h"
#include "kernel.h"
#include "noise.h"
#include "plan.h"
#include "report.h"
#include "store.h"
#include "util.h"
#include "verdict.h"
#include "vm-qemu.h"
#include "wss.h"

#include <libgen.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sqlite3.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>

/* Boot to agent under TCG takes ~6 s here; leave room for a loaded machine. */
#define HELLO_TIMEOUT_MS 120000
#define SILENCE_MIN_MS 60000

static volatile int interrupted;

/* One distinct kernel of the campaign, shared by the variants naming it. */
struct campaign_kernel {
	char *spec; /* the plan's kernel value */
	struct kernel *k;
	struct kbuild *kb; /* when built from a recipe: its manifest, for provenance */
	struct guest_image *img;
	char *accel, *accel_why;
};

struct campaign {
	struct plan *plan;
	const struct campaign_opts *o;
	struct store *st;
	char *name;	/* campaign name: plan name + start time */
	char *dir;	/* results/<name>/: per-run console logs */
	struct campaign_kernel *kernels;
	size_t nkernels;
	size_t *variant_kernel; /* variant index -> kernels index */
	struct tools_image *tools; /* when a workload runs a host tool */
	int64_t *variant_id;
	bool quiet; /* a worker: the scheduler already said what the kernels are */
	bool adaptive; /* repetitions = auto: blocks are added until decided (adaptive.h) */
};

/* The tools disk, when a workload of the plan runs fio or sysbench (disks.h). */
static int tools_resolve(struct campaign *c)
{
	_cleanup_free_ char *cache = xasprintf("%s/images", c->o->build_dir);
	_cleanup_free_ char *err = NULL;
	int r;

	if (!c->plan->needs_tools || c->tools)
		return 0;
	r = tools_image__get(cache, &c->tools, &err);
	if (r < 0)
		log_err("tools disk: %s", err);
	return r;
}

/* vm sysctls every run reads back (guest.conf.KEY) when the variant does not set them. */
static const char *const readback_sysctls[] = {
	"vm/swappiness",	   "vm/watermark_scale_factor", "vm/watermark_boost_factor",
	"vm/min_free_kbytes", "vm/page-cluster",	    "vm/vfs_cache_pressure",
};

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

static int kernels_resolve(struct campaign *c)
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
		r = kernel__check(ck->k, plan_zram_comp(p), &missing);
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
		}
		r = accel_choose(c->o->accel, ck->k, ck->img, c->o->build_dir, true, &ck->accel,
				 &ck->accel_why);
		if (r < 0) {
			log_err("--accel %s: expected auto, kvm or tcg", c->o->accel);
			return r;
		}
		if (!c->quiet)
			log_info("kernel %s (%s): accel %s: %s", ck->k->release, ck->k->sha256, ck->accel,
			 ck->accel_why);
	}
	return tools_resolve(c);
}

/* The text of /lrubench/run.conf for one run (PROTOCOL.md, section 1). */
static char *run_conf(struct campaign *c, size_t vi, int64_t run_id, uint64_t seed, int ord)
{
	const struct plan *p = c->plan;
	const struct plan_variant *v = &p->variants[vi];
	const struct campaign_kernel *ck = &c->kernels[c->variant_kernel[vi]];
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	bool faulted = c->o->fault && (!c->o->fault_run || c->o->fault_run == ord + 1);
	/* The oom fault is the host's: a memcg limit far below the workload's need. */
	bool oom = faulted && !strncmp(c->o->fault, "oom", 3);

	fprintf(f, "# lrubench %s: campaign %s, variant %s\n", LRUBENCH_VERSION, c->name, v->name);
	fprintf(f, "run=%lld\n", (long long)run_id);
	for (size_t i = 0; i < ck->img->nmodules; i++)
		fprintf(f, "module=%s\n", ck->img->modules[i]);
	fprintf(f, "lru_enabled=0x%04x\n", v->lru_enabled);
	if (v->min_ttl_ms >= 0)
		fprintf(f, "min_ttl_ms=%lld\n", (long long)v->min_ttl_ms);
	for (size_t i = 0; i < v->nsysctls; i++)
		fprintf(f, "sysctl=%s=%s\n", v->sysctls[i].key, v->sysctls[i].value);
	for (size_t i = 0; i < ARRAY_SIZE(readback_sysctls); i++) {
		bool set = false;

		for (size_t j = 0; j < v->nsysctls; j++)
			set |= !strcmp(v->sysctls[j].key, readback_sysctls[i]);
		if (!set)
			fprintf(f, "readback=%s\n", readback_sysctls[i]);
	}
	fprintf(f, "sysfs=kernel/mm/transparent_hugepage/enabled=%s\n", plan_variant_thp(p, v));
	if (!strcmp(p->swap, "zram")) {
		fprintf(f, "zram_size=%llu\n", (unsigned long long)p->swap_bytes);
		if (p->zram_comp)
			fprintf(f, "zram_comp=%s\n", p->zram_comp);
	} else {
		fprintf(f, "zram_size=0\n");
	}
	if (p->needs_tools)
		fprintf(f, "tools_disk=%s\n", DISK_SERIAL_TOOLS);
	if (p->needs_scratch)
		fprintf(f, "scratch_disk=%s\n", DISK_SERIAL_SCRATCH);
	if (p->needs_scratch && v->read_ahead_kb >= 0)
		fprintf(f, "scratch_read_ahead_kb=%lld\n", (long long)v->read_ahead_kb);
	fprintf(f, "interval_ms=%llu\n", (unsigned long long)p->interval_ms);
	if (plan_variant_trace(p, v))
		fprintf(f, "trace=reclaim\n");
	for (size_t i = 0; i < p->nmemcgs; i++) {
		const struct plan_memcg *m = &p->memcgs[i];

		fprintf(f, "memcg=%s\n", m->name);
		for (size_t j = 0; j < m->nfiles; j++) {
			const char *k = m->files[j].key;
			const char *own = plan_variant_memcg(v, m->name, k);

			if (oom && (!strcmp(k, "memory.max") || !strcmp(k, "memory.swap.max") ||
				    !strcmp(k, "memory.high")))
				continue;
			fprintf(f, "memcg.%s.%s=%s\n", m->name, k, own ? own : m->files[j].value);
		}
		/* the variant's memcg files that [memcg] leaves unset */
		for (size_t j = 0; j < v->nmemcg_files && !oom; j++) {
			const char *k = v->memcg_files[j].key, *file = k + strlen(m->name) + 1;
			bool set = false;

			if (strncmp(k, m->name, strlen(m->name)) || file[-1] != '.' ||
			    strncmp(file, "memory.", 7))
				continue;
			for (size_t n = 0; n < m->nfiles; n++)
				set |= !strcmp(m->files[n].key, file);
			if (!set)
				fprintf(f, "memcg.%s.%s=%s\n", m->name, file, v->memcg_files[j].value);
		}
		if (oom)
			fprintf(f, "memcg.%s.memory.max=%u\nmemcg.%s.memory.swap.max=0\n", m->name,
				16u << 20, m->name);
	}
	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct plan_workload *w = &p->workloads[i];
		bool has_seed = false;

		fprintf(f, "workload=%s\n", w->name);
		fprintf(f, "workload.%s.memcg=%s\n", w->name, w->memcg);
		fprintf(f, "workload.%s.start_ms=%llu\n", w->name, (unsigned long long)w->start_ms);
		if (w->after)
			fprintf(f, "workload.%s.after=%s\n", w->name, w->after);
		fprintf(f, "workload.%s.arg=%s\n", w->name, w->def->binary);
		for (size_t j = 0; j < w->nparams; j++) {
			fprintf(f, "workload.%s.arg=--%s=%s\n", w->name, w->params[j].key,
				w->params[j].value);
			has_seed |= !strcmp(w->params[j].key, "seed");
		}
		if (!has_seed && workload_param(w->def, "seed"))
			fprintf(f, "workload.%s.arg=--seed=%llu\n", w->name,
				(unsigned long long)seed);
		/* The catalogue's defaults, so what ran is on record whatever the binary's are. */
		for (const struct wl_param *prm = w->def->params; prm->name; prm++) {
			bool set = false;

			for (size_t j = 0; j < w->nparams; j++)
				set |= !strcmp(w->params[j].key, prm->name);
			if (!set && prm->def)
				fprintf(f, "workload.%s.arg=--%s=%s\n", w->name, prm->name,
					prm->def);
		}
		if (w->def->scratch)
			fprintf(f, "workload.%s.arg=--dir=/scratch/%s\n", w->name, w->name);
	}
	/* A fault goes to every run, or only to the run in place fault_run (1-based). */
	if (faulted && !oom) {
		_cleanup_free_ char *kind = xstrdup(c->o->fault);
		char *at = strchr(kind, '@');

		if (at)
			*at++ = '\0';
		fprintf(f, "fault=%s\n", kind);
		if (at)
			fprintf(f, "fault_at_ms=%s\n", at);
	}
	if (p->agent_conf) /* lrubench wss: the probe's keys */
		fputs(p->agent_conf, f);
	fprintf(f, "final_dump=1\n");
	fclose(f);
	return s;
}

static char *run_cmdline(struct campaign *c, const struct kernel *k, const char *thp)
{
	char buf[8];
	bool psi_off = kernel__config(k, "PSI_DEFAULT_DISABLED", buf, sizeof(buf)) &&
		       !strcmp(buf, "y");

	return xasprintf("console=ttyS0 panic=-1 rdinit=/init quiet transparent_hugepage=%s%s%s%s",
			 thp, psi_off ? " psi=1" : "", *c->plan->cmdline ? " " : "",
			 c->plan->cmdline);
}

/* The raw stream is also kept beside the console log, for debugging and fuzz seeds. */
#define RAW_STREAM_LIMIT (256u << 20)

struct run_sink {
	struct ingest *in;
	FILE *raw;
	size_t raw_len;
	int failed;
};

static int run_data(void *ctx, const char *buf, size_t len)
{
	struct run_sink *s = ctx;
	int r;

	if (s->raw && s->raw_len + len <= RAW_STREAM_LIMIT) {
		fwrite(buf, 1, len, s->raw);
		s->raw_len += len;
	}
	r = ingest__feed(s->in, buf, len);

	if (r < 0)
		s->failed = r;
	return r;
}

/* Workload failures, from the agent's events: non-zero exits and OOM kills. */
static bool workload_failed(struct store *st, int64_t run_id, char *why, size_t len)
{
	sqlite3_stmt *q = NULL;
	bool failed = false;

	*why = '\0';
	if (sqlite3_prepare_v2(store__db(st),
			       "SELECT kind, text FROM event WHERE run_id = ? AND "
			       "kind IN ('workload-exit', 'oom') ORDER BY id",
			       -1, &q, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_int64(q, 1, run_id);
	while (sqlite3_step(q) == SQLITE_ROW) {
		const char *kind = (const char *)sqlite3_column_text(q, 0);
		const char *text = (const char *)sqlite3_column_text(q, 1);

		if (workload_event_failed(kind, text ? text : "")) {
			/* An OOM kill says more than the SIGKILL it caused. */
			if (!failed || !strcmp(kind, "oom"))
				snprintf(why, len, "%s: %s", kind, text ? text : "");
			failed = true;
		}
	}
	sqlite3_finalize(q);
	return failed;
}

static void prov(struct campaign *c, int64_t run_id, const char *k, const char *v)
{
	if (store__run_prov(c->st, run_id, k, v ? v : "") < 0)
		log_warn("store: %s", store__errmsg(c->st));
}

static int run_one(struct campaign *c, size_t vi, int64_t run_id, int rep, uint64_t seed, int ord,
		   struct run_outcome *out)
{
	const struct plan *p = c->plan;
	const struct plan_variant *v = &p->variants[vi];
	struct campaign_kernel *ck = &c->kernels[c->variant_kernel[vi]];
	_cleanup_free_ char *dir = xasprintf("%s/run-%lld", c->dir, (long long)run_id);
	_cleanup_free_ char *conf = run_conf(c, vi, run_id, seed, ord);
	_cleanup_free_ char *initrd = xasprintf("%s/initrd.cpio", dir);
	_cleanup_free_ char *cmdline = run_cmdline(c, ck->k, plan_variant_thp(p, v));
	_cleanup_free_ char *scratch = xasprintf("%s/scratch.ext4", dir);
	struct vm_disk disks[2];
	size_t ndisks = 0;
	_cleanup_free_ char *err = NULL, *console = NULL, *console_path = NULL;
	_cleanup_free_ char *seed_s = xasprintf("%llu", (unsigned long long)seed);
	struct run_sink sink = { 0 };
	struct vm_result vm;
	struct vm_spec spec;
	struct console_scan con;
	struct utsname un;
	char why[256];
	size_t console_len = 0;
	bool wl_failed;
	int r;

	mkdir(dir, 0755);
	r = guest_image__run_initrd(ck->img, conf, initrd, &err);
	if (r < 0) {
		log_err("run %lld: %s", (long long)run_id, err);
		return r;
	}
	if (c->tools) {
		disks[ndisks++] = (struct vm_disk){ c->tools->path, DISK_SERIAL_TOOLS, true };
		prov(c, run_id, "tools.sha256", c->tools->hash);
	}
	if (p->needs_scratch) {
		char buf[32];

		r = scratch_disk__create(scratch, plan_scratch_bytes(p), &err);
		if (r < 0) {
			log_err("run %lld: scratch disk: %s", (long long)run_id, err);
			unlink(initrd);
			return r;
		}
		disks[ndisks++] = (struct vm_disk){ scratch, DISK_SERIAL_SCRATCH, false };
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)plan_scratch_bytes(p));
		prov(c, run_id, "scratch.bytes", buf);
	}
	uname(&un);
	prov(c, run_id, "kernel.image", ck->k->image);
	prov(c, run_id, "kernel.sha256", ck->k->sha256);
	prov(c, run_id, "kernel.release", ck->k->release);
	prov(c, run_id, "kernel.version", ck->k->version);
	prov(c, run_id, "kernel.source", ck->k->source);
	prov(c, run_id, "kernel.config", ck->k->config_path);
	prov(c, run_id, "kernel.config_sha256", ck->k->config_sha256);
	for (size_t i = 0; ck->kb && kbuild_prov_keys[i]; i++) {
		_cleanup_free_ char *key = xasprintf("kernel.%s", kbuild_prov_keys[i]);

		prov(c, run_id, key, kbuild__get(ck->kb, kbuild_prov_keys[i]));
	}
	prov(c, run_id, "guest.image_sha256", ck->img->hash);
	prov(c, run_id, "cmdline", cmdline);
	prov(c, run_id, "lru.mode", v->lru);
	{
		char buf[16];

		snprintf(buf, sizeof(buf), "0x%04x", v->lru_enabled);
		prov(c, run_id, "lru.enabled", buf);
	}
	prov(c, run_id, "accel", ck->accel);
	prov(c, run_id, "accel.why", ck->accel_why);
	prov(c, run_id, "run.conf", conf);
	prov(c, run_id, "seed", seed_s);
	prov(c, run_id, "host", un.nodename);
	prov(c, run_id, "host.kernel", un.release);
	prov(c, run_id, "lrubench.version", LRUBENCH_VERSION);

	spec = (struct vm_spec){
		.kernel = ck->k->image,
		.initrd = initrd,
		.cmdline = cmdline,
		.accel = ck->accel,
		.mem_mb = p->mem_bytes >> 20,
		.cpus = p->cpus,
		.disks = disks,
		.ndisks = ndisks,
		.run_dir = dir,
		.hello_timeout_ms = HELLO_TIMEOUT_MS,
		.silence_timeout_ms = c->o->silence_timeout_ms
					      ? c->o->silence_timeout_ms
					      : (p->interval_ms * 10 > SILENCE_MIN_MS ? p->interval_ms * 10
										     : SILENCE_MIN_MS),
		.timeout_ms = c->o->timeout_ms ? c->o->timeout_ms : p->timeout_ms,
		.interrupt = &interrupted,
	};
	r = ingest__new(c->st, run_id, &sink.in);
	if (r < 0)
		return r;
	{
		_cleanup_free_ char *raw = xasprintf("%s/stream.raw", dir);

		sink.raw = fopen(raw, "we");
	}
	store__run_start(c->st, run_id, now_real_ns());
	store__commit(c->st); /* 'running' on disk: a resume after a crash knows */
	log_info("run %lld: variant %s, repetition %d (%s, %s)", (long long)run_id, v->name, rep + 1,
		 ck->accel, v->lru);
	vm_run(&spec, run_data, &sink, &vm);
	ingest__finish(sink.in);
	if (sink.raw)
		fclose(sink.raw);
	prov(c, run_id, "qemu.argv", vm.argv);
	{
		char buf[32];

		snprintf(buf, sizeof(buf), "%.3f", (double)vm.first_byte_ns / 1e9);
		prov(c, run_id, "boot_to_agent_s", vm.first_byte_ns >= 0 ? buf : "never");
		snprintf(buf, sizeof(buf), "%.3f", (double)vm.wall_ns / 1e9);
		prov(c, run_id, "wall_s", buf);
	}
	prov(c, run_id, "agent.version", ingest__stats(sink.in)->agent_version);
	prov(c, run_id, "guest.kernel_release", ingest__stats(sink.in)->kernel_release);
	{
		const struct ingest_stats *is = ingest__stats(sink.in);
		char buf[64];

		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)is->rejected);
		prov(c, run_id, "stream.rejected", buf);
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)vm.channel_bytes);
		prov(c, run_id, "stream.bytes", buf);
		if (is->rejected)
			store__event(c->st, run_id, 0, "stream-rejected", is->first_reject);
	}

	console_path = xasprintf("%s/console.log", dir);
	read_file(console_path, 64u << 20, &console, &console_len);
	if (console)
		store__log(c->st, run_id, "console", console, console_len);
	console_scan(console ? console : "", console_len, &con);
	for (size_t i = 0; i < con.nfindings; i++)
		store__event(c->st, run_id, 0, "kernel", con.findings[i].line);
	wl_failed = workload_failed(c->st, run_id, why, sizeof(why));
	classify_run(&vm, ingest__stats(sink.in), &con, wl_failed, why, out);
	if (sink.failed)
		snprintf(out->reason, sizeof(out->reason), "store failed: %s",
			 store__errmsg(c->st));
	store__event(c->st, run_id, vm.wall_ns, "vm-end", vm_end_name(vm.end));
	store__run_finish(c->st, run_id, out->status, out->reason, now_real_ns());
	store__commit(c->st);
	log_info("run %lld: %s (%s); %llu samples, %llu values, %llu rejected lines, %.1f s",
		 (long long)run_id, out->status, out->reason,
		 (unsigned long long)ingest__stats(sink.in)->samples,
		 (unsigned long long)ingest__stats(sink.in)->values,
		 (unsigned long long)ingest__stats(sink.in)->rejected, (double)vm.wall_ns / 1e9);
	console_scan_free(&con);
	ingest__free(sink.in);
	vm_result_clear(&vm);
	unlink(initrd);
	unlink(scratch);
	return sink.failed;
}

static void campaign_free(struct campaign *c)
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
	free(c->variant_id);
	tools_image__free(c->tools);
	free(c->name);
	free(c->dir);
	store__close(c->st);
}

/* SIGINT/SIGTERM: stop the current guest, keep what it sent, leave a resumable store. */
static void on_signal(int sig)
{
	interrupted = sig;
}

static void signals_install(void)
{
	struct sigaction sa = { .sa_handler = on_signal }; /* no SA_RESTART: poll sees EINTR */

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* The options a campaign was started with, kept so --resume runs the rest the same way. */
static const struct {
	const char *key;
	size_t off;
} saved_opts[] = {
	{ "opt.kernel", offsetof(struct campaign_opts, kernel) },
	{ "opt.config", offsetof(struct campaign_opts, config) },
	{ "opt.modules", offsetof(struct campaign_opts, modules) },
	{ "opt.accel", offsetof(struct campaign_opts, accel) },
	{ "opt.fault", offsetof(struct campaign_opts, fault) },
	{ "opt.history", offsetof(struct campaign_opts, history) },
};

static int variant_index(struct campaign *c, int64_t variant_id)
{
	for (size_t i = 0; i < c->plan->nvariants; i++)
		if (c->variant_id[i] == variant_id)
			return (int)i;
	return -1;
}

/* The next pending run in campaign order; 0 = none left. */
static int next_pending(struct campaign *c, int64_t *id, int64_t *variant, int *rep,
			uint64_t *seed, int *ord)
{
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite3_prepare_v2(store__db(c->st),
			       "SELECT id, variant_id, rep, seed, ord FROM run WHERE status = 'pending' "
			       "ORDER BY ord LIMIT 1",
			       -1, &q, NULL) != SQLITE_OK)
		return -EIO;
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(q, 0);
		*variant = sqlite3_column_int64(q, 1);
		*rep = sqlite3_column_int(q, 2);
		*seed = (uint64_t)sqlite3_column_int64(q, 3);
		*ord = sqlite3_column_int(q, 4);
	}
	sqlite3_finalize(q);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -EIO;
}

static int64_t query_int(struct campaign *c, const char *sql, int64_t a, int64_t b)
{
	sqlite3_stmt *q = NULL;
	int64_t v = -1;

	if (sqlite3_prepare_v2(store__db(c->st), sql, -1, &q, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(q, 1, a);
	sqlite3_bind_int64(q, 2, b);
	if (sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return v;
}

/*
 * An infrastructure failure is not data: the same variant and repetition is
 * queued again (a new run row, last in order) until retries are used up, or
 * regardless of them (budget false) when the host, not the guest, cut it short.
 */
static int retry_infra(struct campaign *c, int64_t run_id, int64_t variant, int rep,
		       uint64_t seed, bool budget)
{
	int64_t failures = query_int(c,
				     "SELECT COUNT(*) FROM run WHERE variant_id = ?1 AND rep = ?2 "
				     "AND status = 'failed-infra'",
				     variant, rep);
	int64_t last = query_int(c, "SELECT MAX(ord) FROM run WHERE ?1 = ?2", 0, 0);
	int64_t retry;
	char buf[32];
	int r;

	if (failures < 0 || last < 0)
		return -EIO;
	if (budget && failures > c->plan->retries) {
		log_warn("run %lld: infrastructure failure %lld, no retries left", (long long)run_id,
			 (long long)failures);
		return 0;
	}
	r = store__run_add(c->st, variant, rep, (int)last + 1, seed, &retry);
	if (r < 0)
		return r;
	snprintf(buf, sizeof(buf), "%lld", (long long)run_id);
	store__run_prov(c->st, retry, "retry_of", buf);
	if (budget)
		log_info("run %lld: infrastructure failure, retried as run %lld (%lld of %d "
			 "retries)", (long long)run_id, (long long)retry, (long long)failures,
			 c->plan->retries);
	else
		log_info("run %lld: cut short by the host, queued again as run %lld",
			 (long long)run_id, (long long)retry);
	return 0;
}

/* MemAvailable from /proc/meminfo in bytes (free memory plus what reclaim can
 * give back without swapping), or -1. */
static int64_t mem_available(void)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	long long kb;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
			return kb * 1024;
	return -1;
}

/*
 * How many guests at once when not asked: what cores and memory allow. Cores
 * are the ones this process may run on (taskset, a cpuset), memory is
 * MemAvailable: a host whose page cache is full of a kernel build still has room.
 */
static int jobs_auto(const struct plan *p)
{
	cpu_set_t set;
	struct sysinfo si;
	long cpus = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
								  : sysconf(_SC_NPROCESSORS_ONLN);
	int64_t avail = mem_available();
	uint64_t guest = p->mem_bytes + (256ull << 20); /* QEMU's own overhead */
	long by_cpu, by_mem;

	if (avail < 0) {
		if (sysinfo(&si) < 0)
			return 1;
		avail = (int64_t)(((uint64_t)si.freeram + si.bufferram) * si.mem_unit);
	}
	by_cpu = cpus / (p->cpus > 0 ? p->cpus : 1);
	by_mem = (long)((uint64_t)avail * 8 / 10 / guest);
	by_cpu = by_cpu < by_mem ? by_cpu : by_mem;
	return by_cpu < 1 ? 1 : by_cpu > 64 ? 64 : (int)by_cpu;
}

struct worker {
	pid_t pid;
	int64_t run_id, variant;
	int rep;
	uint64_t seed;
	int64_t started_ns;
};

/* Worker exit codes (lrubench __run-one). */
#define WORKER_OK 0
#define WORKER_STORE_FAILED 4
#define WORKER_HOST_TROUBLE 5

static pid_t worker_spawn(const char *db, int64_t run_id)
{
	char self[4096], id[32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	pid_t pid;

	if (n <= 0)
		return -1;
	self[n] = '\0';
	snprintf(id, sizeof(id), "%lld", (long long)run_id);
	pid = fork();
	if (pid == 0) {
		const char *argv[] = { self, "__run-one", db, id, NULL };

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(127);
		/* The binary this campaign started with, even if it was rebuilt since
		 * (the path then names a new file, or none): scheduler and workers
		 * must speak the same version. */
		execv("/proc/self/exe", (char *const *)argv);
		execv(self, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Progress: runs done/total, what runs now, elapsed, ETA; one updating line on a terminal. */
static void progress(struct campaign *c, int64_t t0, int64_t done_here, const struct worker *w,
		     int nw, bool final)
{
	int64_t total = query_int(c, "SELECT COUNT(*) FROM run WHERE ?1 = ?2", 0, 0);
	int64_t done = query_int(c, "SELECT COUNT(*) FROM run WHERE status NOT IN ('pending', "
				    "'running') AND ?1 = ?2", 0, 0);
	double el = (double)(now_mono_ns() - t0) / 1e9;
	double eta = done_here > 0 ? el / (double)done_here * (double)(total - done) : -1;
	bool tty = isatty(2);
	char now_running[128] = "";
	size_t off = 0;

	for (int i = 0; i < nw && off < sizeof(now_running) - 16; i++)
		if (w[i].pid > 0)
			off += (size_t)snprintf(now_running + off, sizeof(now_running) - off, "%s%lld",
						off ? "," : " running ", (long long)w[i].run_id);
	char eta_s[32] = "?";

	if (eta >= 0)
		snprintf(eta_s, sizeof(eta_s), "%.0f s", eta);
	fprintf(stderr, "%s[%lld/%lld runs]%s  elapsed %.0f s  ETA %s%s", tty ? "\r\033[K" : "",
		(long long)done, (long long)total, now_running, el, eta_s,
		tty && !final ? "" : "\n");
	fflush(stderr);
}

static void meta_int(struct campaign *c, const char *key, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	store__meta_set(c->st, key, buf);
}

/* The campaign's wall time in earlier invocations (interrupted, resumed). */
static int64_t wall_before_ms(struct campaign *c)
{
	_cleanup_free_ char *v = NULL;
	int64_t ms;

	if (store__meta_get(c->st, "campaign.wall_ms", &v) < 0 || parse_i64(v, &ms) < 0)
		return 0;
	return ms;
}

/*
 * An adaptive campaign whose queue ran dry: look at the key metrics and add
 * a block (every variant once, in plan order, after everything else), or
 * record why it stops. 1 = a block was added, 0 = stop, -errno.
 */
static int adaptive_more(struct campaign *c, const char *db, int64_t wall_ms)
{
	_cleanup_(analysis__freep) struct analysis *an = NULL;
	_cleanup_free_ char *why = NULL;
	struct adaptive_state s = {
		.blocks = (int)query_int(c, "SELECT COALESCE(MAX(rep), -1) + 1 FROM run "
					    "WHERE ?1 = ?2", 0, 0),
		.max_blocks = c->plan->max_repetitions,
		.elapsed_ms = (uint64_t)wall_ms,
		.max_time_ms = c->plan->max_time_ms,
	};
	int64_t ord = query_int(c, "SELECT COALESCE(MAX(ord), -1) + 1 FROM run WHERE ?1 = ?2", 0,
				0);
	enum adaptive_step step;
	int r = analysis__run(c->st, NULL, NULL, &an);

	if (r < 0) {
		log_err("%s: cannot analyse the blocks so far: %s", db, strerror(-r));
		return r;
	}
	step = adaptive__next(an, &s, &why);
	if (step != ADAPTIVE_CONTINUE) {
		log_info("adaptive: stop: %s", why);
		store__meta_set(c->st, "adaptive.stop", why);
		return store__commit(c->st) < 0 ? -EIO : 0;
	}
	for (size_t i = 0; i < c->plan->nvariants; i++) {
		int64_t id;

		r = store__run_add(c->st, c->variant_id[i], s.blocks, (int)ord + (int)i,
				   c->plan->seed + (uint64_t)s.blocks, &id);
		if (r < 0) {
			log_err("%s: %s", db, store__errmsg(c->st));
			return r;
		}
	}
	meta_int(c, "repetitions", s.blocks + 1);
	meta_int(c, "plan.runs", (int64_t)((size_t)(s.blocks + 1) * c->plan->nvariants));
	log_info("adaptive: %s; adding block %d of at most %d", why, s.blocks + 1, s.max_blocks);
	return store__commit(c->st) < 0 ? -EIO : 1;
}

static int campaign_execute(struct campaign *c, const char *db)
{
	_cleanup_free_ char *report_dir = NULL;
	int jobs = c->o->jobs > 0 ? c->o->jobs : jobs_auto(c->plan);
	struct worker *w = xcalloc((size_t)jobs, sizeof(*w));
	int64_t t0 = now_mono_ns(), done_here = 0, wall0 = wall_before_ms(c);
	int failed_runs = 0, running = 0, r = 0, stop = 0, verdict_status;

	signals_install();
	log_info("running up to %d guest%s at once", jobs, jobs > 1 ? "s" : "");
	for (;;) {
		/* Start runs while there is room and work. */
		while (!stop && !interrupted && running < jobs) {
			int64_t run_id, variant;
			uint64_t seed;
			int rep, ord, slot = 0, k;

			k = next_pending(c, &run_id, &variant, &rep, &seed, &ord);
			if (k < 0) {
				r = k;
				stop = 1;
			}
			if (k <= 0)
				break;
			if (variant_index(c, variant) < 0) {
				log_err("%s: run %lld names variant %lld, which the plan lacks", db,
					(long long)run_id, (long long)variant);
				r = -EINVAL;
				stop = 1;
				break;
			}
			while (w[slot].pid > 0)
				slot++;
			/* Claimed before the worker starts: a resume sees it was begun. */
			store__run_start(c->st, run_id, now_real_ns());
			if (store__commit(c->st) < 0) {
				r = -EIO;
				stop = 1;
				break;
			}
			w[slot] = (struct worker){ .run_id = run_id, .variant = variant, .rep = rep,
						   .seed = seed, .started_ns = now_mono_ns() };
			w[slot].pid = worker_spawn(db, run_id);
			if (w[slot].pid < 0) {
				log_err("cannot start a worker: %s", strerror(errno));
				store__run_finish(c->st, run_id, RUN_PENDING, "", 0);
				w[slot].pid = 0;
				r = -errno;
				stop = 1;
				break;
			}
			running++;
			progress(c, t0, done_here, w, jobs, false);
		}
		if (!running) {
			if (c->adaptive && !stop && !interrupted && r == 0) {
				int k = adaptive_more(c, db,
						      wall0 + (now_mono_ns() - t0) / 1000000);

				if (k > 0)
					continue;
				r = k;
			}
			break;
		}

		/* Wait for one to end. */
		int status;
		pid_t pid = waitpid(-1, &status, 0);

		if (pid < 0) {
			if (errno == EINTR) {
				/* Pass a SIGINT/SIGTERM on: workers stop their guests and record. */
				for (int i = 0; i < jobs; i++)
					if (w[i].pid > 0)
						kill(w[i].pid, SIGTERM);
				continue;
			}
			break;
		}
		for (int i = 0; i < jobs; i++) {
			_cleanup_free_ char *st = NULL;
			int code;

			if (w[i].pid != pid)
				continue;
			w[i].pid = 0;
			running--;
			done_here++;
			code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
			{
				sqlite3_stmt *q = NULL;

				if (sqlite3_prepare_v2(store__db(c->st),
						       "SELECT status FROM run WHERE id = ?", -1, &q,
						       NULL) == SQLITE_OK) {
					sqlite3_bind_int64(q, 1, w[i].run_id);
					if (sqlite3_step(q) == SQLITE_ROW)
						st = xstrdup((const char *)sqlite3_column_text(q, 0));
					sqlite3_finalize(q);
				}
			}
			if (!st || !strcmp(st, RUN_RUNNING)) {
				/* The worker died before recording an outcome. */
				_cleanup_free_ char *why = xasprintf(
					interrupted ? "interrupted: lrubench was asked to stop"
						    : "worker died (exit %d) before recording the run",
					code);

				free(st);
				st = xstrdup(RUN_FAILED_INFRA);
				store__run_finish(c->st, w[i].run_id, RUN_FAILED_INFRA, why,
						  now_real_ns());
			}
			failed_runs += strcmp(st, RUN_COMPLETED) != 0;
			if (code == WORKER_STORE_FAILED) {
				log_err("campaign stopped: the store failed; %s keeps every run so far "
					"(lrubench run --resume %s)", db, db);
				r = -EIO;
				stop = 1;
			} else if (code == WORKER_HOST_TROUBLE) {
				log_err("campaign stopped: the host cannot run the guest now; %s keeps "
					"every run so far (lrubench run --resume %s once it can)", db, db);
				r = -ENOMEM;
				stop = 1;
			} else if (!strcmp(st, RUN_FAILED_INFRA)) {
				/* Interrupted runs are queued again for --resume, outside the budget. */
				int k = retry_infra(c, w[i].run_id, w[i].variant, w[i].rep, w[i].seed,
						    !interrupted);

				if (k < 0) {
					r = k;
					stop = 1;
				}
			}
			store__commit(c->st);
			progress(c, t0, done_here, w, jobs, false);
		}
	}
	free(w);
	meta_int(c, "campaign.wall_ms", wall0 + (now_mono_ns() - t0) / 1000000);
	store__commit(c->st);
	if (interrupted) {
		log_err("interrupted by signal %d: %s keeps every run so far; continue with "
			"'lrubench run --resume %s'", interrupted, db, db);
		return -EINTR;
	}
	if (r < 0)
		return r;
	progress(c, t0, done_here, NULL, 0, true);
	store__commit(c->st);

	/* The summary on stdout, and a report directory. */
	verdict_status = compare_print(c->st, stdout, NULL, false);
	fflush(stdout);
	if (verdict_status < 0) {
		log_err("compare: %s", strerror(-verdict_status));
		return verdict_status;
	}
	/* an A/A campaign's noise figures, stored once it ends; its report quotes them */
	r = noise__update(c->st);
	if (r < 0)
		log_warn("noise figures not stored: %s", strerror(-r));
	report_dir = xasprintf("%s/%s", c->o->reports_dir, c->name);
	r = report_write(c->st, db, report_dir);
	if (r < 0)
		log_err("report %s: %s", report_dir, strerror(-r));
	else
		log_info("report: %s/report.md (every row: lrubench compare --all %s)", report_dir,
			 db);
	log_info("database: %s (%d runs failed in this invocation)", db, failed_runs);
	if (verdict_status == EXIT_INCOMPLETE)
		log_err("%s: incomplete: runs failed or a variant has too few blocks (exit %d)", db,
			verdict_status);
	if (c->o->history && history_record(c->st, db, c->o->history, c->o->reports_dir) != 0)
		return -EIO;
	return r < 0 ? r : verdict_status;
}

int campaign_run(struct plan *plan, const struct campaign_opts *o)
{
	struct campaign c = { .plan = plan, .o = o };
	_cleanup_free_ char *db = NULL;
	char stamp[32];
	time_t now = time(NULL);
	int reps = o->repetitions > 0 ? o->repetitions : plan->repetitions;
	int order = 0, r;
	size_t nruns = 0;

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	/* Shards started in the same second on one host keep apart their run directories. */
	if (o->shard.count)
		c.name = xasprintf("%s-%s-s%dof%d", plan->name, stamp, o->shard.index,
				   o->shard.count);
	else
		c.name = xasprintf("%s-%s", plan->name, stamp);
	c.adaptive = plan->adaptive && o->repetitions <= 0;
	if (c.adaptive && o->shard.count) {
		log_err("--shard %d/%d: %s has repetitions = auto, which adds blocks as the data "
			"comes in; shards need a fixed number: give --reps N",
			o->shard.index, o->shard.count, plan->path);
		r = -EINVAL;
		goto out;
	}
	if (!shard__fits(&o->shard, reps)) {
		log_err("--shard %d/%d: the plan has %d repetitions; a shard runs whole repetitions "
			"(every variant on each host), so at most %d shards (or raise --reps)",
			o->shard.index, o->shard.count, reps, reps);
		r = -EINVAL;
		goto out;
	}
	r = kernels_resolve(&c);
	if (r < 0)
		goto out;

	{
		struct sysinfo si;

		if (sysinfo(&si) == 0 && plan->mem_bytes > (uint64_t)si.totalram * si.mem_unit) {
			log_err("%s: guest memory %llu MiB is more than this host has (%llu MiB)",
				plan->path, (unsigned long long)(plan->mem_bytes >> 20),
				(unsigned long long)(((uint64_t)si.totalram * si.mem_unit) >> 20));
			r = -ENOMEM;
			goto out;
		}
	}
	mkdir_p(o->results_dir);
	db = o->db_path ? xstrdup(o->db_path) : xasprintf("%s/%s.db", o->results_dir, c.name);
	if (access(db, F_OK) == 0) {
		log_err("%s exists: choose another --db, or continue it with --resume", db);
		r = -EEXIST;
		goto out;
	}
	c.dir = xasprintf("%s/%s", o->results_dir, c.name);
	mkdir_p(c.dir);
	r = store__open(db, &c.st);
	if (r < 0) {
		log_err("%s: cannot open the store: %s", db, strerror(-r));
		goto out;
	}
	{
		struct utsname un;
		_cleanup_free_ char *qv = vm_qemu_version();
		char buf[32];

		uname(&un);
		store__meta_set(c.st, "campaign", c.name);
		store__meta_set(c.st, "plan.path", plan->path);
		store__meta_set(c.st, "plan.text", plan->text);
		store__meta_set(c.st, "plan.baseline", plan->baseline);
		if (plan->remap) /* ab, bisect: the variants as they re-made them */
			store__meta_set(c.st, "plan.remap", plan->remap);
		store__meta_set(c.st, "lrubench.version", LRUBENCH_VERSION);
		store__meta_set(c.st, "host", un.nodename);
		store__meta_set(c.st, "qemu.version", qv ? qv : "unknown");
		snprintf(buf, sizeof(buf), "%lld", (long long)now);
		store__meta_set(c.st, "created", buf);
		snprintf(buf, sizeof(buf), "%d", reps);
		store__meta_set(c.st, "repetitions", buf);
		snprintf(buf, sizeof(buf), "%d", plan->warmup);
		store__meta_set(c.st, "plan.warmup", buf); /* stats skip repetitions below it */
		/* the verdicts' alpha spending over looks, and --resume, read it */
		store__meta_set(c.st, "plan.adaptive", c.adaptive ? "1" : "0");
		if (o->aa_variant)
			store__meta_set(c.st, "noise.variant", o->aa_variant);
		if (o->wss_opts)
			store__meta_set(c.st, "wss.opts", o->wss_opts);
		{
			char sha[65];

			/* merge compares plans by this hash, and their runs by place */
			sha256_buf(plan->text, strlen(plan->text), sha);
			store__meta_set(c.st, "plan.sha256", sha);
			snprintf(buf, sizeof(buf), "%zu", (size_t)reps * plan->nvariants);
			store__meta_set(c.st, "plan.runs", buf);
		}
		if (o->shard.count) {
			snprintf(buf, sizeof(buf), "%d/%d", o->shard.index, o->shard.count);
			store__meta_set(c.st, "shard", buf);
		}
		snprintf(buf, sizeof(buf), "%d", o->fault_run);
		store__meta_set(c.st, "opt.fault_run", buf);
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->silence_timeout_ms);
		store__meta_set(c.st, "opt.silence_ms", buf);
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->timeout_ms);
		store__meta_set(c.st, "opt.timeout_ms", buf);
		for (size_t i = 0; i < ARRAY_SIZE(saved_opts); i++) {
			const char *v = *(const char *const *)((const char *)o + saved_opts[i].off);

			if (v)
				store__meta_set(c.st, saved_opts[i].key, v);
		}
	}
	c.variant_id = xcalloc(plan->nvariants, sizeof(int64_t));
	for (size_t i = 0; i < plan->nvariants; i++) {
		const struct plan_variant *v = &plan->variants[i];
		const struct campaign_kernel *ck = &c.kernels[c.variant_kernel[i]];
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
		if (v->trace >= 0)
			fprintf(f, " trace=%s", v->trace ? "on" : "off");
		for (size_t j = 0; j < v->nmemcg_files; j++)
			fprintf(f, " memcg.%s=%s", v->memcg_files[j].key, v->memcg_files[j].value);
		fclose(f);
		kname = xasprintf("%s %.12s", ck->k->release, ck->k->sha256);
		r = store__variant_add(c.st, v->name, kname, v->lru, knobs, &c.variant_id[i]);
		if (r < 0) {
			log_err("%s: %s", db, store__errmsg(c.st));
			goto out;
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
			r = store__run_add(c.st, c.variant_id[i], rep, order++,
					   plan->seed + (uint64_t)rep, &id);
			if (r < 0) {
				log_err("%s: %s", db, store__errmsg(c.st));
				goto out;
			}
			nruns++;
		}
	}
	store__commit(c.st);
	if (o->shard.count)
		log_info("campaign %s: shard %d/%d, %zu of the plan's %zu runs, store %s", c.name,
			 o->shard.index, o->shard.count, nruns, (size_t)reps * plan->nvariants, db);
	else if (c.adaptive)
		log_info("campaign %s: %zu runs (%zu variants x %d repetitions), then a block at a "
			 "time until every key metric is decided (at most %d repetitions%s), store "
			 "%s",
			 c.name, nruns, plan->nvariants, reps, plan->max_repetitions,
			 plan->max_time_ms ? " and max_time" : "", db);
	else
		log_info("campaign %s: %zu runs (%zu variants x %d repetitions), store %s", c.name,
			 nruns, plan->nvariants, reps, db);
	r = campaign_execute(&c, db);
out:
	campaign_free(&c);
	return r == -EINTR ? 130 : r < 0 ? EXIT_ERROR : r;
}

/*
 * Load a campaign from its database: the plan it was started with, its
 * options, its variants and kernels. Shared by --resume and the workers.
 */
static int campaign_load(struct campaign *c, const char *db, struct campaign_opts *o,
			 char **saved)
{
	_cleanup_free_ char *text = NULL, *path = NULL, *err = NULL;
	sqlite3_stmt *q = NULL;
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
	c->dir = xasprintf("%s/%s", o->results_dir, c->name);
	mkdir_p(c->dir);
	r = kernels_resolve(c);
	if (r < 0)
		return r;
	c->variant_id = xcalloc(c->plan->nvariants, sizeof(int64_t));
	for (size_t i = 0; i < c->plan->nvariants; i++) {
		c->variant_id[i] = -1;
		if (sqlite3_prepare_v2(store__db(c->st), "SELECT id FROM variant WHERE name = ?", -1,
				       &q, NULL) != SQLITE_OK)
			return -EIO;
		sqlite3_bind_text(q, 1, c->plan->variants[i].name, -1, SQLITE_STATIC);
		if (sqlite3_step(q) == SQLITE_ROW)
			c->variant_id[i] = sqlite3_column_int64(q, 0);
		sqlite3_finalize(q);
	}
	return 0;
}

int campaign_resume(const char *db, const struct campaign_opts *opts)
{
	struct campaign_opts o = *opts;
	struct campaign c = { .o = &o };
	char *saved[ARRAY_SIZE(saved_opts)] = { 0 };
	sqlite3_stmt *q = NULL;
	int r;

	if (access(db, R_OK | W_OK) < 0) {
		log_err("--resume %s: %s", db, strerror(errno));
		return 2;
	}
	r = campaign_load(&c, db, &o, saved);
	if (r < 0)
		goto out;
	/* A run left 'running' was cut off with the host: an infrastructure failure. */
	if (sqlite3_prepare_v2(store__db(c.st),
			       "SELECT id, variant_id, rep, seed FROM run WHERE status = 'running'", -1,
			       &q, NULL) != SQLITE_OK) {
		r = -EIO;
		goto out;
	}
	while (sqlite3_step(q) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(q, 0);

		store__run_finish(c.st, id, RUN_FAILED_INFRA,
				  "lrubench stopped during the run (resumed later)", now_real_ns());
		r = retry_infra(&c, id, sqlite3_column_int64(q, 1), sqlite3_column_int(q, 2),
				(uint64_t)sqlite3_column_int64(q, 3), false);
		if (r < 0)
			break;
	}
	sqlite3_finalize(q);
	store__commit(c.st);
	log_info("resuming campaign %s: %lld runs left", c.name,
		 (long long)query_int(&c, "SELECT COUNT(*) FROM run WHERE status = 'pending' "
					  "AND ?1 = ?2", 0, 0));
	r = campaign_execute(&c, db);
out:
	plan__free(c.plan);
	campaign_free(&c);
	for (size_t i = 0; i < ARRAY_SIZE(saved); i++)
		free(saved[i]);
	return r == -EINTR ? 130 : r < 0 ? EXIT_ERROR : r;
}

int campaign_worker(const char *db, int64_t run_id, const struct campaign_opts *opts)
{
	struct campaign_opts o = *opts;
	struct campaign c = { .o = &o, .quiet = true };
	char *saved[ARRAY_SIZE(saved_opts)] = { 0 };
	int64_t variant = -1;
	uint64_t seed = 0;
	int rep = 0, ord = 0, vi = -1, r, code;
	struct run_outcome out = { .status = RUN_FAILED_INFRA };
	sqlite3_stmt *q = NULL;

	signals_install();
	r = campaign_load(&c, db, &o, saved);
	if (r == 0 && sqlite3_prepare_v2(store__db(c.st),
					 "SELECT variant_id, rep, seed, ord FROM run WHERE id = ?", -1,
					 &q, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(q, 1, run_id);
		if (sqlite3_step(q) == SQLITE_ROW) {
			variant = sqlite3_column_int64(q, 0);
			rep = sqlite3_column_int(q, 1);
			seed = (uint64_t)sqlite3_column_int64(q, 2);
			ord = sqlite3_column_int(q, 3);
		}
		sqlite3_finalize(q);
		vi = variant_index(&c, variant);
	}
	if (r < 0 || vi < 0) {
		log_err("run %lld: cannot load it from %s", (long long)run_id, db);
		code = WORKER_STORE_FAILED;
	} else {
		r = run_one(&c, (size_t)vi, run_id, rep, seed, ord, &out);
		code = r < 0 ? WORKER_STORE_FAILED : out.host_trouble ? WORKER_HOST_TROUBLE : WORKER_OK;
	}
	plan__free(c.plan);
	campaign_free(&c);
	for (size_t i = 0; i < ARRAY_SIZE(saved); i++)
		free(saved[i]);
	return code;
}

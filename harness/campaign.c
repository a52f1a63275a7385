// SPDX-License-Identifier: GPL-2.0
#include "campaign.h"
#include "accel.h"
#include "catalogue.h"
#include "classify.h"
#include "compare.h"
#include "image.h"
#include "ingest.h"
#include "kernel-build.h"
#include "kernel.h"
#include "plan.h"
#include "report.h"
#include "store.h"
#include "util.h"
#include "vm-qemu.h"

#include <libgen.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

/* Boot to agent under TCG takes ~6 s here; leave room for a loaded machine. */
#define HELLO_TIMEOUT_MS 120000
#define SILENCE_MIN_MS 60000

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
	int64_t *variant_id;
};

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
		if (!strcmp(spec, "debian")) {
			r = kernel__debian_default(c->o->kernel_cache, &image, &err);
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
		if (!strcmp(spec, "debian")) {
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
		/* Refuse before booting, naming what is missing. */
		r = kernel__check(ck->k, &missing);
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

			r = guest_image__get(ck->k, bin, cache, &ck->img, &err);
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
		log_info("kernel %s (%s): accel %s: %s", ck->k->release, ck->k->sha256, ck->accel,
			 ck->accel_why);
	}
	return 0;
}

/* The text of /lrubench/run.conf for one run (PROTOCOL.md, section 1). */
static char *run_conf(struct campaign *c, size_t vi, int64_t run_id, uint64_t seed)
{
	const struct plan *p = c->plan;
	const struct plan_variant *v = &p->variants[vi];
	const struct campaign_kernel *ck = &c->kernels[c->variant_kernel[vi]];
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

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
	fprintf(f, "sysfs=kernel/mm/transparent_hugepage/enabled=%s\n", p->thp);
	if (!strcmp(p->swap, "zram")) {
		fprintf(f, "zram_size=%llu\n", (unsigned long long)p->swap_bytes);
		if (p->zram_comp)
			fprintf(f, "zram_comp=%s\n", p->zram_comp);
	} else {
		fprintf(f, "zram_size=0\n");
	}
	fprintf(f, "interval_ms=%llu\n", (unsigned long long)p->interval_ms);
	for (size_t i = 0; i < p->nmemcgs; i++) {
		const struct plan_memcg *m = &p->memcgs[i];

		fprintf(f, "memcg=%s\n", m->name);
		for (size_t j = 0; j < m->nfiles; j++)
			fprintf(f, "memcg.%s.%s=%s\n", m->name, m->files[j].key, m->files[j].value);
	}
	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct plan_workload *w = &p->workloads[i];
		bool has_seed = false;

		fprintf(f, "workload=%s\n", w->name);
		fprintf(f, "workload.%s.memcg=%s\n", w->name, w->memcg);
		fprintf(f, "workload.%s.start_ms=%llu\n", w->name, (unsigned long long)w->start_ms);
		fprintf(f, "workload.%s.arg=%s\n", w->name, w->def->binary);
		for (size_t j = 0; j < w->nparams; j++) {
			fprintf(f, "workload.%s.arg=--%s=%s\n", w->name, w->params[j].key,
				w->params[j].value);
			has_seed |= !strcmp(w->params[j].key, "seed");
		}
		if (!has_seed && workload_param(w->def, "seed"))
			fprintf(f, "workload.%s.arg=--seed=%llu\n", w->name,
				(unsigned long long)seed);
	}
	if (c->o->fault) {
		_cleanup_free_ char *kind = xstrdup(c->o->fault);
		char *at = strchr(kind, '@');

		if (at)
			*at++ = '\0';
		fprintf(f, "fault=%s\n", kind);
		if (at)
			fprintf(f, "fault_at_ms=%s\n", at);
	}
	fprintf(f, "final_dump=1\n");
	fclose(f);
	return s;
}

static char *run_cmdline(struct campaign *c, const struct kernel *k)
{
	char buf[8];
	bool psi_off = kernel__config(k, "PSI_DEFAULT_DISABLED", buf, sizeof(buf)) &&
		       !strcmp(buf, "y");

	return xasprintf("console=ttyS0 panic=-1 rdinit=/init quiet transparent_hugepage=%s%s%s%s",
			 c->plan->thp, psi_off ? " psi=1" : "", *c->plan->cmdline ? " " : "",
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
			if (!failed)
				snprintf(why, len, "%s: %s", kind, text);
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

static int run_one(struct campaign *c, size_t vi, int64_t run_id, int rep, uint64_t seed,
		   struct run_outcome *out)
{
	const struct plan *p = c->plan;
	const struct plan_variant *v = &p->variants[vi];
	struct campaign_kernel *ck = &c->kernels[c->variant_kernel[vi]];
	_cleanup_free_ char *dir = xasprintf("%s/run-%lld", c->dir, (long long)run_id);
	_cleanup_free_ char *conf = run_conf(c, vi, run_id, seed);
	_cleanup_free_ char *initrd = xasprintf("%s/initrd.cpio", dir);
	_cleanup_free_ char *cmdline = run_cmdline(c, ck->k);
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
		.run_dir = dir,
		.hello_timeout_ms = HELLO_TIMEOUT_MS,
		.silence_timeout_ms = c->o->silence_timeout_ms
					      ? c->o->silence_timeout_ms
					      : (p->interval_ms * 10 > SILENCE_MIN_MS ? p->interval_ms * 10
										     : SILENCE_MIN_MS),
		.timeout_ms = c->o->timeout_ms ? c->o->timeout_ms : p->timeout_ms,
	};
	r = ingest__new(c->st, run_id, &sink.in);
	if (r < 0)
		return r;
	{
		_cleanup_free_ char *raw = xasprintf("%s/stream.raw", dir);

		sink.raw = fopen(raw, "we");
	}
	store__run_start(c->st, run_id, now_real_ns());
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
	free(c->name);
	free(c->dir);
	store__close(c->st);
}

int campaign_run(struct plan *plan, const struct campaign_opts *o)
{
	struct campaign c = { .plan = plan, .o = o };
	_cleanup_free_ char *db = NULL, *report_dir = NULL;
	char stamp[32];
	time_t now = time(NULL);
	int reps = o->repetitions > 0 ? o->repetitions : plan->repetitions;
	int order = 0, failed_runs = 0, r;
	int64_t *run_ids = NULL;
	size_t nruns = 0;

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	c.name = xasprintf("%s-%s", plan->name, stamp);
	r = kernels_resolve(&c);
	if (r < 0)
		goto out;

	mkdir_p(o->results_dir);
	db = o->db_path ? xstrdup(o->db_path) : xasprintf("%s/%s.db", o->results_dir, c.name);
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
		store__meta_set(c.st, "lrubench.version", LRUBENCH_VERSION);
		store__meta_set(c.st, "host", un.nodename);
		store__meta_set(c.st, "qemu.version", qv ? qv : "unknown");
		snprintf(buf, sizeof(buf), "%lld", (long long)now);
		store__meta_set(c.st, "created", buf);
		snprintf(buf, sizeof(buf), "%d", reps);
		store__meta_set(c.st, "repetitions", buf);
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
		fclose(f);
		kname = xasprintf("%s %.12s", ck->k->release, ck->k->sha256);
		r = store__variant_add(c.st, v->name, kname, v->lru, knobs, &c.variant_id[i]);
		if (r < 0) {
			log_err("%s: %s", db, store__errmsg(c.st));
			goto out;
		}
	}
	/* Interleave: every variant once per repetition, A B A B. */
	for (int rep = 0; rep < reps; rep++) {
		for (size_t i = 0; i < plan->nvariants; i++) {
			run_ids = xrealloc(run_ids, nruns + 1, sizeof(*run_ids));
			r = store__run_add(c.st, c.variant_id[i], rep, order++,
					   plan->seed + (uint64_t)rep, &run_ids[nruns]);
			if (r < 0) {
				log_err("%s: %s", db, store__errmsg(c.st));
				goto out;
			}
			nruns++;
		}
	}
	store__commit(c.st);
	log_info("campaign %s: %zu runs (%zu variants x %d repetitions), store %s", c.name, nruns,
		 plan->nvariants, reps, db);
	for (size_t i = 0; i < nruns; i++) {
		size_t vi = i % plan->nvariants;
		int rep = (int)(i / plan->nvariants);
		struct run_outcome out;

		log_info("[%zu/%zu]", i + 1, nruns);
		r = run_one(&c, vi, run_ids[i], rep, plan->seed + (uint64_t)rep, &out);
		if (r < 0) {
			log_err("campaign stopped: the store failed (%s); %s keeps every run so far",
				store__errmsg(c.st), db);
			goto out;
		}
		failed_runs += strcmp(out.status, RUN_COMPLETED) != 0;
	}
	store__commit(c.st);

	/* The comparison on stdout, and a report directory. */
	r = compare_print(c.st, stdout, NULL);
	fflush(stdout);
	if (r < 0)
		log_err("compare: %s", strerror(-r));
	report_dir = xasprintf("%s/%s", o->reports_dir, c.name);
	r = report_write(c.st, db, report_dir);
	if (r < 0)
		log_err("report %s: %s", report_dir, strerror(-r));
	else
		log_info("report: %s/report.md", report_dir);
	log_info("database: %s (%d of %zu runs failed)", db, failed_runs, nruns);
	r = 0;
out:
	free(run_ids);
	campaign_free(&c);
	return r < 0 ? 2 : 0;
}

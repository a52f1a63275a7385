// SPDX-License-Identifier: GPL-2.0
/*
 * One run of a campaign, in a worker process ('lrubench __run-one'): its
 * run.conf and disks, its provenance, the guest booted and its stream
 * ingested into the store, the console scanned and the outcome classified.
 */
#include "campaign-priv.h"
#include "classify.h"
#include "disks.h"
#include "image.h"
#include "ingest.h"
#include "kernel-build.h"
#include "kernel.h"
#include "plan.h"
#include "run-conf.h"
#include "store-campaign.h"
#include "store.h"
#include "util.h"
#include "vm-qemu.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

/* Boot to agent under TCG takes ~6 s here; leave room for a loaded machine. */
#define HELLO_TIMEOUT_MS 120000
#define SILENCE_MIN_MS 60000

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

struct workload_failure {
	char *why;
	size_t len;
	bool failed;
};

static void workload_event(void *ctx, const char *kind, const char *text)
{
	struct workload_failure *wf = ctx;

	if (workload_event_failed(kind, text)) {
		/* An OOM kill says more than the SIGKILL it caused. */
		if (!wf->failed || !strcmp(kind, "oom"))
			snprintf(wf->why, wf->len, "%s: %s", kind, text);
		wf->failed = true;
	}
}

/* Workload failures, from the agent's events: non-zero exits and OOM kills. */
static bool workload_failed(struct store *st, int64_t run_id, char *why, size_t len)
{
	struct workload_failure wf = { .why = why, .len = len };

	*why = '\0';
	store__run_workload_events(st, run_id, workload_event, &wf);
	return wf.failed;
}

static void prov(struct campaign *c, int64_t run_id, const char *k, const char *v)
{
	if (store__run_prov(c->st, run_id, k, v ? v : "") < 0)
		log_warn("store: %s", store__errmsg(c->st));
}

int campaign__run_one(struct campaign *c, size_t vi, const struct store_run *run,
		      struct run_outcome *out)
{
	int64_t run_id = run->id;
	int rep = run->rep;
	uint64_t seed = run->seed;
	/* A fault goes to every run, or only to the run in place fault_run (1-based). */
	bool faulted = c->o->fault && (!c->o->fault_run || c->o->fault_run == run->ord + 1);
	struct run_conf_run rc = {
		.campaign = c->name,
		.id = run_id,
		.seed = seed,
		.fault = faulted ? c->o->fault : NULL,
	};
	const struct plan *p = c->plan;
	const struct plan_variant *v = &p->variants[vi];
	struct campaign_kernel *ck = &c->kernels[c->variant_kernel[vi]];
	_cleanup_free_ char *dir = xasprintf("%s/run-%lld", c->dir, (long long)run_id);
	_cleanup_free_ char *conf = run_conf__plan(p, vi, ck->img, &rc);
	_cleanup_free_ char *initrd = xasprintf("%s/initrd.cpio", dir);
	_cleanup_free_ char *cmdline = run_cmdline(c, ck->k, plan__variant_thp(p, v));
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

		r = scratch_disk__create(scratch, plan__scratch_bytes(p), &err);
		if (r < 0) {
			log_err("run %lld: scratch disk: %s", (long long)run_id, err);
			unlink(initrd);
			return r;
		}
		disks[ndisks++] = (struct vm_disk){ scratch, DISK_SERIAL_SCRATCH, false };
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)plan__scratch_bytes(p));
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
	{
		_cleanup_free_ char *clock = guest_clock__format(&c->clock);
		char buf[16];

		prov(c, run_id, "clock", clock);
		snprintf(buf, sizeof(buf), "%d", p->cpus);
		prov(c, run_id, "guest.cpus", buf);
		snprintf(buf, sizeof(buf), "%d", p->numa);
		prov(c, run_id, "guest.numa", buf);
	}
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
		.icount = c->clock.instructions ? &c->clock.icount : NULL,
		.mem_mb = p->mem_bytes >> 20,
		.cpus = p->cpus,
		.numa = p->numa,
		.disks = disks,
		.ndisks = ndisks,
		.run_dir = dir,
		.hello_timeout_ms = HELLO_TIMEOUT_MS,
		.silence_timeout_ms = c->o->silence_timeout_ms
					      ? c->o->silence_timeout_ms
					      : (p->interval_ms * 10 > SILENCE_MIN_MS ? p->interval_ms * 10
										     : SILENCE_MIN_MS),
		.timeout_ms = c->o->timeout_ms ? c->o->timeout_ms : p->timeout_ms,
		.interrupt = &campaign_interrupted,
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
	console_scan__free(&con);
	ingest__free(sink.in);
	vm_result__clear(&vm);
	unlink(initrd);
	unlink(scratch);
	return sink.failed;
}

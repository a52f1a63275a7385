// SPDX-License-Identifier: GPL-2.0
/* Writing /lrubench/run.conf: see run-conf.h. */
#include "run-conf.h"
#include "catalogue.h"
#include "disks.h"
#include "image.h"
#include "plan.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* vm sysctls every run reads back (guest.conf.KEY) when the variant does not set them. */
static const char *const readback_sysctls[] = {
	"vm/swappiness",	   "vm/watermark_scale_factor", "vm/watermark_boost_factor",
	"vm/min_free_kbytes", "vm/page-cluster",	    "vm/vfs_cache_pressure",
};

/* What every run.conf starts with: the run, then the modules the agent loads
 * (its channel's among them: without them it cannot speak at all). */
static void conf_head(FILE *f, const char *run, const struct guest_image *img)
{
	fprintf(f, "run=%s\n", run);
	for (size_t i = 0; i < img->nmodules; i++)
		fprintf(f, "module=%s\n", img->modules[i]);
}

static void conf_memcgs(FILE *f, const struct plan *p, const struct plan_variant *v, bool oom)
{
	for (size_t i = 0; i < p->nmemcgs; i++) {
		const struct plan_memcg *m = &p->memcgs[i];

		fprintf(f, "memcg=%s\n", m->name);
		for (size_t j = 0; j < m->nfiles; j++) {
			const char *k = m->files[j].key;
			const char *own = plan_variant__memcg(v, m->name, k);

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
}

static void conf_workloads(FILE *f, const struct plan *p, uint64_t seed)
{
	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct plan_workload *w = &p->workloads[i];
		bool has_seed = false;

		fprintf(f, "workload=%s\n", w->name);
		fprintf(f, "workload.%s.memcg=%s\n", w->name, w->memcg);
		fprintf(f, "workload.%s.start_ms=%llu\n", w->name, (unsigned long long)w->start_ms);
		if (w->after)
			fprintf(f, "workload.%s.after=%s\n", w->name, w->after);
		if (w->numa_policy)
			fprintf(f, "workload.%s.mempolicy=%s\n", w->name, w->numa_policy);
		if (w->cpu_affinity)
			fprintf(f, "workload.%s.cpus=%s\n", w->name, w->cpu_affinity);
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
}

char *run_conf__plan(const struct plan *p, size_t vi, const struct guest_image *img,
		     const struct run_conf_run *run)
{
	const struct plan_variant *v = &p->variants[vi];
	_cleanup_free_ char *id = xasprintf("%lld", (long long)run->id);
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	/* The oom fault is the host's: a memcg limit far below the workload's need. */
	bool oom = run->fault && !strncmp(run->fault, "oom", 3);

	fprintf(f, "# lrubench %s: campaign %s, variant %s\n", LRUBENCH_VERSION, run->campaign,
		v->name);
	conf_head(f, id, img);
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
	fprintf(f, "sysfs=kernel/mm/transparent_hugepage/enabled=%s\n", plan__variant_thp(p, v));
	if (v->fault_around_bytes >= 0) /* debugfs, mounted before the knobs */
		fprintf(f, "sysfs=kernel/debug/fault_around_bytes=%lld\n",
			(long long)v->fault_around_bytes);
	if (!strcmp(p->swap, "zram")) {
		fprintf(f, "zram_size=%llu\n", (unsigned long long)p->swap_bytes);
		if (p->zram_comp)
			fprintf(f, "zram_comp=%s\n", p->zram_comp);
	} else {
		fprintf(f, "zram_size=0\n");
	}
	fprintf(f, "cgroup2_options=%s\n", p->cgroup2_options);
	if (p->numa > 1)
		fprintf(f, "numa_nodes=%d\n", p->numa);
	if (p->needs_tools)
		fprintf(f, "tools_disk=%s\n", DISK_SERIAL_TOOLS);
	if (p->needs_scratch)
		fprintf(f, "scratch_disk=%s\n", DISK_SERIAL_SCRATCH);
	if (p->needs_scratch && v->read_ahead_kb >= 0)
		fprintf(f, "scratch_read_ahead_kb=%lld\n", (long long)v->read_ahead_kb);
	fprintf(f, "interval_ms=%llu\n", (unsigned long long)p->interval_ms);
	if (plan__variant_trace(p, v))
		fprintf(f, "trace=reclaim\n");
	conf_memcgs(f, p, v, oom);
	conf_workloads(f, p, run->seed);
	if (run->fault && !oom) {
		_cleanup_free_ char *kind = xstrdup(run->fault);
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

char *run_conf__hello(const struct guest_image *img, const char *run)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	conf_head(f, run, img);
	fprintf(f, "lru_enabled=0x0000\nzram_size=0\ninterval_ms=1000\n");
	fclose(f);
	return s;
}

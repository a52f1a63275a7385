// SPDX-License-Identifier: GPL-2.0
/*
 * Per-workload software counters through libperf: one evsel per counter on
 * the workload's pid, inherited by its children, enabled at its exec so the
 * agent's own work between fork and exec is not counted. After the workload
 * exits the counters keep their last value, which is what samples report.
 */
#include "agent.h"
#include "util.h"

#include <linux/perf_event.h>
#include <perf/core.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>
#include <string.h>

static const struct perf_counter_def {
	const char *name; /* KEY in the stream */
	uint64_t config;  /* PERF_TYPE_SOFTWARE event */
} perf_counter_defs[] = {
	{ "task-clock", PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS },
	{ "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
};

struct perf_counters {
	struct perf_thread_map *threads;
	struct perf_evsel *evsels[ARRAY_SIZE(perf_counter_defs)];
};

static int libperf_log(enum libperf_print_level level, const char *fmt, va_list ap)
{
	if (level > LIBPERF_WARN)
		return 0;
	fputs("lrubench-agent: libperf: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

void perf_setup_logging(void)
{
	libperf_init(libperf_log);
}

void perf_counters_free(struct perf_counters *pc)
{
	if (!pc)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(pc->evsels); i++) {
		if (!pc->evsels[i])
			continue;
		perf_evsel__close(pc->evsels[i]);
		perf_evsel__delete(pc->evsels[i]);
	}
	if (pc->threads)
		perf_thread_map__put(pc->threads);
	free(pc);
}

static void perf_counters_freep(struct perf_counters **pc)
{
	perf_counters_free(*pc);
}

int perf_counters_open(pid_t pid, struct perf_counters **ret)
{
	_cleanup_(perf_counters_freep) struct perf_counters *pc = xcalloc(1, sizeof(*pc));

	pc->threads = perf_thread_map__new_array(1, &pid);
	if (!pc->threads)
		return -ENOMEM;
	for (size_t i = 0; i < ARRAY_SIZE(perf_counter_defs); i++) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_SOFTWARE,
			.size = sizeof(attr),
			.config = perf_counter_defs[i].config,
			.disabled = 1,
			.enable_on_exec = 1,
			.inherit = 1,
		};
		int r;

		pc->evsels[i] = perf_evsel__new(&attr);
		if (!pc->evsels[i])
			return -ENOMEM;
		r = perf_evsel__open(pc->evsels[i], NULL, pc->threads);
		if (r < 0) {
			log_err("perf: open %s on pid %d: %s", perf_counter_defs[i].name, (int)pid,
				strerror(-r));
			perf_evsel__delete(TAKE_PTR(pc->evsels[i]));
			return r;
		}
	}
	*ret = TAKE_PTR(pc);
	return 0;
}

int perf_counters_read(struct perf_counters *pc, perf_counter_fn fn, void *arg)
{
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(perf_counter_defs); i++) {
		struct perf_counts_values counts = { 0 };
		int r = perf_evsel__read(pc->evsels[i], 0, 0, &counts);

		if (r < 0) {
			ret = r;
			continue;
		}
		fn(arg, perf_counter_defs[i].name, counts.val);
	}
	return ret;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a run ended: completed, workload failed, kernel failed or the
 * infrastructure failed, with a reason; from what QEMU did, what the agent
 * sent and what the kernel printed on the console. Pure functions.
 */
#ifndef LRUBENCH_CLASSIFY_H
#define LRUBENCH_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>

struct vm_result;
struct ingest_stats;

/* One kernel complaint found in a console log. */
struct console_finding {
	const char *kind;  /* panic, oops, bug, warning, hung-task, call-trace */
	char line[160];	   /* the line, trimmed */
};

struct console_scan {
	struct console_finding *findings;
	size_t nfindings;
	bool panic;
	char panic_line[160];
};

/* Scan a console log for panics, oopses, BUGs, WARNINGs, hung tasks. */
void console_scan(const char *log, size_t len, struct console_scan *ret);
void console_scan__free(struct console_scan *s);

/*
 * Whether an agent event says a workload failed: "oom ..." always, and
 * "workload-exit NAME status N" with N != 0 or "workload-exit NAME signal N".
 */
bool workload_event_failed(const char *kind, const char *text);

struct run_outcome {
	const char *status; /* RUN_* from store.h */
	char reason[256];
	bool host_trouble;  /* the host cannot run guests now: stop the campaign */
};

/*
 * Classify. workload_failed/workload_why come from the agent's events
 * (non-zero exit, OOM kill in the memcg).
 */
void classify_run(const struct vm_result *vm, const struct ingest_stats *st,
		  const struct console_scan *con, bool workload_failed, const char *workload_why,
		  struct run_outcome *ret);

#endif

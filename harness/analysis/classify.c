// SPDX-License-Identifier: GPL-2.0
#include "classify.h"
#include "ingest.h"
#include "store.h"
#include "util.h"
#include "vm-qemu.h"

#include <string.h>

static const struct {
	const char *needle;
	const char *kind;
} console_patterns[] = {
	{ "Kernel panic - not syncing", "panic" },
	{ "Oops:", "oops" },
	{ "BUG:", "bug" },
	{ "WARNING:", "warning" },
	{ "blocked for more than", "hung-task" },
	{ "Call Trace:", "call-trace" },
	{ "Tainted:", "taint" },
};

static void copy_line(char *dst, size_t dlen, const char *s, size_t len)
{
	while (len && (s[0] == ' ' || s[0] == '\r')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == '\r' || s[len - 1] == ' '))
		len--;
	if (len >= dlen)
		len = dlen - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)dst[i] < 0x20 || (unsigned char)dst[i] > 0x7e)
			dst[i] = '?';
}

void console_scan(const char *log, size_t len, struct console_scan *ret)
{
	const char *p = log, *end = log + len;

	memset(ret, 0, sizeof(*ret));
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t llen = eol ? (size_t)(eol - p) : (size_t)(end - p);

		for (size_t i = 0; i < ARRAY_SIZE(console_patterns); i++) {
			struct console_finding *f;

			if (!memmem(p, llen, console_patterns[i].needle,
				    strlen(console_patterns[i].needle)))
				continue;
			if (ret->nfindings >= 1000)
				break;
			ret->findings = xrealloc(ret->findings, ret->nfindings + 1,
						 sizeof(*ret->findings));
			f = &ret->findings[ret->nfindings++];
			f->kind = console_patterns[i].kind;
			copy_line(f->line, sizeof(f->line), p, llen);
			if (!ret->panic && !strcmp(f->kind, "panic")) {
				ret->panic = true;
				copy_line(ret->panic_line, sizeof(ret->panic_line), p, llen);
			}
			break;
		}
		p = eol ? eol + 1 : end;
	}
}

void console_scan__free(struct console_scan *s)
{
	free(s->findings);
	memset(s, 0, sizeof(*s));
}

bool workload_event_failed(const char *kind, const char *text)
{
	char what[16];
	int n;

	if (!strcmp(kind, "oom"))
		return true;
	if (strcmp(kind, "workload-exit"))
		return false;
	if (sscanf(text, "%*s %15s %d", what, &n) != 2)
		return true; /* an exit we cannot read is not a success */
	return strcmp(what, "status") || n != 0;
}

static bool kernel_complained(const struct console_scan *con, const char **what)
{
	for (size_t i = 0; i < con->nfindings; i++) {
		const char *k = con->findings[i].kind;

		if (!strcmp(k, "oops") || !strcmp(k, "bug") || !strcmp(k, "hung-task")) {
			*what = con->findings[i].line;
			return true;
		}
	}
	return false;
}

void classify_run(const struct vm_result *vm, const struct ingest_stats *st,
		  const struct console_scan *con, bool workload_failed, const char *workload_why,
		  struct run_outcome *ret)
{
	const char *what = NULL;

#define OUT(s, ...) (ret->status = (s), snprintf(ret->reason, sizeof(ret->reason), __VA_ARGS__))
	ret->host_trouble = false;
	if (vm->error && strstr(vm->error, "cannot set up guest memory")) {
		OUT(RUN_FAILED_INFRA, "the host cannot give the guest its memory: %s", vm->error);
		ret->host_trouble = true;
	} else if (vm->end == VM_START_FAILED) {
		OUT(RUN_FAILED_INFRA, "QEMU could not start: %s", vm->error ? vm->error : "?");
	} else if (vm->end == VM_INTERRUPTED) {
		OUT(RUN_FAILED_INFRA, "interrupted: lrubench was asked to stop");
	} else if (con->panic && strstr(con->panic_line, "Attempted to kill init") &&
		   !kernel_complained(con, &what)) {
		/*
		 * PID 1 is lrubench's agent: its death panics the kernel, but the
		 * kernel did nothing wrong (no oops or BUG before it). An
		 * infrastructure failure, retried like one.
		 */
		OUT(RUN_FAILED_INFRA, "the agent (PID 1) died: %s", con->panic_line);
	} else if (con->panic) {
		OUT(RUN_FAILED_KERNEL, "%s", con->panic_line);
	} else if (vm->end == VM_HELLO_TIMEOUT) {
		if (kernel_complained(con, &what))
			OUT(RUN_FAILED_KERNEL, "agent never spoke; kernel: %s", what);
		else
			OUT(RUN_FAILED_INFRA, "agent never spoke within the boot timeout: killed");
	} else if (vm->end == VM_SILENCE_TIMEOUT || vm->end == VM_TIMEOUT) {
		const char *which = vm->end == VM_TIMEOUT ? "run timeout" : "channel silent";

		if (kernel_complained(con, &what))
			OUT(RUN_FAILED_KERNEL, "%s; kernel: %s", which, what);
		else
			OUT(RUN_FAILED_INFRA, "%s with no kernel message: killed after %.0f s", which,
			    (double)vm->wall_ns / 1e9);
	} else if (vm->end == VM_ABORTED) {
		OUT(RUN_FAILED_INFRA, "host stopped the run (store failure)");
	} else if (vm->exit_code != 0 || vm->signal) {
		OUT(RUN_FAILED_INFRA, "QEMU died (%s %d)", vm->signal ? "signal" : "status",
		    vm->signal ? vm->signal : vm->exit_code);
	} else if (!st->bye) {
		if (kernel_complained(con, &what))
			OUT(RUN_FAILED_KERNEL, "guest stopped without bye; kernel: %s", what);
		else
			OUT(RUN_FAILED_INFRA, "guest stopped without bye (agent died?)");
	} else if (workload_failed) {
		OUT(RUN_FAILED_WORKLOAD, "%s", workload_why);
	} else if (strcmp(st->bye_reason, "done")) {
		OUT(RUN_FAILED_INFRA, "agent gave up: %s", st->bye_reason);
	} else {
		OUT(RUN_COMPLETED, "%llu samples", (unsigned long long)st->samples);
	}
#undef OUT
}

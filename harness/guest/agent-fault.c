// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection (run.conf fault=), so the host's handling of a guest gone
 * wrong can be tested on real guests:
 *   panic    a kernel panic through sysrq ('c')
 *   hang     the agent stops sampling and sleeps forever, never powers off
 *   crash    the agent (PID 1) dies: the kernel panics "Attempted to kill init"
 *   garbage  a burst of random bytes, over-long lines, NULs and malformed
 *            records on the stream; then the run goes on normally
 */
#include "agent.h"
#include "util.h"

#include <signal.h>
#include <string.h>

static void garbage(struct agent *a)
{
	static const char *const bad_records[] = {
		"v vmstat - pgfault notanumber\n",
		"v outside a sample\n",
		"sample x y\n",
		"end 999999 1\n",
		"g 1 2\n",
		"result onlytwo fields\n",
		"hello\n",
		"bye\n",
		"event\n",
		"conf\n",
		"no-such-record 1 2 3\n",
		"v vmstat - pgfault 99999999999999999999999\n",
		"sample -1 -1\n",
		"\r\n",
		"\n",
	};
	uint64_t x = (uint64_t)now_mono_ns() | 1;
	char buf[8192];
	int r = 0;

	/* xorshift, not getrandom(): that blocks for seconds in a guest whose
	 * entropy pool is not ready yet, and any bytes will do. */
	for (size_t i = 0; i < sizeof(buf); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (char)(x >> 24);
	}
	r |= channel_write_raw(a->ch, buf, 4096);
	r |= channel_write_raw(a->ch, "\n", 1);
	memset(buf, 'x', sizeof(buf));
	buf[sizeof(buf) - 1] = '\n';
	r |= channel_write_raw(a->ch, buf, sizeof(buf)); /* 8 KiB line */
	memset(buf, 0, 256);
	r |= channel_write_raw(a->ch, buf, 256);
	r |= channel_write_raw(a->ch, "\n", 1);
	for (size_t i = 0; i < ARRAY_SIZE(bad_records); i++)
		r |= channel_write_raw(a->ch, bad_records[i], strlen(bad_records[i]));
	/* A line cut short, then the clean end of it. */
	r |= channel_write_raw(a->ch, "v vmstat - nr_free_pa", 21);
	r |= channel_write_raw(a->ch, "\n", 1);
	if (r)
		log_warn("fault garbage: some writes failed");
}

void fault_inject(struct agent *a)
{
	enum fault_kind f = a->conf->fault;

	channel_event(a->ch, "fault", "%s", fault_kind_name(f));
	switch (f) {
	case FAULT_NONE:
		return;
	case FAULT_GARBAGE:
		garbage(a);
		channel_event(a->ch, "fault", "garbage sent; going on");
		return;
	case FAULT_HANG:
		/* Children are left unreaped: nothing runs here any more. */
		for (;;)
			pause();
	case FAULT_PANIC:
		write_file("/proc/sys/kernel/sysrq", "1");
		sync();
		write_file("/proc/sysrq-trigger", "c");
		log_err("fault panic: sysrq-trigger did not panic");
		break;
	case FAULT_CRASH:
		/* A signal sent to PID 1 by itself is ignored; abort() ends in a
		 * faulting instruction, which the kernel forces through. */
		abort();
	}
	for (;;)
		pause();
}

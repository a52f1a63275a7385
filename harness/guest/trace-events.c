// SPDX-License-Identifier: GPL-2.0
#include "trace-events.h"

#include "util.h"

#include <string.h>
#include <sys/stat.h>

const char *const trace_roots[2] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

static uint64_t event_id(const char *dir, const char *name)
{
	_cleanup_free_ char *path = xasprintf("%s/%s/id", dir, name);
	_cleanup_free_ char *text = NULL;
	uint64_t id;

	if (read_file(path, 64, &text, NULL) < 0 || parse_u64(strstrip(text), &id) < 0)
		return 0;
	return id;
}

int trace_reclaim_ids(const char *const *roots, size_t nroots, uint64_t ids[RECLAIM_PATHS][2],
		      char *why, size_t why_len)
{
	_cleanup_free_ char *dir = NULL;
	int n = 0;

	for (size_t i = 0; i < nroots && !dir; i++) {
		_cleanup_free_ char *d = xasprintf("%s/events/vmscan", roots[i]);
		struct stat st;

		if (stat(d, &st) == 0 && S_ISDIR(st.st_mode))
			dir = TAKE_PTR(d);
	}
	if (!dir) {
		snprintf(why, why_len, "no events/vmscan under %s%s%s (no tracefs, or a kernel "
				       "without CONFIG_TRACEPOINTS/EVENT_TRACING)",
			 nroots ? roots[0] : "", nroots > 1 ? " or " : "", nroots > 1 ? roots[1] : "");
		return -ENOENT;
	}
	for (size_t p = 0; p < RECLAIM_PATHS; p++) {
		ids[p][0] = event_id(dir, reclaim_paths[p].begin_tp);
		ids[p][1] = event_id(dir, reclaim_paths[p].end_tp);
		n += ids[p][0] && ids[p][1];
	}
	return n;
}

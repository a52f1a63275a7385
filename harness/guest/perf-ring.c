// SPDX-License-Identifier: GPL-2.0
#include "perf-ring.h"

#include <errno.h>
#include <stdbool.h>
#include <linux/perf_event.h>
#include <string.h>

uint64_t perf_ring_read(const void *data, size_t size, uint64_t tail, uint64_t head, void *buf,
			perf_record_fn fn, void *arg)
{
	const unsigned char *d = data;

	while (head - tail >= sizeof(struct perf_event_header)) {
		size_t off = (size_t)(tail & (size - 1));
		struct perf_event_header h;
		const void *rec;

		/* the header itself may wrap */
		if (off + sizeof(h) <= size) {
			memcpy(&h, d + off, sizeof(h));
		} else {
			size_t first = size - off;

			memcpy(&h, d + off, first);
			memcpy((char *)&h + first, d, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || h.size > head - tail)
			break;
		if (off + h.size <= size) {
			rec = d + off;
		} else {
			size_t first = size - off;

			memcpy(buf, d + off, first);
			memcpy((char *)buf + first, d, h.size - first);
			rec = buf;
		}
		fn(arg, rec, h.size);
		tail += h.size;
	}
	return tail;
}

int perf_sample_decode(const void *rec, size_t len, uint64_t sample_type,
		       struct perf_sample_min *ret)
{
	const uint64_t base = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	const unsigned char *p = (const unsigned char *)rec + sizeof(struct perf_event_header);
	struct perf_sample_min s = { 0 };
	bool cg = sample_type & PERF_SAMPLE_CGROUP;
	size_t need = sizeof(struct perf_event_header) + 3 * sizeof(uint64_t) + (cg ? 8 : 0);

	if ((sample_type & ~PERF_SAMPLE_CGROUP) != base || len < need)
		return -EINVAL;
	memcpy(&s.id, p, 8);
	memcpy(&s.pid, p + 8, 4);
	memcpy(&s.tid, p + 12, 4);
	memcpy(&s.time, p + 16, 8);
	if (cg)
		memcpy(&s.cgroup, p + 24, 8);
	*ret = s;
	return 0;
}

int perf_lost_decode(const void *rec, size_t len, uint64_t *ret_lost)
{
	/* header, u64 id, u64 lost */
	if (len < sizeof(struct perf_event_header) + 16)
		return -EINVAL;
	memcpy(ret_lost, (const unsigned char *)rec + sizeof(struct perf_event_header) + 8, 8);
	return 0;
}

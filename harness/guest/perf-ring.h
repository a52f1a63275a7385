/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The records of a perf_event mmap ring buffer, and the few fields of a
 * sample the tracer asks for. Pure: the ring is memory (the kernel's data
 * pages, or a test's buffer) and positions; the caller reads data_head and
 * writes data_tail with the barriers the ABI wants (linux/perf_event.h).
 */
#ifndef LRUBENCH_PERF_RING_H
#define LRUBENCH_PERF_RING_H

#include <stddef.h>
#include <stdint.h>

/* One whole record (header first), contiguous even where it wrapped. */
typedef void (*perf_record_fn)(void *arg, const void *rec, size_t len);

/*
 * Every record between tail and head of the ring's data area (size bytes,
 * a power of two) to fn; a record that wraps is copied into buf (at least
 * as large as the largest record, 64 KiB). Returns the new tail: head, or
 * where a malformed record (size 0 or past head) stopped the walk; the
 * caller then drops the rest (tail = head).
 */
uint64_t perf_ring_read(const void *data, size_t size, uint64_t tail, uint64_t head, void *buf,
			perf_record_fn fn, void *arg);

struct perf_sample_min {
	uint64_t id;	 /* PERF_SAMPLE_IDENTIFIER: which event */
	uint32_t pid, tid;
	uint64_t time;
	uint64_t cgroup; /* 0 unless PERF_SAMPLE_CGROUP */
};

/*
 * Decode a PERF_RECORD_SAMPLE whose attr.sample_type is sample_type, which
 * must be PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
 * optionally with PERF_SAMPLE_CGROUP (the kernel lays the fields out in
 * that order). -EINVAL for another type or a short record.
 */
int perf_sample_decode(const void *rec, size_t len, uint64_t sample_type,
		       struct perf_sample_min *ret);
/* The count of a PERF_RECORD_LOST; -EINVAL for a short record. */
int perf_lost_decode(const void *rec, size_t len, uint64_t *ret_lost);

#endif

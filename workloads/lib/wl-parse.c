// SPDX-License-Identifier: GPL-2.0
#include "wl-parse.h"

#include "util.h"
#include "wl.h"

#include <json-c/json.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

static json_object *jget(json_object *o, const char *key)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *const fio_percentiles[4] = { "50.000000", "90.000000", "99.000000",
						"99.900000" };

int fio_json_parse(const char *text, struct fio_result *ret, char **ret_err)
{
	const char *start = strchr(text, '{');
	json_object *root, *jobs, *job, *rd, *wr, *dir, *pct;
	struct fio_result f = { 0 };
	int r = -EINVAL;

	if (!start) {
		*ret_err = xstrdup("no JSON object in fio's output");
		return -EINVAL;
	}
	root = json_tokener_parse(start);
	if (!root) {
		*ret_err = xstrdup("fio's output is not valid JSON");
		return -EINVAL;
	}
	jobs = jget(root, "jobs");
	job = jobs && json_object_is_type(jobs, json_type_array) &&
			      json_object_array_length(jobs) > 0
		      ? json_object_array_get_idx(jobs, 0)
		      : NULL;
	rd = jget(job, "read");
	wr = jget(job, "write");
	if (!rd || !wr) {
		*ret_err = xstrdup("fio's JSON has no jobs[0].read and .write");
		goto out;
	}
	f.error = json_object_get_int(jget(job, "error"));
	f.majf = (uint64_t)json_object_get_int64(jget(job, "majf"));
	f.ios = (uint64_t)json_object_get_int64(jget(rd, "total_ios")) +
		(uint64_t)json_object_get_int64(jget(wr, "total_ios"));
	f.iops = json_object_get_double(jget(rd, "iops")) +
		 json_object_get_double(jget(wr, "iops"));
	f.io_bytes = (uint64_t)json_object_get_int64(jget(rd, "io_bytes")) +
		     (uint64_t)json_object_get_int64(jget(wr, "io_bytes"));
	f.bw_bytes = json_object_get_double(jget(rd, "bw_bytes")) +
		     json_object_get_double(jget(wr, "bw_bytes"));
	f.runtime_s = fmax(json_object_get_double(jget(rd, "runtime")),
			   json_object_get_double(jget(wr, "runtime"))) /
		      1000.0;
	dir = json_object_get_int64(jget(rd, "total_ios")) > 0 ? rd : wr;
	pct = jget(jget(dir, "clat_ns"), "percentile");
	if (f.ios && !pct) {
		*ret_err = xstrdup("fio's JSON has no clat_ns percentiles (--percentile_list?)");
		goto out;
	}
	for (int i = 0; i < 4 && pct; i++) {
		json_object *v = jget(pct, fio_percentiles[i]);

		if (!v) {
			*ret_err = xasprintf("fio's JSON has no clat_ns percentile %s",
					     fio_percentiles[i]);
			goto out;
		}
		f.clat_ns[i] = json_object_get_double(v);
	}
	*ret = f;
	r = 0;
out:
	json_object_put(root);
	return r;
}

/* "    reads/s:                      6619.06" -> 6619.06; -ENOENT if no such line. */
static int sb_value(const char *text, const char *label, double *ret)
{
	const char *p = strstr(text, label);
	char *end;

	if (!p)
		return -ENOENT;
	p += strlen(label);
	*ret = strtod(p, &end);
	return end == p ? -EINVAL : 0;
}

/* Rows "       0.002 |*****       79" between the histogram's header and a blank line. */
static int sb_hist(const char *text, struct wl_hist *hist, uint64_t *ret_count)
{
	const char *p = strstr(text, "Latency histogram (values are in milliseconds)");
	uint64_t count = 0;

	if (!p)
		return -ENOENT;
	p = strchr(p, '\n');
	p = p ? strchr(p + 1, '\n') : NULL; /* the "value --- distribution --- count" line */
	while (p && *++p) {
		size_t len = strcspn(p, "\n");
		const char *bar = memchr(p, '|', len), *last = p + len;
		char *end;
		double ms;
		uint64_t n;

		if (!bar)
			break;
		ms = strtod(p, &end);
		if (end == p || end > bar)
			return -EINVAL;
		while (last > bar && last[-1] == ' ')
			last--;
		while (last > bar && last[-1] >= '0' && last[-1] <= '9')
			last--;
		n = strtoull(last, &end, 10);
		if (end == last)
			return -EINVAL;
		wl_hist_add_n(hist, (uint64_t)llround(ms * 1e6), n);
		count += n;
		p += len;
	}
	*ret_count = count;
	return 0;
}

int sysbench_parse(const char *text, struct sysbench_result *ret, struct wl_hist *hist,
		   char **ret_err)
{
	static const struct {
		const char *label;
		size_t off;
	} fields[] = {
		{ "reads/s:", offsetof(struct sysbench_result, reads_s) },
		{ "writes/s:", offsetof(struct sysbench_result, writes_s) },
		{ "fsyncs/s:", offsetof(struct sysbench_result, fsyncs_s) },
		{ "read, MiB/s:", offsetof(struct sysbench_result, read_mib_s) },
		{ "written, MiB/s:", offsetof(struct sysbench_result, written_mib_s) },
		{ "total time:", offsetof(struct sysbench_result, total_time_s) },
	};
	struct sysbench_result s = { 0 };
	double events;

	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		/* the field at its offsetof(): not a reinterpretation of bytes */
		// cppcheck-suppress invalidPointerCast
		if (sb_value(text, fields[i].label, (double *)((char *)&s + fields[i].off)) < 0) {
			*ret_err = xasprintf("no '%s' in sysbench's output", fields[i].label);
			return -EINVAL;
		}
	}
	if (sb_value(text, "total number of events:", &events) < 0) {
		*ret_err = xstrdup("no 'total number of events:' in sysbench's output");
		return -EINVAL;
	}
	s.events = (uint64_t)events;
	if (sb_hist(text, hist, &s.hist_count) < 0) {
		*ret_err = xstrdup("no latency histogram in sysbench's output (--histogram=on?)");
		return -EINVAL;
	}
	*ret = s;
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a report, its plots and the deck read from a campaign store, as typed
 * rows (the schema is store.c's). Each function reads once and hands back
 * memory the caller owns; none writes. Returns 0 or -errno (-EIO when the
 * query fails, with the store's message in store__errmsg()).
 */
#ifndef LRUBENCH_STORE_REPORT_H
#define LRUBENCH_STORE_REPORT_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* A run as the report lists it, in the campaign's order. */
struct store_run_row {
	int64_t id;
	char *variant, *status, *reason, *accel; /* "" for NULL */
	int rep;
	int64_t samples;
	double wall_s; /* NAN while the run has not ended */
	int64_t kernel_warnings; /* console lines the kernel complained on (events 'kernel') */
	char *first_warning;
};
int store__report_runs(struct store *st, struct store_run_row **ret, size_t *ret_n);
void store_run_rows__free(struct store_run_row *rows, size_t n);

/* Text triples: a variant's provenance (variant, key, value), a key and a value. */
struct store_kv {
	char *a, *b, *c;
};
void store_kvs__free(struct store_kv *kv, size_t n);
/* Each variant's provenance from its first run that has any: (variant, key, value) by variant. */
int store__report_prov(struct store *st, struct store_kv **ret, size_t *ret_n);
/* Every distinct (key, value) of any run's provenance, by key then value (c unused). */
int store__report_prov_values(struct store *st, struct store_kv **ret, size_t *ret_n);
/* Why runs did not trace reclaim: each text of the 'skip' events on "trace reclaim..."
 * and in how many, first seen first. */
struct store_text_count {
	char *text;
	int64_t n;
};
int store__report_trace_skips(struct store *st, struct store_text_count **ret, size_t *ret_n);
void store_text_counts__free(struct store_text_count *t, size_t n);

/* A run's console log (the log table), or -ENOENT; *ret_len its bytes (may hold NULs). */
int store__report_console(struct store *st, int64_t run_id, char **ret, size_t *ret_len);

/* A run's time origin: its first workload start, else its first sample, else 0 (ns). */
int store__report_run_origin(struct store *st, int64_t run_id, int64_t *ret);
/* The guest's page size a run recorded (run_prov guest.conf.page_size), else 4096. */
int store__report_run_page_size(struct store *st, int64_t run_id, int64_t *ret);

/* A run's phase events (workload start and exit, agent phases but sampling, workloads and
 * done, OOM kills) with t_ns > 0, by time. */
struct store_event_row {
	int64_t t_ns;
	char *kind, *text; /* "" for NULL */
};
int store__report_phases(struct store *st, int64_t run_id, struct store_event_row **ret,
			 size_t *ret_n);
/* A run's mark events (a workload's "mark" lines, PROTOCOL.md), in time order. */
int store__report_marks(struct store *st, int64_t run_id, struct store_event_row **ret,
			size_t *ret_n);
void store_event_rows__free(struct store_event_row *ev, size_t n);

/* The memcg paths a run sampled lru_gen for, in the order the store finds them. */
int store__report_gen_memcgs(struct store *st, int64_t run_id, char ***ret, size_t *ret_n);
/* A run's lru_gen rows of one memcg, nodes summed: by sample, then generation, newest first. */
struct store_gen_row {
	int64_t seq, t_ns, gen, anon, file;
};
int store__report_gens(struct store *st, int64_t run_id, const char *memcg,
		       struct store_gen_row **ret, size_t *ret_n);

/* The scopes metric was sampled in, in any run, by name. */
int store__report_scopes(struct store *st, const char *metric, char ***ret, size_t *ret_n);
/* A run's values of metric in scope with their samples' times, by sample. */
struct store_point {
	int64_t t_ns, v;
};
int store__report_series(struct store *st, int64_t run_id, const char *metric, const char *scope,
			 struct store_point **ret, size_t *ret_n);

void store_strv__free(char **v, size_t n);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a workload's working set should be, from its own parameters and
 * counts (never from what the kernel measured): Denning's W(t, tau), the
 * distinct pages touched in a window tau. With independent draws of page
 * popularity p_i and w accesses in the window its expectation is
 *
 *   E[W] = sum_i 1 - (1 - p_i)^w.
 *
 * The popularity is the workload's real generator, not an ideal Zipf: Gray
 * et al.'s approximation ("Quickly generating billion-record synthetic
 * databases", SIGMOD '94) as wl_zipf_next() and fio's zipf_next() compute
 * it (ranks 0 and 1 exact, the rest from a continuous inverse), the ranks
 * mapped to pages as the workload maps them. Neither map is injective:
 * anon-zipf's wl_scatter() is a permutation only for a power-of-two page
 * count, fio multiplies the rank by a 64-bit constant modulo the block count
 * (lib/zipf.c, __hash_u64); colliding ranks add up on one page and some
 * pages are never drawn. w is, in this order: the workload's read() calls
 * in the window, for a workload whose every access is one read() (fio's
 * psync reads; counted by the probe from /proc/PID/io syscr when the memcg
 * runs nothing else); the paced rate (the workload's rate parameter) times
 * the window; its own mean throughput times the window.
 *
 * One row per workload type that has a model (wss-model.c); a plan's other
 * workloads have none, and their working set is only measured.
 */
#ifndef LRUBENCH_WSS_MODEL_H
#define LRUBENCH_WSS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct plan_workload;

/*
 * The probability of each rank of [0, n) under Gray's generator with skew
 * theta >= 0 (theta != 1; 0 is uniform) into p[n]. 0, or -EINVAL.
 */
int wss_zipf_rank_probs(uint64_t n, double theta, double *p);

/* A workload's map from rank to page of [0, n). */
typedef uint64_t (*wss_map_fn)(uint64_t rank, uint64_t n);
uint64_t wss_map_anon_zipf(uint64_t rank, uint64_t n); /* wl_scatter() */
uint64_t wss_map_fio(uint64_t rank, uint64_t n);       /* fio 3.x zipf_next(), rand_off 0 */

/* sum_i 1 - (1 - p_i)^w over p[n]. */
double wss_expected_distinct(const double *p, size_t n, double w);

/*
 * E[W] for w accesses of Gray's generator over n pages mapped through map;
 * *ret_reach (may be NULL) gets how many pages the map reaches. 0 or -EINVAL.
 */
int wss_zipf_expected(uint64_t n, double theta, wss_map_fn map, double w, double *ret,
		      uint64_t *ret_reach);

/* What a model needs: the workload as the plan resolved it, a window, its counts. */
struct wss_model_in {
	const struct plan_workload *w;
	double window_s;
	double throughput; /* its own result (ops/s), NAN if it reported none */
	double reads;	   /* its read() calls in a window of reads_window_s, NAN if unknown */
	double reads_window_s;
};

struct wss_model {
	const char *workload; /* catalogue type */
	const char *kind;     /* "anon" or "file": the estimate it stands beside */
	bool reads_count;     /* each access is one read(): in->reads counts them */
	/*
	 * The expected distinct pages in the window into *ret_pages and how it
	 * was found into *ret_how (malloc'd: sizes, skew, accesses); -ENODATA
	 * (with *ret_how saying why) when the parameters do not determine it.
	 */
	int (*known)(const struct wss_model_in *in, double *ret_pages, char **ret_how);
};

/* The model of a catalogue type, or NULL. */
const struct wss_model *wss_model_find(const char *type);

#endif

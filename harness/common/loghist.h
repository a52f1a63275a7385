/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A log-linear histogram of durations in ns, in the style of HdrHistogram
 * with 3 significant bits: values below 16 have a bucket each, and every
 * octave [2^k, 2^(k+1)) above is cut into 8 equal buckets, so a bucket is
 * at most 1/8 of its lower bound wide (quantiles within 12.5%, 6% on
 * average once interpolated). 496 buckets cover the whole uint64 range.
 *
 * The guest agent records into it; the host reads the counts back by each
 * bucket's lower bound (the stream names a bucket by it, PROTOCOL.md) and
 * reduces them to quantiles. Both use this one scheme.
 */
#ifndef LRUBENCH_LOGHIST_H
#define LRUBENCH_LOGHIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOGHIST_SUB_BITS 3
#define LOGHIST_BUCKETS 496

struct loghist {
	uint64_t n;   /* values recorded */
	uint64_t sum; /* their sum (saturates) */
	uint64_t count[LOGHIST_BUCKETS];
};

/* The bucket holding v. */
unsigned loghist_index(uint64_t v);
/* The smallest value of bucket i (i < LOGHIST_BUCKETS). */
uint64_t loghist_lower(unsigned i);
/* The first value above bucket i; UINT64_MAX for the last bucket. */
uint64_t loghist_upper(unsigned i);
/* Whether lo is the lower bound of a bucket, and which (*ret_index). */
bool loghist_is_lower(uint64_t lo, unsigned *ret_index);

void loghist__add(struct loghist *h, uint64_t v);
/* Add every count of b to a. */
void loghist__merge(struct loghist *a, const struct loghist *b);
/*
 * The q-quantile (0 < q <= 1) of the recorded values: the bucket where the
 * cumulative count reaches q x n, linearly interpolated inside it. NAN when
 * the histogram is empty.
 */
double loghist__quantile(const struct loghist *h, double q);

#endif

// SPDX-License-Identifier: GPL-2.0
#include "loghist.h"

#include <math.h>

#define SUB (1u << LOGHIST_SUB_BITS)

/*
 * Bucket of v: with s = max(0, msb(v) - 3), index = 8 s + (v >> s), where
 * v >> s lies in [8, 16) for every v >= 8; values below 8 index themselves.
 */
unsigned loghist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb > LOGHIST_SUB_BITS ? msb - LOGHIST_SUB_BITS : 0;
	return shift * SUB + (unsigned)(v >> shift);
}

uint64_t loghist_lower(unsigned i)
{
	unsigned shift;

	if (i < 2 * SUB)
		return i;
	shift = i / SUB - 1;
	return (uint64_t)(i - shift * SUB) << shift;
}

uint64_t loghist_upper(unsigned i)
{
	return i + 1 < LOGHIST_BUCKETS ? loghist_lower(i + 1) : UINT64_MAX;
}

bool loghist_is_lower(uint64_t lo, unsigned *ret_index)
{
	unsigned i = loghist_index(lo);

	if (loghist_lower(i) != lo)
		return false;
	*ret_index = i;
	return true;
}

void loghist__add(struct loghist *h, uint64_t v)
{
	h->count[loghist_index(v)]++;
	h->n++;
	h->sum = h->sum + v < h->sum ? UINT64_MAX : h->sum + v;
}

void loghist__merge(struct loghist *a, const struct loghist *b)
{
	for (unsigned i = 0; i < LOGHIST_BUCKETS; i++)
		a->count[i] += b->count[i];
	a->n += b->n;
	a->sum = a->sum + b->sum < a->sum ? UINT64_MAX : a->sum + b->sum;
}

double loghist__quantile(const struct loghist *h, double q)
{
	uint64_t total = 0;
	double rank, cum = 0;

	for (unsigned i = 0; i < LOGHIST_BUCKETS; i++)
		total += h->count[i];
	if (!total || !(q > 0) || q > 1)
		return NAN;
	rank = q * (double)total;
	for (unsigned i = 0; i < LOGHIST_BUCKETS; i++) {
		double c = (double)h->count[i], lo, hi;

		if (!h->count[i] || cum + c < rank) {
			cum += c;
			continue;
		}
		lo = (double)loghist_lower(i);
		hi = (double)loghist_upper(i);
		return lo + (hi - lo) * (rank - cum) / c;
	}
	/* rounding: the last non-empty bucket's upper bound */
	for (unsigned i = LOGHIST_BUCKETS; i-- > 0;)
		if (h->count[i])
			return (double)loghist_upper(i);
	return NAN;
}

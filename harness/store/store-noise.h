/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The noise figures of a campaign as the store keeps them (noise.h says what
 * they mean and how they are computed), in a table their writer creates:
 *   noise(label PK, n, cv, change, mde, source, blocks, pair_sd, mde_paired)
 * label is the metric row, source the A/A campaign's name; a non-finite
 * figure is stored as NULL and read back as NAN.
 */
#ifndef LRUBENCH_STORE_NOISE_H
#define LRUBENCH_STORE_NOISE_H

#include <stddef.h>

struct store;

struct noise_row {
	char *label;
	size_t n; /* measured runs per side */
	double cv; /* pooled coefficient of variation */
	double change; /* observed A/A change, NAN if none */
	double mde; /* minimum detectable effect at n, relative (Welch, unpaired) */
	size_t blocks; /* blocks with both sides */
	double pair_sd; /* sd of the block differences / |mean|, NAN if unknown */
	double mde_paired; /* the paired rule's, at blocks and NOISE_KEY_LEVEL */
};

struct noise {
	char *source; /* the A/A campaign */
	struct noise_row *rows;
	size_t nrows;
};

/* Replace the store's noise table with nz (committing the store's open batch first). */
int noise__store(struct store *st, const struct noise *nz);
/* The store's noise figures, in the order they were stored; -ENOENT if it holds none. */
int noise__load(struct store *st, struct noise **ret);
void noise__free(struct noise *nz);
void noise__freep(struct noise **nz);

#endif

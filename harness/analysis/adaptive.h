/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Adaptive repetitions ([campaign] repetitions = auto): after each block of
 * runs (every variant once, interleaved), look at the key metrics
 * (verdict.h) and either add a block or stop. The stopping rule:
 *   stop, decided    every key metric of every candidate is "beyond" or
 *                    "within" the minimum effect (none open);
 *   stop, budget     max_repetitions blocks ran, or one more block would
 *                    not end within max_time (the mean block so far);
 *   continue         otherwise.
 * Looking after every block is what the verdict layer's alpha spending
 * over looks pays for (spending.h): the chance of a false verdict stays
 * below alpha whatever the look at which the campaign stops. Pure: numbers in, decision out.
 */
#ifndef LRUBENCH_ADAPTIVE_H
#define LRUBENCH_ADAPTIVE_H

#include <stdint.h>

struct analysis;

enum adaptive_step {
	ADAPTIVE_CONTINUE,
	ADAPTIVE_DECIDED,
	ADAPTIVE_MAX_BLOCKS,
	ADAPTIVE_MAX_TIME,
	ADAPTIVE_NO_KEYS, /* nothing to decide: no key metric could be tested */
};

struct adaptive_state {
	int blocks;		/* blocks run (or planned) so far */
	int max_blocks;
	uint64_t elapsed_ms;	/* the campaign's wall time so far */
	uint64_t max_time_ms;	/* 0: no limit */
};

/*
 * What to do after the blocks so far; *ret_why (malloc'd) says why, naming
 * the open metrics with their intervals and the blocks they would need.
 */
enum adaptive_step adaptive__next(const struct analysis *an, const struct adaptive_state *s,
				  char **ret_why);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ingest: bytes from the guest's stream (see PROTOCOL.md) into the store.
 *
 * The parser underneath (stream.h) is pure and defensive: lines longer than
 * the protocol's limit, unknown record types, bad numbers, records out of
 * place (a value outside a sample) are counted and rejected, never fatal.
 * Memory use is bounded by the line limit whatever the guest sends.
 */
#ifndef LRUBENCH_INGEST_H
#define LRUBENCH_INGEST_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct ingest;

struct ingest_stats {
	uint64_t lines;		/* lines accepted */
	uint64_t rejected;	/* lines rejected (malformed, too long, out of place) */
	uint64_t samples;	/* samples that ended with a matching "end" */
	uint64_t incomplete;	/* samples cut short or whose count did not match */
	uint64_t values;	/* v lines stored */
	uint64_t gens;		/* g lines stored */
	uint64_t results;	/* result lines stored */
	uint64_t events;	/* event lines stored */
	int hello;		/* 1 once a valid hello arrived */
	int bye;		/* 1 once bye arrived */
	char kernel_release[65];	/* from hello */
	char agent_version[65];	/* from hello */
	char bye_reason[128];	/* from bye */
	char first_reject[160];	/* the first rejected line's reason, for the log */
};

int ingest__new(struct store *st, int64_t run_id, struct ingest **ret);
/* Feed any number of bytes; returns 0, or -EIO if the store failed (the
 * caller ends the campaign: nothing more can be kept). */
int ingest__feed(struct ingest *in, const char *buf, size_t len);
/* Flush a trailing partial line (rejected), mark an open sample incomplete,
 * commit. */
int ingest__finish(struct ingest *in);
const struct ingest_stats *ingest__stats(const struct ingest *in);
void ingest__free(struct ingest *in);

#endif

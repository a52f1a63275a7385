/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's stream (PROTOCOL.md section 2), parsed incrementally: feed any
 * chunks of bytes (a line may be split anywhere) and get typed records back
 * through a table of callbacks. The parser is pure (no I/O, no allocation
 * after stream__new) and keeps at most one line of STREAM_LINE_MAX bytes,
 * whatever it is fed.
 *
 * A line that breaks the protocol is rejected and counted by reason; it never
 * stops the parser. Samples are tracked: v and g lines outside a sample, an
 * end whose SEQ is not the open sample's, and a sample whose SEQ does not
 * grow are rejected; a sample that begins while another is open closes the
 * open one as cut short (sample_end with ended = false), and so does
 * stream__finish().
 *
 * Strings handed to callbacks point into the parser's line buffer: they are
 * valid only during the call.
 */
#ifndef LRUBENCH_STREAM_H
#define LRUBENCH_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest line, newline included. */
#define STREAM_LINE_MAX 1024
/* Longest hello field (a utsname release is at most 64 characters). */
#define STREAM_HELLO_FIELD_MAX 64

enum stream_reject {
	STREAM_REJ_TOO_LONG,	  /* longer than STREAM_LINE_MAX */
	STREAM_REJ_NUL,		  /* holds a NUL byte */
	STREAM_REJ_BYTE,	  /* holds a byte that is not printable ASCII */
	STREAM_REJ_TYPE,	  /* empty, or unknown record type */
	STREAM_REJ_FIELDS,	  /* wrong number of fields, or an empty field */
	STREAM_REJ_NAME,	  /* a name outside [A-Za-z0-9._:/+-]+, or too long */
	STREAM_REJ_INTEGER,	  /* not a decimal int64, or negative where it cannot be */
	STREAM_REJ_NUMBER,	  /* result VALUE not a finite decimal, or BETTER unknown */
	STREAM_REJ_OUTSIDE,	  /* v, g or end with no open sample */
	STREAM_REJ_END_SEQ,	  /* end SEQ is not the open sample's */
	STREAM_REJ_SEQ_ORDER,	  /* sample SEQ not greater than the previous one */
	STREAM_REJ_TRUNCATED,	  /* bytes after the last newline at stream__finish() */
	STREAM_REJ_SAMPLE_OPEN,	  /* not a rejection: a sample began while one was open
				   * (the line is accepted, the open sample is cut short) */
	STREAM_REJ__MAX,
};

struct stream_hello {
	int64_t proto;
	const char *agent_version;
	const char *kernel_release;
	const char *run;
};

struct stream_gen {
	int64_t memcg_id;
	int64_t node;
	int64_t gen;
	int64_t age_ms;
	int64_t anon;
	int64_t file;
	const char *memcg_path;
};

struct stream_result {
	const char *workload;
	const char *key;
	double value;
	const char *unit;
	const char *better; /* "higher", "lower" or "none" */
};

/*
 * Callbacks; any may be NULL. A callback returns 0, or a negative errno that
 * stops the parser: stream__feed() returns it, now and on every later call.
 */
struct stream_ops {
	int (*hello)(void *ctx, const struct stream_hello *hello);
	/* value is the rest of the line, possibly holding spaces */
	int (*conf)(void *ctx, const char *key, const char *value);
	/* text is the rest of the line, possibly empty */
	int (*event)(void *ctx, int64_t t_ns, const char *kind, const char *text);
	int (*sample_begin)(void *ctx, int64_t seq, int64_t t_ns);
	int (*value)(void *ctx, const char *source, const char *scope, const char *key,
		     int64_t value);
	int (*gen)(void *ctx, const struct stream_gen *gen);
	/*
	 * The open sample closes. ended: an "end" line closed it, count is its
	 * COUNT; otherwise it was cut short and count is -1. received is the
	 * number of v and g lines accepted for it.
	 */
	int (*sample_end)(void *ctx, int64_t seq, bool ended, int64_t count, uint64_t received);
	int (*result)(void *ctx, const struct stream_result *result);
	/* reason is the rest of the line */
	int (*bye)(void *ctx, const char *reason);
	/* A line was rejected (or, for STREAM_REJ_SAMPLE_OPEN, noted). line is
	 * its first bytes (at most STREAM_LINE_MAX - 1, not sanitised, may hold
	 * NULs), lineno counts from 1. */
	void (*reject)(void *ctx, enum stream_reject why, uint64_t lineno, const char *line,
		       size_t len);
};

struct stream_stats {
	uint64_t lines;	   /* lines accepted */
	uint64_t rejected; /* lines rejected */
	uint64_t bytes;	   /* bytes fed */
	uint64_t reasons[STREAM_REJ__MAX];
};

struct stream;

/* A new parser; ops and ctx are kept (ops must outlive the parser). */
int stream__new(const struct stream_ops *ops, void *ctx, struct stream **ret);
void stream__free(struct stream *s);
void stream__freep(struct stream **s);
/* Parse len bytes; 0, or the first negative value a callback returned. */
int stream__feed(struct stream *s, const char *buf, size_t len);
/* End of input: a trailing partial line is rejected (STREAM_REJ_TRUNCATED or
 * STREAM_REJ_TOO_LONG), an open sample is cut short. Later feeds start anew
 * as if after a newline. Returns as stream__feed(). */
int stream__finish(struct stream *s);
const struct stream_stats *stream__stats(const struct stream *s);
/* Whether a sample is open, and its SEQ. */
bool stream__in_sample(const struct stream *s, int64_t *ret_seq);
/* Short text for a reason ("line too long"). */
const char *stream_reject_name(enum stream_reject why);

/* Helpers the parser uses, public for the store and tests. */
bool stream_name_valid(const char *s);
/* Strict decimal int64: optional '-', digits only, no overflow. */
int stream_parse_i64(const char *s, int64_t *ret);

#endif

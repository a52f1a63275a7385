/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running helper programs (apt-get, dpkg-deb, depmod, cpio, gnuplot): argv
 * is exec'd directly, never through a shell, so no value is ever
 * interpreted as shell syntax.
 */
#ifndef LRUBENCH_SPAWN_H
#define LRUBENCH_SPAWN_H

#include <stdbool.h>
#include <stddef.h>

struct spawn_opts {
	const char *cwd;     /* working directory, or NULL */
	const char *stdin_path;  /* file for stdin, or NULL for /dev/null */
	const char *stdin_buf;   /* or bytes written to stdin through a pipe */
	size_t stdin_len;
	const char *stdout_path; /* file for stdout (created, truncated), or NULL */
	char **ret_stdout;       /* or capture stdout here (malloc'd, NUL-terminated) */
	size_t stdout_limit;     /* capture limit, default 1 MiB */
	char **ret_stderr;       /* capture stderr (last 4 KiB) for error messages, or NULL to inherit */
	bool stderr_to_stdout;   /* stderr goes where stdout goes (2>&1); ret_stderr unused */
	/* Or hand stdout (in chunks, as it comes) to this function; a negative
	 * return stops reading (the child then sees EPIPE). */
	int (*on_stdout)(void *ctx, const char *buf, size_t len);
	void *ctx;
	const char *const *env;  /* "NAME=VALUE" set in the child's environment, NULL-terminated */
};

/*
 * Run argv[0] (looked up in PATH) and wait. Returns its exit status
 * (0..255), 128+N if killed by signal N, or -errno if it could not start.
 */
int spawn_run(const char *const argv[], const struct spawn_opts *opts);

/* argv joined with spaces for logs and provenance (not for execution). */
char *argv_join(const char *const argv[]);

#endif

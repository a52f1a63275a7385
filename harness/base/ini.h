/* SPDX-License-Identifier: GPL-2.0 */
/*
 * INI text, as plans (workloads/plans/) and kernel recipes (kernels/) are
 * written: "[section]" headers, "key = value" lines, comments (a line whose
 * first non-blank is '#' or ';'), blank lines; at most 4096 bytes a line.
 *
 * The tokenizer is pure: it cuts a copy of the text into sections and keys
 * and numbers the lines; what a section or a key means, and what is said
 * about it, is the caller's. Its own messages ("bad section header '[x'")
 * carry neither file nor line: the caller prefixes them, as it does its own.
 * It also keeps which keys each section gave, so that a key given twice can
 * be refused, and later checks can name a key's line.
 */
#ifndef LRUBENCH_INI_H
#define LRUBENCH_INI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct ini_seen;

struct ini {
	char *text;	  /* the copy, cut in place */
	char *next;	  /* where the next line starts, or NULL at the end */
	unsigned line;	  /* the line read last, from 1 */
	struct ini_seen *seen; /* keys given, by section */
	size_t nseen;
};

/* One line that says something: a section header or a key. */
struct ini_item {
	const char *section;	 /* "[ variant a ]": "variant a"; NULL for a key */
	const char *key, *value; /* "key = value", blanks around each stripped */
};

void ini__init(struct ini *ini, const char *text);
void ini__clear(struct ini *ini);

/*
 * The next section header or key of the text: 1 with *ret (pointing into
 * ini's copy), 0 at the end, or -EINVAL with *ret_msg (malloc'd) saying what
 * is wrong with line ini->line. Blank and comment lines are passed over.
 */
int ini__next(struct ini *ini, struct ini_item *ret, char **ret_msg);

/*
 * A key given in a section (by the name the caller gives the section: a
 * section given twice is one): the line where it was given first, or 0 when
 * this is the first time, and then the current line is kept as its line.
 */
unsigned ini__once(struct ini *ini, const char *section, const char *key);
/* The line where key was given in section, or 0. */
unsigned ini__line_of(const struct ini *ini, const char *section, const char *key);

/*
 * A message about the text (printf format), with whatever it echoes from the
 * file escaped (str_escape): never raw bytes on a terminal. malloc'd; the
 * caller prefixes it with the file and line.
 */
char *ini__vmsg(const char *fmt, va_list ap);

/* A name as plans and recipes write them: 1 to 64 letters, digits, '.', '_', '-'. */
bool ini__name_ok(const char *s);

/*
 * Read a file a user names as INI text: a regular file of at most 1 MiB,
 * without a NUL byte (it would end the text early). 0 with *ret_text, or
 * -errno with *ret_err: "[LABEL ]PATH: why", or "PATH:LINE: a NUL byte:
 * NOUN is text" (label "kernel recipe", noun "a recipe").
 */
int ini__read(const char *path, const char *label, const char *noun, char **ret_text,
	      char **ret_err);

#endif

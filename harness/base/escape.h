/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text from a campaign database into the formats reports write. Everything
 * in a database may come from an untrusted guest (metric names, workload
 * keys, kernel strings) and need not even be UTF-8: each writer below emits
 * only what its format accepts, replacing invalid UTF-8 and forbidden
 * characters rather than failing.
 */
#ifndef LRUBENCH_ESCAPE_H
#define LRUBENCH_ESCAPE_H

#include <stdio.h>

/* XML/XHTML character data and attribute values: & < > " ' escaped, characters XML 1.0
 * forbids (most C0 controls) and invalid UTF-8 replaced by U+FFFD. */
void escape_xml(FILE *f, const char *s);
/* A JSON string with its quotes; invalid UTF-8 replaced by U+FFFD. */
void escape_json(FILE *f, const char *s);
/* A gnuplot double-quoted string with its quotes (for a noenhanced terminal): backslash
 * and quote escaped, newline as \n, other controls as spaces, invalid UTF-8 as '?'. */
void escape_gnuplot(FILE *f, const char *s);
/* A file name part: letters, digits, '.', '_', '-'; anything else '_'; never empty,
 * never starting with '.'; at most 60 bytes. malloc'd. */
char *escape_filename(const char *s);

#endif

// SPDX-License-Identifier: GPL-2.0
/* Command options as tables: see cmd-opt.h. */
#include "cmd-opt.h"
#include "util.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

static void *field(void *opts, const struct cmd_opt *row)
{
	return (char *)opts + row->off;
}

/* "a, b or c" */
static char *words_list(const char *const *words)
{
	char *s = xstrdup(words[0]);

	for (size_t i = 1; words[i]; i++) {
		char *t = xasprintf("%s%s%s", s, words[i + 1] ? ", " : " or ", words[i]);

		free(s);
		s = t;
	}
	return s;
}

int cmd_opt__parse(const struct cmd_opt *table, void *opts, int code, const char *arg)
{
	const struct cmd_opt *row;
	int64_t n;
	uint64_t ms;

	for (row = table; row->code; row++)
		if (row->code == code)
			break;
	if (!row->code)
		return 0;
	switch (row->kind) {
	case CMD_OPT_TEXT:
		*(const char **)field(opts, row) = arg;
		return 1;
	case CMD_OPT_INT:
		if (parse_i64(arg, &n) < 0 || n < row->min || n > row->max) {
			log_err("--%s: bad value '%s' (an integer from %d to %d)", row->name, arg,
				row->min, row->max);
			return -EINVAL;
		}
		*(int *)field(opts, row) = (int)n;
		return 1;
	case CMD_OPT_RANGE:
	case CMD_OPT_RANGE_U64:
		if (parse_i64(arg, &n) < 0 || n < row->min || n > row->max) {
			log_err("--%s: bad value '%s' (%d..%d)", row->name, arg, row->min, row->max);
			return -EINVAL;
		}
		if (row->kind == CMD_OPT_RANGE)
			*(int *)field(opts, row) = (int)n;
		else
			*(uint64_t *)field(opts, row) = (uint64_t)n;
		return 1;
	case CMD_OPT_DURATION:
		if (parse_duration_ms(arg, &ms) < 0 || ms < (uint64_t)row->min) {
			log_err("--%s: bad duration '%s'", row->name, arg);
			return -EINVAL;
		}
		*(uint64_t *)field(opts, row) = ms;
		return 1;
	case CMD_OPT_WORD:
		for (size_t i = 0; row->words[i]; i++) {
			if (!strcmp(arg, row->words[i])) {
				*(const char **)field(opts, row) = arg;
				return 1;
			}
		}
		{
			_cleanup_free_ char *list = words_list(row->words);

			log_err("--%s: bad value '%s' (%s)", row->name, arg, list);
		}
		return -EINVAL;
	}
	return 0;
}

struct option *cmd_opt__longopts(const struct cmd_opt *const *tables, const struct option *extra)
{
	struct option *o;
	size_t n = 0, k = 0;

	for (size_t t = 0; tables[t]; t++)
		for (const struct cmd_opt *row = tables[t]; row->code; row++)
			n++;
	for (const struct option *e = extra; e->name; e++)
		n++;
	o = xcalloc(n + 1, sizeof(*o));
	for (size_t t = 0; tables[t]; t++)
		for (const struct cmd_opt *row = tables[t]; row->code; row++)
			o[k++] = (struct option){ row->name, required_argument, NULL, row->code };
	for (const struct option *e = extra; e->name; e++)
		o[k++] = *e;
	return o;
}

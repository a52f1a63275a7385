// SPDX-License-Identifier: GPL-2.0
/* The INI tokenizer of plans and kernel recipes (see ini.h). */
#include "ini.h"
#include "util.h"

#include <ctype.h>
#include <string.h>

#define INI_LINE_MAX 4096

struct ini_seen {
	char *section, *key;
	unsigned line;
};

void ini__init(struct ini *ini, const char *text)
{
	*ini = (struct ini){ .text = xstrdup(text) };
	ini->next = ini->text;
}

void ini__clear(struct ini *ini)
{
	for (size_t i = 0; i < ini->nseen; i++) {
		free(ini->seen[i].section);
		free(ini->seen[i].key);
	}
	free(ini->seen);
	free(ini->text);
	*ini = (struct ini){ 0 };
}

int ini__next(struct ini *ini, struct ini_item *ret, char **ret_msg)
{
	while (ini->next) {
		char *line = ini->next, *eq;

		ini->next = strchr(line, '\n');
		if (ini->next)
			*ini->next++ = '\0';
		ini->line++;
		if (strlen(line) > INI_LINE_MAX) {
			*ret_msg = xasprintf("line longer than %d bytes", INI_LINE_MAX);
			return -EINVAL;
		}
		line = strstrip(line);
		if (!*line || *line == '#' || *line == ';')
			continue;
		if (*line == '[') {
			char *close = strchr(line, ']');

			if (!close || close[1]) {
				*ret_msg = xasprintf("bad section header '%s'", line);
				return -EINVAL;
			}
			*close = '\0';
			*ret = (struct ini_item){ .section = strstrip(line + 1) };
			return 1;
		}
		eq = strchr(line, '=');
		if (!eq) {
			*ret_msg = xasprintf("expected 'key = value', got '%s'", line);
			return -EINVAL;
		}
		*eq = '\0';
		*ret = (struct ini_item){ .key = strstrip(line), .value = strstrip(eq + 1) };
		if (!*ret->key) {
			*ret_msg = xstrdup("empty key");
			return -EINVAL;
		}
		return 1;
	}
	return 0;
}

unsigned ini__line_of(const struct ini *ini, const char *section, const char *key)
{
	for (size_t i = 0; i < ini->nseen; i++)
		if (!strcmp(ini->seen[i].section, section) && !strcmp(ini->seen[i].key, key))
			return ini->seen[i].line;
	return 0;
}

unsigned ini__once(struct ini *ini, const char *section, const char *key)
{
	unsigned first = ini__line_of(ini, section, key);

	if (first)
		return first;
	ini->seen = xrealloc(ini->seen, ini->nseen + 1, sizeof(*ini->seen));
	ini->seen[ini->nseen++] = (struct ini_seen){
		.section = xstrdup(section), .key = xstrdup(key), .line = ini->line,
	};
	return 0;
}

char *ini__vmsg(const char *fmt, va_list ap)
{
	_cleanup_free_ char *msg = NULL;

	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	return str_escape(msg);
}

bool ini__name_ok(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return false;
	return true;
}

int ini__read(const char *path, const char *label, const char *noun, char **ret_text,
	      char **ret_err)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	unsigned nul;
	int r = read_regular_file(path, 1u << 20, &text, &len);

	if (r == -EINVAL) {
		*ret_err = xasprintf("%s%s%s: %s, not a regular file", label ? label : "",
				     label ? " " : "", path, path_kind(path));
		return r;
	}
	if (r < 0) {
		*ret_err = xasprintf("%s%s%s: %s", label ? label : "", label ? " " : "", path,
				     strerror(-r));
		return r;
	}
	nul = text_nul_line(text, len);
	if (nul) {
		*ret_err = xasprintf("%s:%u: a NUL byte: %s is text", path, nul, noun);
		return -EINVAL;
	}
	*ret_text = TAKE_PTR(text);
	return 0;
}

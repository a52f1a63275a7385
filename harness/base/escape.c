// SPDX-License-Identifier: GPL-2.0
#include "escape.h"
#include "util.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/*
 * Decode one UTF-8 character at s (RFC 3629: no overlong forms, no
 * surrogates, at most U+10FFFF). Returns its length and *cp, or 0 for an
 * invalid sequence (the caller replaces one byte).
 */
static size_t utf8_next(const unsigned char *s, uint32_t *cp)
{
	size_t len;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

void escape_xml(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	while (*s) {
		uint32_t c;
		size_t n = utf8_next(s, &c);

		if (!n) {
			fputs("\xef\xbf\xbd", f);
			s++;
			continue;
		}
		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | ... */
			if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xfffe ||
			    c == 0xffff)
				fputs("\xef\xbf\xbd", f);
			else
				fwrite(s, 1, n, f);
		}
		s += n;
	}
}

void escape_json(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	fputc('"', f);
	while (*s) {
		uint32_t c;
		size_t n = utf8_next(s, &c);

		if (!n) {
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", (char)c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", (unsigned)c);
		else
			fwrite(s, 1, n, f);
		s += n;
	}
	fputc('"', f);
}

void escape_gnuplot(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	fputc('"', f);
	while (*s) {
		uint32_t c;
		size_t n = utf8_next(s, &c);

		if (!n) {
			fputc('?', f);
			s++;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", (char)c);
		else if (c == '\n')
			fputs("\\n", f); /* a line break in a label */
		else if (c < 0x20 || c == 0x7f)
			fputc(' ', f);
		else
			fwrite(s, 1, n, f);
		s += n;
	}
	fputc('"', f);
}

char *escape_filename(const char *s)
{
	size_t len = strlen(s ? s : "");
	char *out = xcalloc(len > 60 ? 61 : len + 2, 1);
	size_t n = 0;

	for (size_t i = 0; i < len && n < 60; i++) {
		unsigned char c = (unsigned char)s[i];

		bool keep = isalnum(c) || c == '_' || c == '-' || (c == '.' && n);

		out[n++] = keep ? (char)c : '_';
	}
	if (!n)
		out[n++] = '_';
	out[n] = '\0';
	return out;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Running a kernel build's commands (kbuild-priv.h): each command's output
 * goes to the build log and a bounded tail, compiled files are counted for
 * the progress lines, and failures are worded with the quoted tail or the
 * log's first errors, the scratch tree's paths taken out.
 */
#include "kbuild-priv.h"
#include "spawn.h"
#include "util.h"

#include <string.h>

#define PROGRESS_EVERY_NS (15ll * 1000000000)

void kbuild_progress_log(void *ctx, enum kbuild_stage stage, const char *msg)
{
	(void)stage;
	log_info("kernel %s: %s", (const char *)ctx, msg);
}

void kb__say(struct kb *b, enum kbuild_stage st, const char *fmt, ...)
{
	_cleanup_free_ char *msg = NULL;
	va_list ap;

	if (!b->o->progress)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	b->o->progress(b->o->ctx, st, msg);
}

/* "recipe:line: " for messages about one line of the recipe. */
char *kb__at(const struct kb *b, unsigned line)
{
	return line ? xasprintf("%s:%u", b->r->path, line) : xstrdup(b->r->path);
}

int kb__fail(struct kb *b, int r, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	if (b->err_set)
		free(*b->err);
	*b->err = msg;
	b->err_set = true;
	return r;
}

/* Append one line of output to *out, indented, without the scratch tree's paths. */
static void quote_line(const struct kb *b, FILE *out, const char *line, size_t len)
{
	const char *prefixes[] = { b->src, b->obj, b->work };

	fputs("    | ", out);
	while (len) {
		size_t skip = 0;

		for (size_t i = 0; i < ARRAY_SIZE(prefixes) && !skip; i++) {
			size_t n = prefixes[i] ? strlen(prefixes[i]) : 0;

			if (n && len > n && !strncmp(line, prefixes[i], n) && line[n] == '/')
				skip = n + 1;
		}
		if (skip) {
			line += skip;
			len -= skip;
			continue;
		}
		fputc(*line++, out);
		len--;
	}
	fputc('\n', out);
}

/* The last n lines of what the current command printed, quoted. */
char *kb__tail_lines(const struct kb *b, int n)
{
	const char *end = b->tail + b->tail_len, *p = end;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	while (p > b->tail && p[-1] == '\n')
		p--;
	end = p;
	for (int lines = 0; p > b->tail; p--)
		if (p[-1] == '\n' && ++lines == n)
			break;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		quote_line(b, f, p, l);
		p += l + (nl ? 1 : 0);
	}
	fclose(f);
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	return text;
}

/*
 * The first errors in a log, quoted: with make -j the cause scrolls out of
 * the tail while other jobs finish.
 */
char *kb__first_errors(const struct kb *b, const char *log, int max)
{
	_cleanup_free_ char *all = NULL;
	char *text = NULL;
	size_t len = 0;
	int n = 0;
	FILE *f;

	if (read_file(log, 256u << 20, &all, NULL) < 0)
		return xstrdup("    | (the log cannot be read)");
	f = open_memstream(&text, &len);
	for (char *p = all, *nl; p && *p && n < max; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (strstr(p, "error:") || strstr(p, "Error:") || strstr(p, "*** ") ||
		    strstr(p, "undefined reference")) {
			quote_line(b, f, p, strlen(p));
			n++;
		}
	}
	fclose(f);
	if (!n) {
		free(text);
		return xstrdup("    | (none recognised)");
	}
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	return text;
}

static int on_output(void *ctx, const char *buf, size_t len)
{
	struct kb *b = ctx;

	if (b->log)
		fwrite(buf, 1, len, b->log);
	if (len >= TAIL_KEEP) {
		memcpy(b->tail, buf + len - TAIL_KEEP, TAIL_KEEP);
		b->tail_len = TAIL_KEEP;
	} else {
		if (b->tail_len + len > TAIL_KEEP) {
			size_t drop = b->tail_len + len - TAIL_KEEP;

			memmove(b->tail, b->tail + drop, b->tail_len - drop);
			b->tail_len -= drop;
		}
		memcpy(b->tail + b->tail_len, buf, len);
		b->tail_len += len;
	}
	if (!b->compiling)
		return 0;
	/* Count compiled files: kbuild's "  CC      path.o" lines. */
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			if (b->cur_len >= 5 && (!memcmp(b->cur, "  CC ", 5) ||
						!memcmp(b->cur, "  AS ", 5)))
				b->compiled++;
			b->cur_len = 0;
		} else if (b->cur_len < sizeof(b->cur)) {
			b->cur[b->cur_len++] = buf[i];
		}
	}
	if (now_mono_ns() - b->last_progress >= PROGRESS_EVERY_NS) {
		int64_t s = (now_mono_ns() - b->t0) / 1000000000;

		b->last_progress = now_mono_ns();
		kb__say(b, KBUILD_STAGE_COMPILE, "compiling: %u files, %lld:%02lld", b->compiled,
		    (long long)s / 60, (long long)s % 60);
	}
	return 0;
}

/* Run a command with its output in the build log. Returns its exit status or -errno. */
int kb__run_logged(struct kb *b, const char *const argv[], const char *cwd)
{
	_cleanup_free_ char *cmd = argv_join(argv);
	struct spawn_opts so = {
		.cwd = cwd,
		.on_stdout = on_output,
		.ctx = b,
		.stderr_to_stdout = true,
		.env = (const char *const *)b->env,
	};

	if (b->log) {
		fprintf(b->log, "$ %s%s%s\n", cwd ? "cd " : "", cwd ? cwd : "", cwd ? " && " : "");
		fprintf(b->log, "  %s\n", cmd);
		fflush(b->log);
	}
	b->tail_len = 0;
	return spawn_run(argv, &so);
}

/* A command whose output matters only when it fails. */
int kb__run_quiet(const char *const argv[], const char *cwd, char **ret_out, char **ret_err)
{
	_cleanup_free_ char *err = NULL, *out = NULL;
	struct spawn_opts so = { .cwd = cwd, .ret_stdout = &out, .ret_stderr = &err,
				 .stdout_limit = 256u << 20 };
	int r = spawn_run(argv, &so);

	if (r != 0) {
		_cleanup_free_ char *cmd = argv_join(argv);

		*ret_err = xasprintf("'%s' failed (%s %d): %s", cmd, r < 0 ? "error" : "exit",
				     r < 0 ? -r : r, err ? strstrip(err) : "");
		return r < 0 ? r : -EIO;
	}
	if (ret_out)
		*ret_out = TAKE_PTR(out);
	return 0;
}

/* make -C SRC O=OBJ ARCH= CC= [extra...] target */
int kb__make(struct kb *b, const char *target, char *const extra[])
{
	_cleanup_free_ char *o = xasprintf("O=%s", b->obj), *cc = xasprintf("CC=%s", b->cc);
	const char *argv[16] = { "make", "-C", b->src, o, "ARCH=" ARCH, cc, "CROSS_COMPILE=" };
	size_t n = 7;

	for (size_t i = 0; extra && extra[i] && n < ARRAY_SIZE(argv) - 2; i++)
		argv[n++] = extra[i];
	argv[n++] = target;
	return kb__run_logged(b, argv, NULL);
}

int kb__make_step(struct kb *b, const char *target, char *const extra[], const char *what)
{
	int rc = kb__make(b, target, extra);

	if (rc != 0) {
		_cleanup_free_ char *tail = kb__tail_lines(b, 15);

		return kb__fail(b, -EIO, "%s: 'make %s' failed (%s %d); log %s:\n%s", what, target,
			    rc < 0 ? "error" : "exit", rc < 0 ? -rc : rc, b->log_path, tail);
	}
	return 0;
}

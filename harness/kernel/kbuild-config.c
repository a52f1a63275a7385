// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel build's config (kbuild-priv.h, kernel-build.h): the recipe's base
 * and fragments hashed as inputs, resolved with the kernel's own tools
 * (tinyconfig or defconfig, merge_config.sh, olddefconfig), and verified:
 * every option a fragment sets must survive, and the result must have what
 * lrubench needs (kernel__check).
 */
#include "kbuild-priv.h"
#include "files.h"
#include "kernel.h"
#include "util.h"

#include <string.h>

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * Find option name's line in a config: *ret_value is its value ("y", "64",
 * "\"lzo-rle\"") or NULL for "# CONFIG_name is not set" or absence.
 */
static void config_lookup(const char *config, const char *name, size_t nlen, char **ret_value)
{
	const char *p = config;

	*ret_value = NULL;
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t llen = eol ? (size_t)(eol - p) : strlen(p);

		if (llen > nlen + 1 && !strncmp(p, name, nlen) && p[nlen] == '=') {
			*ret_value = strndup(p + nlen + 1, llen - nlen - 1);
			return;
		}
		p = eol ? eol + 1 : NULL;
	}
}

struct wanted {
	char *name; /* CONFIG_X */
	char *value; /* NULL: not set */
	size_t frag;
	unsigned line;
};

int kbuild_config_verify(const char *config, const char *const frag_names[],
			 const char *const frag_texts[], size_t nfrags, char **ret_err)
{
	struct wanted *w = NULL;
	size_t nw = 0;
	char *errs = NULL;

	for (size_t f = 0; f < nfrags; f++) {
		const char *p = frag_texts[f];
		unsigned line = 0;

		while (p && *p) {
			const char *eol = strchr(p, '\n');
			size_t llen = eol ? (size_t)(eol - p) : strlen(p);
			_cleanup_free_ char *l = strndup(p, llen);
			char *s = strstrip(l), *name = NULL, *value = NULL;
			size_t i;

			line++;
			p = eol ? eol + 1 : NULL;
			if (!strncmp(s, "CONFIG_", 7) && strchr(s, '=')) {
				char *eq = strchr(s, '=');

				name = strndup(s, (size_t)(eq - s));
				value = xstrdup(eq + 1);
			} else if (!strncmp(s, "# CONFIG_", 9) && ends_with(s, " is not set")) {
				name = strndup(s + 2, strlen(s) - 2 - strlen(" is not set"));
			} else {
				continue;
			}
			for (i = 0; i < nw; i++)
				if (!strcmp(w[i].name, name))
					break;
			if (i == nw) {
				w = xrealloc(w, nw + 1, sizeof(*w));
				nw++;
			} else {
				free(w[i].name);
				free(w[i].value);
			}
			w[i] = (struct wanted){
				.name = name, .value = value, .frag = f, .line = line
			};
		}
	}
	for (size_t i = 0; i < nw; i++) {
		_cleanup_free_ char *got = NULL;
		bool held;
		char *t;

		config_lookup(config, w[i].name, strlen(w[i].name), &got);
		if (!got)
			held = !w[i].value; /* unset, as asked or not */
		else if (!w[i].value)
			held = !strcmp(got, "n");
		else
			held = !strcmp(got, w[i].value);
		if (held)
			continue;
		if (w[i].value)
			t = xasprintf("%s%s%s=%s (%s:%u) became %s%s%s", errs ? errs : "",
				      errs ? "; " : "", w[i].name, w[i].value,
				      frag_names[w[i].frag], w[i].line,
				      got ? w[i].name : "not set", got ? "=" : "", got ? got : "");
		else
			t = xasprintf("%s%s%s unset (%s:%u) became %s=%s", errs ? errs : "",
				      errs ? "; " : "", w[i].name, frag_names[w[i].frag], w[i].line,
				      w[i].name, got);
		free(errs);
		errs = t;
	}
	for (size_t i = 0; i < nw; i++) {
		free(w[i].name);
		free(w[i].value);
	}
	free(w);
	if (errs) {
		*ret_err = errs;
		return -ENOTSUP;
	}
	return 0;
}

/* Config inputs: the base and each fragment, hashed (the files must exist). */
int kb__identify_config(struct kb *b)
{
	const struct kbuild_recipe *r = b->r;
	char *desc = NULL;
	int rc;

	switch (r->base) {
	case KBUILD_BASE_MINIMAL:
		b->base_desc = xstrdup("minimal (tinyconfig)");
		break;
	case KBUILD_BASE_DEFCONFIG:
		b->base_desc = xstrdup("defconfig");
		break;
	case KBUILD_BASE_FILE:
		rc = sha256_file(r->base_path, b->base_sha);
		if (rc < 0) {
			_cleanup_free_ char *where = kb__at(b, r->base_line);

			return kb__fail(b, rc, "%s: base config %s: %s", where, r->base_path,
				    strerror(-rc));
		}
		b->base_desc = xasprintf("%s sha256:%s", r->base_path, b->base_sha);
		break;
	}
	b->frag_sha = xcalloc(r->nfragments + 1, sizeof(*b->frag_sha));
	for (size_t i = 0; i < r->nfragments; i++) {
		char *t;

		rc = sha256_file(r->fragments[i].path, b->frag_sha[i]);
		if (rc < 0) {
			_cleanup_free_ char *where = kb__at(b, r->fragments[i].line);

			free(desc);
			return kb__fail(b, rc, "%s: fragment %s: %s", where, r->fragments[i].path,
				    strerror(-rc));
		}
		t = xasprintf("%s%s%s sha256:%s", desc ? desc : "", desc ? ", " : "",
			      r->fragments[i].spec, b->frag_sha[i]);
		free(desc);
		desc = t;
	}
	b->fragments_desc = desc ? desc : xstrdup("none");
	return 0;
}

/* Base, fragments (merge_config.sh), olddefconfig; then verify. */
int kb__resolve_config(struct kb *b, char **ret_config)
{
	const struct kbuild_recipe *r = b->r;
	_cleanup_free_ char *dotconfig = xasprintf("%s/.config", b->obj), *config = NULL;
	_cleanup_free_ char *desc = xasprintf("config of %s", r->path);
	const char **names = xcalloc(r->nfragments + 1, sizeof(char *));
	char **texts = xcalloc(r->nfragments + 1, sizeof(char *));
	int rc = mkdir_p(b->obj);

	if (rc < 0) {
		kb__fail(b, rc, "%s: %s", b->obj, strerror(-rc));
		goto out;
	}
	kb__say(b, KBUILD_STAGE_INFO, "config: %s + %zu fragment%s", b->base_desc, r->nfragments,
	    r->nfragments == 1 ? "" : "s");
	if (r->base == KBUILD_BASE_MINIMAL) {
		rc = kb__make_step(b, "tinyconfig", NULL, desc);
	} else if (r->base == KBUILD_BASE_DEFCONFIG) {
		rc = kb__make_step(b, "defconfig", NULL, desc);
	} else {
		rc = files__copy(r->base_path, dotconfig, 0644);
		if (rc < 0) {
			_cleanup_free_ char *where = kb__at(b, r->base_line);

			kb__fail(b, rc, "%s: base config %s: %s", where, r->base_path,
				 strerror(-rc));
		}
	}
	if (rc < 0)
		goto out;
	if (r->nfragments) {
		/* Copies with plain names: merge_config.sh does not quote its arguments. */
		const char **argv = xcalloc(r->nfragments + 5, sizeof(char *));
		_cleanup_free_ char *script = xasprintf("%s/scripts/kconfig/merge_config.sh",
							b->src);
		char **copies = xcalloc(r->nfragments + 1, sizeof(char *));
		size_t n = 0;

		argv[n++] = "sh";
		argv[n++] = script;
		argv[n++] = "-m";
		argv[n++] = ".config";
		for (size_t i = 0; i < r->nfragments && rc == 0; i++) {
			_cleanup_free_ char *full = NULL;
			size_t len = 0;

			rc = read_file(r->fragments[i].path, 1u << 20, &texts[i], &len);
			if (rc < 0) {
				_cleanup_free_ char *where = kb__at(b, r->fragments[i].line);

				kb__fail(b, rc, "%s: fragment %s: %s", where, r->fragments[i].path,
				     strerror(-rc));
				break;
			}
			names[i] = r->fragments[i].spec;
			copies[i] = xasprintf("lrubench-fragment-%zu.config", i + 1);
			full = xasprintf("%s/%s", b->obj, copies[i]);
			rc = files__write(full, texts[i], len, 0644);
			if (rc < 0)
				kb__fail(b, rc, "%s: %s", full, strerror(-rc));
			argv[n++] = copies[i];
		}
		if (rc == 0) {
			rc = kb__run_logged(b, argv, b->obj);
			if (rc != 0) {
				_cleanup_free_ char *tail = kb__tail_lines(b, 10);

				rc = kb__fail(b, -EIO, "%s: merge_config.sh failed:\n%s", desc,
					      tail);
			}
		}
		for (size_t i = 0; i < r->nfragments; i++)
			free(copies[i]);
		free(copies);
		free(argv);
		if (rc < 0)
			goto out;
	}
	rc = kb__make_step(b, "olddefconfig", NULL, desc);
	if (rc < 0)
		goto out;
	rc = read_file(dotconfig, 16u << 20, &config, NULL);
	if (rc < 0) {
		kb__fail(b, rc, "%s: %s", dotconfig, strerror(-rc));
		goto out;
	}
	{
		_cleanup_free_ char *why = NULL, *missing = NULL;
		struct kernel fake = { .config = config };
		int rv = kbuild_config_verify(config, names, (const char *const *)texts,
					      r->nfragments, &why);

		/* What lrubench needs first: it is the cause, lost options its effects. */
		rc = kernel__check(&fake, KERNEL_ZRAM_COMP_DEFAULT, 1, &missing);
		if (rc < 0) {
			kb__fail(b, rc, "%s: the resolved config lacks what lrubench needs: %s "
				    "(does the recipe merge kernels/lrubench.config last?)%s%s",
			     r->path, missing, why ? "; also lost: " : "", why ? why : "");
			goto out;
		}
		if (rv < 0) {
			rc = kb__fail(b, rv,
				      "%s: options the fragments set did not survive resolution "
				      "(a dependency is missing, or the option is not "
				      "user-visible): %s",
				      r->path, why);
			goto out;
		}
	}
	*ret_config = TAKE_PTR(config);
	rc = 0;
out:
	for (size_t i = 0; i < r->nfragments; i++)
		free(texts[i]);
	free(texts);
	free(names);
	return rc;
}

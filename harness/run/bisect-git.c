// SPDX-License-Identifier: GPL-2.0
/* git, asked for a bisection's commits (bisect-priv.h). */
#include "bisect-priv.h"
#include "spawn.h"
#include "util.h"

#include <errno.h>
#include <string.h>

/* git -C repo ARGS...; its stdout, stripped, in *ret_out (when wanted). */
int bisect_git(const char *repo, const char *const args[], char **ret_out, char **ret_err)
{
	const char *argv[16] = { "git", "-C", repo };
	size_t n = 3;
	_cleanup_free_ char *out = NULL, *err = NULL;
	struct spawn_opts o = { .ret_stdout = &out, .ret_stderr = &err };
	int rc;

	for (; *args && n < ARRAY_SIZE(argv) - 1; args++)
		argv[n++] = *args;
	rc = spawn_run(argv, &o);
	if (rc != 0) {
		if (ret_err)
			*ret_err = xasprintf("%s: %s", argv_join(argv),
					     err && *err ? strstrip(err)
							 : rc < 0 ? strerror(-rc) : "failed");
		return rc < 0 ? rc : -EIO;
	}
	if (ret_out)
		*ret_out = xstrdup(out ? strstrip(out) : "");
	return 0;
}

int bisect_resolve_commit(const char *repo, const char *ref, char **ret_sha, char **ret_err)
{
	_cleanup_free_ char *rev = xasprintf("%s^{commit}", ref);
	const char *args[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", rev, NULL };

	if (*ref == '-' || bisect_git(repo, args, ret_sha, NULL) < 0) {
		*ret_err = xasprintf("%s: no commit '%s'", repo, ref);
		return -ENOENT;
	}
	return 0;
}

char *bisect_commit_subject(const char *repo, const char *sha)
{
	const char *args[] = { "log", "-1", "--format=%s", sha, NULL };
	char *s = NULL;

	return bisect_git(repo, args, &s, NULL) == 0 ? s : xstrdup("");
}

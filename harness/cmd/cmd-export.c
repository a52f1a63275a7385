// SPDX-License-Identifier: GPL-2.0
/*
 * lrubench export --kcidb DB [-o FILE]: the campaign in KernelCI's KCIDB
 * v5.3 JSON (report/kcidb.h), for a nightly job to submit with kcidb-submit.
 * The verdicts are compare's (the same analysis, default options unless
 * given), and so is the exit status: 0 no key metric regressed, 1 one did,
 * 3 incomplete (failed runs, a variant short of blocks, nothing measured:
 * the export is written, with its ERROR and MISS tests, and the status says
 * it is not a clean night), 2 an error (nothing written).
 */
#include "cmd.h"
#include "kcidb.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
	"usage: lrubench export --kcidb DB [-o FILE] [--baseline VARIANT]\n"
	"  the campaign in KernelCI's KCIDB v5.3 JSON (checkouts, builds, tests) on stdout or FILE\n"
	"  tests: each candidate's key metrics (FAIL a regression; PASS improved or the same;\n"
	"         DONE undecided; SKIP not comparable across LRUs; MISS too few blocks) and\n"
	"         ERROR per run lost to a failure\n"
	"  exit 0: no key metric regressed, 1: one did, 2: error (nothing written),\n"
	"       3: incomplete (failed runs, a variant short of blocks, nothing measured)\n";

/* Write the export to path (stdout for NULL or "-"): through a temporary file and a rename,
 * so that an error leaves no half-written export. */
static int write_out(struct store *st, const struct analysis *an, const char *path,
		     struct kcidb_counts *n)
{
	_cleanup_free_ char *tmp = NULL;
	FILE *f;
	int r;

	if (!path || !strcmp(path, "-")) {
		r = kcidb__write(st, an, stdout, n);
		if (!r && fflush(stdout))
			r = -errno;
		if (r < 0)
			log_err("stdout: %s", strerror(-r));
		return r;
	}
	tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	f = fopen(tmp, "we");
	if (!f) {
		r = -errno;
		log_err("%s: %s", tmp, strerror(errno));
		return r;
	}
	r = kcidb__write(st, an, f, n);
	if (fclose(f) && !r)
		r = -errno;
	if (!r && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		log_err("%s: %s", path, strerror(-r));
		unlink(tmp);
	}
	return r;
}

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "kcidb", required_argument, NULL, 'k' },
		{ "output", required_argument, NULL, 'o' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	_cleanup_(store__closep) struct store *st = NULL;
	_cleanup_(analysis__freep) struct analysis *an = NULL;
	_cleanup_free_ char *err = NULL, *buf = NULL;
	struct verdict_opts vo = VERDICT_OPTS_DEFAULT;
	const char *db = NULL, *out = NULL, *baseline = NULL, *why;
	struct kcidb_counts n;
	size_t runs = 0;
	int c, r;

	while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage, stdout);
			return 0;
		case 'k':
			db = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'b':
			baseline = optarg;
			break;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (!db || optind != argc) {
		fputs(usage, stderr);
		return 2;
	}
	if (access(db, R_OK) < 0) {
		log_err("%s: %s", db, strerror(errno));
		return 2;
	}
	r = store__check_campaign(db, &err);
	if (r < 0) {
		log_err("%s", err);
		return 2;
	}
	r = store__open_readonly(db, &st);
	if (r < 0) {
		log_err("%s: not a campaign database (%s)", db, strerror(-r));
		return 2;
	}
	r = analysis__run(st, baseline, &vo, &an);
	if (r == -ENOENT) {
		log_err("%s: no variant named '%s'", db, baseline ? baseline : "?");
		return 2;
	} else if (r == -ENODATA) {
		log_err("%s: an empty campaign: it has no variant, nothing to export", db);
		return 2;
	} else if (r < 0) {
		log_err("%s: %s", db, strerror(-r));
		return 2;
	}
	for (size_t v = 0; v < an->ds->nv; v++) {
		const struct ds_variant *dv = &an->ds->v[v];

		runs += (size_t)(dv->measured + dv->warmup + dv->failed + dv->other);
	}
	if (!runs) {
		log_err("%s: an empty campaign: it has no run, nothing to export", db);
		return 2;
	}
	if (write_out(st, an, out, &n) < 0)
		return 2;
	log_info("%s: %zu checkout(s), %zu build(s), %zu tests: %zu PASS, %zu FAIL, %zu DONE, "
		 "%zu SKIP, %zu MISS, %zu ERROR",
		 out && strcmp(out, "-") ? out : "stdout", n.checkouts, n.builds, n.tests, n.pass,
		 n.fail, n.done, n.skip, n.miss, n.error);
	why = analysis__incomplete(an, &buf);
	if (why) {
		log_err("%s: incomplete: %s; the export says so in its ERROR and MISS tests (exit "
			"%d)",
			db, why, EXIT_INCOMPLETE);
		return EXIT_INCOMPLETE;
	}
	return an->regressions ? EXIT_REGRESSION : EXIT_NO_REGRESSION;
}

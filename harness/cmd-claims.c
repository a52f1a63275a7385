// SPDX-License-Identifier: GPL-2.0
/*
 * lrubench claims DB...: the scoreboard of claims C1-C8 over one or more
 * campaign databases, merged per claim, naming which database said what.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "claims.h"
#include "cmd.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#define CLAIMS_MAX_DBS 32

static void usage(void)
{
	fprintf(stderr, "usage: lrubench claims DB...\n");
}

/* The kernels of a dataset's variants, "6.1.0 6.12.118" (into buf). */
static void kernels(const struct dataset *ds, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < ds->nv; i++) {
		const char *k = ds->v[i].release && *ds->v[i].release ? ds->v[i].release : ds->v[i].kernel;
		if (!k || strstr(buf, k))
			continue;
		size_t l = strlen(buf);
		snprintf(buf + l, len - l, "%s%s", l ? " " : "", k);
	}
}

int cmd_claims(int argc, char **argv)
{
	size_t n;
	const struct claim *tab = claims__table(&n);
	struct claim_result merged[16], per[CLAIMS_MAX_DBS][16];
	char kern[CLAIMS_MAX_DBS][128], camp[CLAIMS_MAX_DBS][128];
	int ndb = argc - 1, measured = 0;

	if (ndb < 1 || (argc > 1 && !strcmp(argv[1], "--help"))) {
		usage();
		return ndb < 1 ? EXIT_ERROR : 0;
	}
	if (ndb > CLAIMS_MAX_DBS) {
		log_err("claims: %d databases, at most %d", ndb, CLAIMS_MAX_DBS);
		return EXIT_ERROR;
	}
	for (int d = 0; d < ndb; d++) {
		const char *db = argv[d + 1];
		_cleanup_(store__closep) struct store *st = NULL;
		_cleanup_(analysis__freep) struct analysis *an = NULL;
		struct verdict_opts o = VERDICT_OPTS_DEFAULT;
		int r;

		if (access(db, R_OK) < 0) {
			log_err("%s: %s", db, strerror(errno));
			return EXIT_ERROR;
		}
		r = store__open(db, &st);
		if (r < 0) {
			log_err("%s: not a campaign database (%s)", db, strerror(-r));
			return EXIT_ERROR;
		}
		r = analysis__run(st, NULL, &o, &an);
		if (r < 0) {
			log_err("%s: cannot analyse the campaign (%s)", db, strerror(-r));
			return EXIT_ERROR;
		}
		for (size_t i = 0; i < an->nc; i++)
			if (an->c[i].pairs >= VERDICT_MIN_BLOCKS)
				measured = 1;
		kernels(an->ds, kern[d], sizeof(kern[d]));
		snprintf(camp[d], sizeof(camp[d]), "%s", an->ds->campaign ? an->ds->campaign : "?");
		for (size_t c = 0; c < n; c++) {
			claims__decide(&tab[c], an, &per[d][c]);
			if (!d)
				merged[c] = per[d][c];
			else
				claims__merge(&merged[c], &per[d][c]);
		}
	}
	printf("%-3s %-12s %s\n", "id", "verdict", "claim / deciding numbers");
	for (size_t c = 0; c < n; c++) {
		printf("%-3s %-12s %s\n", tab[c].id, claim_state_name(merged[c].state), tab[c].sentence);
		for (int d = 0; d < ndb; d++)
			printf("    %-12s %s  [%s, campaign %s, kernel %s; plans %s]\n",
			       claim_state_name(per[d][c].state), per[d][c].why, argv[d + 1], camp[d],
			       kern[d], tab[c].plans);
	}
	return measured ? 0 : EXIT_INCOMPLETE;
}

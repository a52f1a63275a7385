// SPDX-License-Identifier: GPL-2.0
/*
 * lrubench claims DB... [--deck DIR]: the scoreboard of claims C1-C8 over
 * one or more campaign databases, merged per claim, naming which database
 * said what; with --deck, DIR/deck.pdf (report-deck.h) from the same board.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "claims.h"
#include "cmd.h"
#include "plan.h"
#include "report-deck.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#define CLAIMS_MAX_DBS 32

static const char usage[] =
	"usage: lrubench claims DB... [--deck DIR]\n"
	"  one line per claim C1-C8: the verdict merged over the databases and kernels, then\n"
	"  what each database said on each kernel (claim x kernel)\n"
	"  --deck DIR  also write DIR/deck.pdf (16:9 pages: title, scoreboard, one per claim,\n"
	"              provenance; their gnuplot scripts in DIR/deck/)\n"
	"  exit 0, 2 on an error (a deck that could not be written included),\n"
	"       3 when no claim was tested (no classic/MGLRU pair differing in the LRU alone\n"
	"       measured one)\n";

/* Claim cl on kernel of an: a line per MGLRU mode or knob pair, where several ran
 * (claims__mechanisms). */
static void print_mechanisms(const struct claim *cl, const struct analysis *an, const char *kernel,
			     double level)
{
	struct claim_part m[8];
	size_t n = claims__mechanisms(cl, an, kernel, level, m, ARRAY_SIZE(m));

	for (size_t i = 0; i < n; i++) {
		const struct claim_result *r = &m[i].r;
		_cleanup_free_ char *what = xasprintf("%s%s%s", lru_mode_mechanisms(m[i].enabled),
						      *m[i].knobs ? ", " : "", m[i].knobs);

		printf("      lru 0x%04x %-40s %-12s", m[i].enabled, what,
		       claim_state_name(r->state));
		if (r->has_cmp)
			printf(" %+.1f%% [%+.1f%%, %+.1f%%] against %s\n", 100 * r->change,
			       100 * r->ci_lo, 100 * r->ci_hi, an->ds->v[r->base].name);
		else
			printf(" %s\n", r->why);
	}
	if (n)
		printf("      (by mechanism: each lru_gen/enabled mode against the same classic "
		       "variant, then the pairs with a knob beyond the LRU; descriptive, the "
		       "verdict is the first pair's)\n");
}

/* Claim cl's curve over vm.swappiness on kernel of an (claims__curve), where it has one. */
static void print_curve(const struct claim *cl, const struct analysis *an, const char *kernel,
			double level)
{
	static const char *const side[2] = { "classic", "MGLRU" };
	struct claim_curve cv;

	if (claims__curve(cl, an, kernel, level, &cv) < 0)
		return;
	printf("      %-8s %s at vm.swappiness", "curve", cv.row->label);
	for (size_t p = 0; p < cv.np; p++)
		printf(" %d", cv.swappiness[p]);
	printf(" (%zu blocks ran every point; descriptive)\n", cv.blocks);
	for (size_t l = 0; l < 2; l++) {
		printf("      %-8s", side[l]);
		for (size_t p = 0; p < cv.np; p++)
			printf(" %8.3g", cv.mean[l][p]);
		if (!isnan(cv.lo[l]))
			printf("   slope per 100: %+.3g [%+.3g, %+.3g]\n", cv.slope[l], cv.lo[l],
			       cv.hi[l]);
		else
			printf("   slope per 100: %+.3g (no interval: %zu blocks)\n", cv.slope[l],
			       cv.blocks);
	}
}

struct claims_dbs {
	struct store *st[CLAIMS_MAX_DBS];
	struct analysis *an[CLAIMS_MAX_DBS];
	int n;
};

static void dbs_close(struct claims_dbs *d)
{
	for (int i = 0; i < d->n; i++) {
		analysis__free(d->an[i]);
		store__close(d->st[i]);
	}
	d->n = 0;
}

static int dbs_open(struct claims_dbs *d, char **paths, int n)
{
	for (int i = 0; i < n; i++) {
		struct verdict_opts o = VERDICT_OPTS_DEFAULT;
		_cleanup_free_ char *err = NULL;
		int r;

		if (access(paths[i], R_OK) < 0) {
			log_err("%s: %s", paths[i], strerror(errno));
			return -errno;
		}
		r = store__check_campaign(paths[i], &err);
		if (r < 0) {
			log_err("%s", err);
			return r;
		}
		r = store__open_readonly(paths[i], &d->st[i]);
		if (r < 0) {
			log_err("%s: not a campaign database (%s)", paths[i], strerror(-r));
			return r;
		}
		d->n = i + 1;
		r = analysis__run(d->st[i], NULL, &o, &d->an[i]);
		if (r < 0) {
			log_err("%s: cannot analyse the campaign (%s)", paths[i], strerror(-r));
			return r;
		}
	}
	return 0;
}

int cmd_claims(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "deck", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	_cleanup_(dbs_close) struct claims_dbs dbs = { 0 };
	struct claims_board b = { 0 };
	const char *deck = NULL;
	char **paths;
	int c, ndb, ret = 0;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return 0;
		}
		if (c != 'd') {
			fputs(usage, stderr);
			return EXIT_ERROR;
		}
		deck = optarg;
	}
	paths = argv + optind;
	ndb = argc - optind;
	if (ndb < 1) {
		fputs(usage, stderr);
		return EXIT_ERROR;
	}
	if (ndb > CLAIMS_MAX_DBS) {
		log_err("claims: %d databases, at most %d", ndb, CLAIMS_MAX_DBS);
		return EXIT_ERROR;
	}
	if (dbs_open(&dbs, paths, ndb) < 0)
		return EXIT_ERROR;
	claims__board((const struct analysis *const *)dbs.an, (size_t)ndb, &b);
	printf("%-3s %-16s %s\n", "id", "verdict", "claim; then per kernel and database: the "
	       "precondition's evidence and the primary signal's numbers");
	printf("    (primary signals' intervals at %.4g%%: 0.05 over %zu tests, Bonferroni)\n",
	       100 * b.level, b.tests);
	for (size_t i = 0; i < b.n; i++) {
		const struct claim *cl = &claims__table(&(size_t){ 0 })[i];

		printf("%-3s %-16s %s\n", cl->id, claim_state_name(b.merged[i].state),
		       cl->sentence);
		for (size_t k = 0; k < b.nk; k++) {
			for (int d = 0; d < ndb; d++) {
				const struct claim_result *r =
					&b.cell[((size_t)d * b.nk + k) * b.n + i];

				if (!strcmp(r->why, CLAIM_NOT_RUN))
					continue;
				printf("    %.*s: %-12s %s  [%s, campaign %s; plans %s]\n",
				       (int)strcspn(b.kernel[k], " "), b.kernel[k],
				       claim_state_name(r->state), r->why, paths[d],
				       dbs.an[d]->ds->campaign ? dbs.an[d]->ds->campaign : "?",
				       cl->plans);
				print_mechanisms(cl, dbs.an[d], b.kernel[k], b.level);
				print_curve(cl, dbs.an[d], b.kernel[k], b.level);
			}
		}
		if (!b.nk)
			printf("    %-12s %s\n", claim_state_name(b.merged[i].state), b.merged[i].why);
	}
	fflush(stdout);
	if (deck) {
		_cleanup_free_ struct deck_source *src = xcalloc((size_t)ndb, sizeof(*src));

		for (int d = 0; d < ndb; d++)
			src[d] = (struct deck_source){ .db_path = paths[d], .st = dbs.st[d],
						       .an = dbs.an[d] };
		if (deck__write(src, (size_t)ndb, &b, deck) < 0)
			ret = EXIT_ERROR;
		else
			printf("%s/deck.pdf\n", deck);
	}
	if (!ret && !b.measured) {
		log_err("no claim was tested: no database has a classic/MGLRU pair differing in "
			"the LRU alone that measured a claim (exit %d)",
			EXIT_INCOMPLETE);
		ret = EXIT_INCOMPLETE;
	}
	claims_board__clear(&b);
	return ret;
}

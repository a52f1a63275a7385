// SPDX-License-Identifier: GPL-2.0
#include "verdict.h"
#include "spending.h"
#include "util.h"

#include <math.h>
#include <string.h>

static const struct {
	const char *name, *mark;
} verdicts[] = {
	[VERDICT_REGRESSION] = { "regression", "REGRESSION" },
	[VERDICT_IMPROVEMENT] = { "improvement", "improved" },
	[VERDICT_CHANGED] = { "changed", "changed" },
	[VERDICT_NO_CHANGE] = { "no significant change", "~" },
	[VERDICT_NO_DIRECTION] = { "no better direction", "" },
	[VERDICT_NOT_COMPARABLE] = { "not comparable across LRUs", "n/c" },
	[VERDICT_TOO_FEW] = { "too few blocks (n < 2)", "n<2" },
	[VERDICT_NO_DATA] = { "no data", "-" },
};

const char *verdict_name(enum verdict v)
{
	return verdicts[v].name;
}

const char *verdict_mark(enum verdict v)
{
	return verdicts[v].mark;
}

const char *verdict_mark_of(const struct comparison *c, double min_effect)
{
	double ch, lo, hi;

	if (c->key && c->verdict == VERDICT_NO_CHANGE && c->decision != DECISION_NONE)
		return c->decision == DECISION_WITHIN ? "same" : decision_name(c->decision);
	if (c->key)
		return verdict_mark(c->verdict);
	if (c->verdict == VERDICT_REGRESSION)
		return "worse?";
	if (c->verdict == VERDICT_IMPROVEMENT)
		return "better?";
	/*
	 * Not significant is not "no change": "~" only when the interval rules
	 * out the minimum effect both ways; a wide interval (2 blocks of a stall
	 * p99) cannot say either.
	 */
	if (c->verdict == VERDICT_NO_CHANGE &&
	    (!comparison__effect(c, &ch, &lo, &hi) || !(lo > -min_effect && hi < min_effect)))
		return "undecided";
	return verdict_mark(c->verdict);
}

bool verdict_decided(enum verdict v)
{
	return v == VERDICT_REGRESSION || v == VERDICT_IMPROVEMENT || v == VERDICT_CHANGED ||
	       v == VERDICT_NO_CHANGE;
}

const char *decision_name(enum decision d)
{
	return d == DECISION_BEYOND ? "beyond" :
	       d == DECISION_WITHIN ? "within" :
	       d == DECISION_OPEN   ? "open" :
				      "";
}

/* Whether both variants' kernels are known to count this metric alike under both LRUs. */
static bool comparable(const struct dataset *ds, const struct ds_row *r, size_t cand,
		       const char **reason)
{
	const char *rb = ds->v[ds->base].release, *rc = ds->v[cand].release;

	if (!ds_cross_lru(ds, ds->base, cand))
		return true;
	if (!metric__comparable(r->metric, *rb ? rb : ds->release, reason))
		return false;
	return !strcmp(rb, rc) || metric__comparable(r->metric, *rc ? rc : ds->release, reason);
}

/* Units of strictly positive multiplicative quantities: times, rates, counts. */
static const char *const log_units[] = {
	"ns",	 "us",	   "ms",   "s",	      "ops/s",	 "ops",	 "bytes", "bytes/s", "MiB/s",
	"pages", "events", "faults", "switches", "samples", "rows", "requests", "kills", "count",
};

enum change_scale verdict__declared_scale(const char *unit)
{
	for (size_t i = 0; i < ARRAY_SIZE(log_units); i++)
		if (unit && !strcmp(unit, log_units[i]))
			return CHANGE_LOG;
	return CHANGE_RELATIVE;
}

const char *change_scale_name(enum change_scale s)
{
	return s == CHANGE_ABSOLUTE ? "absolute" : s == CHANGE_LOG ? "log-ratio" : "relative";
}

bool comparison__effect(const struct comparison *c, double *ret_change, double *ret_lo,
			double *ret_hi)
{
	if (c->scale == CHANGE_ABSOLUTE) {
		*ret_change = c->ref > 0 ? c->diff / c->ref : NAN;
		*ret_lo = c->ref > 0 ? c->diff_lo / c->ref : NAN;
		*ret_hi = c->ref > 0 ? c->diff_hi / c->ref : NAN;
	} else {
		*ret_change = c->change;
		*ret_lo = c->ci_lo;
		*ret_hi = c->ci_hi;
	}
	return !isnan(*ret_lo);
}

/*
 * The change and its intervals from the pairs at the given level: Fieller's
 * interval of the ratio, turned into a relative change of the mean, and the
 * difference's t interval; the scale (verdict.h) from the means.
 */
static void paired_change(struct comparison *c, const double *a, const double *b, size_t n,
			  enum change_scale declared)
{
	double ma = 0, mb = 0, lo, hi, near = VERDICT_NEAR_ZERO * c->res;
	bool zero_a = true, zero_b = true, same = true, signed_ = false, positive = true;

	for (size_t i = 0; i < n; i++) {
		ma += a[i];
		mb += b[i];
		zero_a &= a[i] == 0;
		zero_b &= b[i] == 0;
		same &= a[i] == b[i];
		signed_ |= a[i] < 0 || b[i] < 0;
		positive &= a[i] > 0 && b[i] > 0;
	}
	ma /= (double)n;
	mb /= (double)n;
	if (ma != 0)
		c->change = (mb - ma) / fabs(ma);
	else
		c->change = mb == 0 ? 0 : copysign(INFINITY, mb);
	c->scale = zero_a || zero_b || fabs(ma) < near || fabs(mb) < near ? CHANGE_ABSOLUTE :
									    CHANGE_RELATIVE;
	/* declared scales (opts.log_ratio): signed rows by difference, positive ones by log */
	if (declared != CHANGE_RELATIVE && c->scale == CHANGE_RELATIVE)
		c->scale = signed_ ? CHANGE_ABSOLUTE : positive ? declared : CHANGE_RELATIVE;
	c->ref = fmax(fmax(fabs(ma), fabs(mb)), c->res);
	stats__paired_t_res(a, b, n, c->res, &c->paired);
	stats__paired_diff(a, b, n, c->level, c->res, &c->diff, &c->diff_lo, &c->diff_hi);
	if (n <= VERDICT_FLIP_MAX)
		stats__sign_flip(a, b, n, &c->flip);
	if (same) {
		/* equal in every block (no OOM kill on either side): no change, exactly */
		c->diff_lo = c->diff_hi = 0;
		if (c->scale != CHANGE_ABSOLUTE)
			c->ci_lo = c->ci_hi = 0;
		return;
	}
	if (c->scale == CHANGE_ABSOLUTE)
		return;
	if (c->scale == CHANGE_LOG) {
		double ch;

		if (stats__paired_log(a, b, n, c->level, c->res, &c->paired, &ch, &lo, &hi) < 0)
			return;
		c->change = ch;
		c->ci_lo = lo;
		c->ci_hi = hi;
		return;
	}
	if (stats__fieller_paired_change(a, b, n, c->level, c->res, &lo, &hi) < 0)
		return;
	/* change = R - 1 for ma > 0, 1 - R for ma < 0 */
	if (ma > 0) {
		c->ci_lo = lo;
		c->ci_hi = hi;
	} else {
		c->ci_lo = -hi;
		c->ci_hi = -lo;
	}
}

static void compare_one(const struct analysis *an, struct comparison *c, double *pa, double *pb)
{
	const struct dataset *ds = an->ds;
	const struct ds_row *r = &ds->rows[c->row];
	const double *a = ds_vals(ds, r, ds->base), *b = ds_vals(ds, r, c->cand);
	size_t na = r->n[ds->base], nb = r->n[c->cand];
	const char *reason = NULL;

	c->change = c->ci_lo = c->ci_hi = c->q = c->cliff = c->hedges = NAN;
	c->paired.p = c->welch.p = c->mw.p = c->flip.p = NAN;
	c->diff = c->diff_lo = c->diff_hi = c->ref = NAN;
	c->key = r->key;
	c->level = an->o.level;
	if (na)
		stats__summary(a, na, &c->base);
	if (nb)
		stats__summary(b, nb, &c->cur);
	{
		_cleanup_free_ double *all = xcalloc(na + nb + 1, sizeof(double));

		memcpy(all, a, na * sizeof(double));
		memcpy(all + na, b, nb * sizeof(double));
		c->res = stats__resolution(all, na + nb);
	}
	if (!na || !nb) {
		c->verdict = VERDICT_NO_DATA;
		return;
	}
	if (!comparable(ds, r, c->cand, &reason)) {
		c->verdict = VERDICT_NOT_COMPARABLE;
		c->reason = reason;
		return;
	}
	c->pairs = ds_pairs(ds, r, ds->base, c->cand, pa, pb);
	if (c->pairs < VERDICT_MIN_BLOCKS) {
		c->verdict = VERDICT_TOO_FEW;
		if (c->key)
			c->decision = DECISION_OPEN;
		return;
	}
	stats__welch(a, na, b, nb, &c->welch);
	stats__mann_whitney(a, na, b, nb, &c->mw);
	stats__cliffs_delta(a, na, b, nb, &c->cliff);
	stats__hedges_g(a, na, b, nb, &c->hedges);
	c->verdict = r->better == BETTER_NONE && !c->key ? VERDICT_NO_DIRECTION : VERDICT_NO_CHANGE;
}

/* The scale the row's kind declares, when the options ask for declared scales. */
static enum change_scale declared_scale(const struct analysis *an, const struct comparison *c)
{
	if (!an->o.log_ratio)
		return CHANGE_RELATIVE;
	return verdict__declared_scale(an->ds->rows[c->row].unit);
}

/* The verdict a tested row gets from its p-value and change (on its scale). */
static enum verdict verdict_of(const struct analysis *an, const struct comparison *c, double q,
			       double alpha)
{
	enum metric_better better = an->ds->rows[c->row].better;
	double ch, lo, hi;

	comparison__effect(c, &ch, &lo, &hi);
	if (!(q <= alpha) || !(fabs(ch) >= an->o.min_effect))
		return VERDICT_NO_CHANGE;
	if (better == BETTER_NONE)
		return VERDICT_CHANGED;
	return (better == BETTER_HIGHER ? ch < 0 : ch > 0) ? VERDICT_REGRESSION :
							     VERDICT_IMPROVEMENT;
}

/* The half-width, over ref, of the difference's interval with n2 pairs, spread unchanged. */
static double abs_rel_half(const struct comparison *c, size_t n2)
{
	double n = (double)c->pairs;
	double sd = (c->diff_hi - c->diff_lo) / 2 / stats__t_crit(c->level, n - 1) * sqrt(n);

	return stats__t_crit(c->level, (double)(n2 - 1)) * sd / sqrt((double)n2) / c->ref;
}

/* The half-width, in the minimum effect's units, the interval would have with n2 pairs. */
static double half_at(const struct comparison *c, const double *pa, const double *pb, size_t n2)
{
	return c->scale == CHANGE_ABSOLUTE ? abs_rel_half(c, n2) :
					     stats__paired_rel_half(pa, pb, c->pairs, n2, c->level);
}

/* Where a key metric stands, and how many more blocks would likely settle it. */
static void decide_key(const struct analysis *an, struct comparison *c, const double *pa,
		       const double *pb)
{
	double me = an->o.min_effect, gap, ch, lo, hi;
	size_t lo_n, hi_n;

	comparison__effect(c, &ch, &lo, &hi);
	if (isnan(lo) && isinf(ch) && c->q <= analysis__far(an)) {
		/* unbounded, from a zero base: an infinite change is beyond any minimum */
		c->decision = DECISION_BEYOND;
		return;
	}
	if (lo >= me || hi <= -me) {
		c->decision = DECISION_BEYOND;
		return;
	}
	if (lo > -me && hi < me) {
		c->decision = DECISION_WITHIN;
		return;
	}
	c->decision = DECISION_OPEN;
	gap = fabs(fabs(ch) - me);
	if (!(gap > 0) || !isfinite(gap))
		return;
	/* the half-width shrinks as blocks are added: the first n2 below the gap, by bisection */
	if (!(half_at(c, pa, pb, c->pairs + 200) < gap))
		return;
	lo_n = c->pairs;
	hi_n = c->pairs + 200;
	while (hi_n - lo_n > 1) {
		size_t mid = lo_n + (hi_n - lo_n) / 2;

		if (half_at(c, pa, pb, mid) < gap)
			hi_n = mid;
		else
			lo_n = mid;
	}
	c->more_blocks = hi_n - c->pairs;
}

double analysis__far(const struct analysis *an)
{
	return an->o.far > 0 ? an->o.far : an->o.alpha;
}

/*
 * The nominal level a key test at this many blocks rejects at: the
 * campaign's false-alarm rate split evenly over its key tests (Bonferroni),
 * and in an adaptive design that share spent over the looks by the
 * O'Brien-Fleming-like function (spending.h), so that the chance of any
 * false verdict in the campaign is at most far at whichever look it stops.
 */
static double key_nominal(const struct analysis *an, size_t blocks)
{
	const struct dataset *ds = an->ds;
	double a = analysis__far(an) / (double)(an->key_total ? an->key_total : 1), p;

	if (an->looks < 2)
		return a;
	p = spending__nominal_at(a, ds->min_reps, ds->max_reps, (int)blocks);
	/* a design spending.c cannot take: Bonferroni over the looks, never no level */
	return isnan(p) ? a / (double)an->looks : p;
}

/* Key metrics: Bonferroni over every key test of the campaign, alpha spent over the looks. */
static void decide_keys(struct analysis *an, double *pa, double *pb)
{
	const struct dataset *ds = an->ds;
	double far = analysis__far(an);

	for (size_t i = 0; i < an->nc; i++)
		an->key_total += an->c[i].key && an->c[i].verdict == VERDICT_NO_CHANGE;
	for (size_t i = 0; i < an->nc; i++) {
		struct comparison *c = &an->c[i];
		const char *fam = ds->rows[c->row].family;
		double nominal;
		size_t m = 0;

		if (!c->key || c->verdict != VERDICT_NO_CHANGE)
			continue;
		for (size_t j = 0; j < an->nc; j++)
			m += an->c[j].cand == c->cand && an->c[j].key &&
			     an->c[j].verdict == VERDICT_NO_CHANGE &&
			     !strcmp(ds->rows[an->c[j].row].family, fam);
		c->family_size = m;
		nominal = key_nominal(an, c->pairs);
		c->level = 1 - nominal;
		ds_pairs(ds, &ds->rows[c->row], ds->base, c->cand, pa, pb);
		paired_change(c, pa, pb, c->pairs, declared_scale(an, c));
		c->q = fmin(1, c->paired.p * far / nominal);
		an->key_tests++;
	}
	for (size_t i = 0; i < an->nc; i++) {
		struct comparison *c = &an->c[i];

		if (!c->key || !c->family_size)
			continue;
		c->verdict = verdict_of(an, c, c->q, far);
		ds_pairs(ds, &ds->rows[c->row], ds->base, c->cand, pa, pb);
		decide_key(an, c, pa, pb);
		an->regressions += c->verdict == VERDICT_REGRESSION;
		an->improvements += c->verdict == VERDICT_IMPROVEMENT;
		an->changed += c->verdict == VERDICT_CHANGED;
	}
	for (size_t i = 0; i < an->nc; i++)
		an->open += an->c[i].key && an->c[i].decision == DECISION_OPEN;
}

/* Exploratory rows: 95% intervals, Benjamini-Hochberg over each candidate's tests. */
static void decide_exploratory(struct analysis *an, double *pa, double *pb)
{
	_cleanup_free_ double *p = xcalloc(an->nc + 1, sizeof(double));
	_cleanup_free_ double *pc = xcalloc(an->nc + 1, sizeof(double));
	_cleanup_free_ double *q = xcalloc(an->nc + 1, sizeof(double));
	const struct dataset *ds = an->ds;

	for (size_t i = 0; i < an->nc; i++) {
		struct comparison *c = &an->c[i];

		p[i] = NAN;
		if (c->key || (c->verdict != VERDICT_NO_CHANGE && c->verdict != VERDICT_NO_DIRECTION))
			continue;
		ds_pairs(ds, &ds->rows[c->row], ds->base, c->cand, pa, pb);
		paired_change(c, pa, pb, c->pairs, declared_scale(an, c));
		if (c->verdict == VERDICT_NO_CHANGE)
			p[i] = c->paired.p;
	}
	for (size_t cand = 0; cand < ds->nv; cand++) {
		/* one family per candidate, as each is its own comparison */
		for (size_t i = 0; i < an->nc; i++)
			pc[i] = an->c[i].cand == cand ? p[i] : NAN;
		stats__bh_adjust(pc, an->nc, q);
		for (size_t i = 0; i < an->nc; i++) {
			struct comparison *c = &an->c[i];

			if (c->cand != cand || isnan(q[i]))
				continue;
			an->tests++;
			c->q = q[i];
			c->verdict = verdict_of(an, c, c->q, an->o.alpha);
			an->x_worse += c->verdict == VERDICT_REGRESSION;
			an->x_better += c->verdict == VERDICT_IMPROVEMENT;
		}
	}
}

/* Analyse an->ds (set by the caller) with options o. */
static int analyse(struct analysis *an, const struct verdict_opts *o, struct analysis **ret)
{
	const struct dataset *ds = an->ds;
	_cleanup_free_ double *pa = xcalloc(ds->maxruns + 1, sizeof(double));
	_cleanup_free_ double *pb = xcalloc(ds->maxruns + 1, sizeof(double));

	an->o = o ? *o : VERDICT_OPTS_DEFAULT;
	an->looks = ds->adaptive ? (size_t)(ds->max_reps - ds->min_reps + 1) : 1;
	an->c = xcalloc(ds->nv * ds->nrows + 1, sizeof(*an->c));
	for (size_t v = 0; v < ds->nv; v++) {
		if (v == ds->base)
			continue;
		for (size_t r = 0; r < ds->nrows; r++) {
			struct comparison *c = &an->c[an->nc++];

			c->row = r;
			c->cand = v;
			compare_one(an, c, pa, pb);
		}
	}
	decide_keys(an, pa, pb);
	decide_exploratory(an, pa, pb);
	*ret = an;
	return 0;
}

int analysis__from(struct dataset *ds, const struct verdict_opts *o, struct analysis **ret)
{
	struct analysis *an = xcalloc(1, sizeof(*an));

	an->ds = ds;
	return analyse(an, o, ret);
}

int analysis__against(const struct dataset *ds, size_t base, const struct verdict_opts *o,
		      struct analysis **ret)
{
	struct analysis *an;

	if (base >= ds->nv)
		return -ENOENT;
	an = xcalloc(1, sizeof(*an));
	an->view = *ds;
	an->view.base = base;
	an->ds = &an->view;
	an->borrowed = true;
	return analyse(an, o, ret);
}

int analysis__run(struct store *st, const char *baseline, const struct verdict_opts *o,
		  struct analysis **ret)
{
	struct dataset *ds = NULL;
	int r = dataset__load(st, baseline, &ds);

	if (r < 0)
		return r;
	return analysis__from(ds, o, ret);
}

char *analysis__key_level_text(const struct analysis *an)
{
	const struct dataset *ds = an->ds;
	size_t k = an->key_total ? an->key_total : 1;
	double a = analysis__far(an) / (double)k, p[SPENDING_MAX_LOOKS];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (an->looks < 2 || spending__nominal(a, ds->min_reps, ds->max_reps, p) < 0)
		return xasprintf("%g/%zu (the campaign's %g over its %zu key test%s)",
				 analysis__far(an), k, analysis__far(an), k, k == 1 ? "" : "s");
	f = open_memstream(&buf, &len);
	fprintf(f, "%g/%zu (the campaign's %g over its %zu key test%s) spent over the looks "
		   "(O'Brien-Fleming-like): p <= ",
		analysis__far(an), k, analysis__far(an), k, k == 1 ? "" : "s");
	for (int b = ds->min_reps; b <= ds->max_reps; b++) {
		/* many looks: the first two and the last */
		if (an->looks > 6 && b == ds->min_reps + 2) {
			fprintf(f, ", ...");
			b = ds->max_reps - 1;
			continue;
		}
		fprintf(f, "%s%.2g at %d", b > ds->min_reps ? ", " : "", p[b - ds->min_reps], b);
	}
	fprintf(f, " blocks");
	fclose(f);
	return buf;
}

size_t analysis__blocks(const struct analysis *an, size_t cand)
{
	const struct ds_variant *b = &an->ds->v[an->ds->base], *c = &an->ds->v[cand];
	size_t n = 0;

	for (int i = 0; i < b->measured; i++) {
		bool dup = false;

		for (int k = 0; k < i; k++)
			dup |= b->reps[k] == b->reps[i];
		for (int j = 0; j < c->measured && !dup; j++)
			if (c->reps[j] == b->reps[i]) {
				n++;
				break;
			}
	}
	return n;
}

const char *analysis__incomplete(const struct analysis *an, char **buf)
{
	const struct dataset *ds = an->ds;
	size_t len = 0, lost = 0, measured = 0;
	FILE *f;

	for (size_t i = 0; i < ds->nv; i++) {
		lost += (size_t)ds->v[i].lost;
		measured += (size_t)ds->v[i].measured;
	}
	if (!measured)
		return "no run was measured";
	f = open_memstream(buf, &len);
	if (lost)
		fprintf(f, "%zu planned run%s failed after %s retries", lost, lost == 1 ? "" : "s",
			lost == 1 ? "its" : "their");
	for (size_t v = 0; v < ds->nv; v++) {
		size_t n;

		if (v == ds->base)
			continue;
		n = analysis__blocks(an, v);
		if (n < VERDICT_MIN_BLOCKS)
			fprintf(f, "%s%s has %zu block%s measured beside %s (the rule needs %d)",
				ftell(f) ? "; " : "", ds->v[v].name, n, n == 1 ? "" : "s",
				ds->v[ds->base].name, VERDICT_MIN_BLOCKS);
	}
	fclose(f);
	if (!len) {
		free(*buf);
		*buf = NULL;
	}
	return *buf;
}

int analysis__exit_status(const struct analysis *an)
{
	_cleanup_free_ char *buf = NULL;

	if (analysis__incomplete(an, &buf))
		return EXIT_INCOMPLETE;
	return an->regressions ? EXIT_REGRESSION : EXIT_NO_REGRESSION;
}

void analysis__free(struct analysis *a)
{
	if (!a)
		return;
	if (!a->borrowed)
		dataset__free(a->ds);
	free(a->c);
	free(a);
}

void analysis__freep(struct analysis **a)
{
	analysis__free(*a);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Outputs for CI: JUnit XML, one test case per metric verdict (a regression
 * fails, a metric without a verdict is skipped with the reason), and the
 * verdict table as JSON. Both record the tool, its version, the campaign,
 * the database and the options that decided.
 */
#include "compare.h"
#include "escape.h"
#include "report-priv.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <string.h>

static void xml_attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, " %s=\"", name);
	escape_xml(f, value);
	fputc('"', f);
}

/* "-12.3% [-20.1%, -4.0%], q 0.004; classic 57396 ±11% n=3, mglru 50310 ±3% n=3" */
static char *cmp_text(const struct dataset *ds, const struct comparison *c)
{
	char ch[16], lo[16], hi[16], q[16], mb[24], mc[24];

	fmt_pct(ch, sizeof(ch), c->change);
	fmt_pct(lo, sizeof(lo), c->ci_lo);
	fmt_pct(hi, sizeof(hi), c->ci_hi);
	fmt_p(q, sizeof(q), c->q);
	fmt_num(mb, sizeof(mb), c->base.n ? c->base.mean : NAN);
	fmt_num(mc, sizeof(mc), c->cur.n ? c->cur.mean : NAN);
	return xasprintf("%s: change %s [%s, %s], q %s; %s %s n=%zu, %s %s n=%zu",
			 verdict_name(c->verdict), ch, lo, hi, q, ds->v[ds->base].name, mb,
			 c->base.n, ds->v[c->cand].name, mc, c->cur.n);
}

int report_junit(const struct report *rp, FILE *f)
{
	const struct analysis *an = rp->an;
	const struct dataset *ds = an->ds;
	size_t tests = 0, failures = 0, skipped = 0;

	for (size_t i = 0; i < an->nc; i++) {
		if (ds->rows[an->c[i].row].better == BETTER_NONE)
			continue;
		tests++;
		failures += an->c[i].verdict == VERDICT_REGRESSION;
		skipped += !verdict_decided(an->c[i].verdict);
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
	{
		_cleanup_free_ char *name = xasprintf("lrubench %s", rp->campaign);

		xml_attr(f, "name", name);
	}
	fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", tests,
		failures, skipped);
	for (size_t cand = 0; cand < ds->nv; cand++) {
		size_t t = 0, fl = 0, sk = 0;
		_cleanup_free_ char *suite = NULL;

		if (cand == ds->base)
			continue;
		for (size_t i = 0; i < an->nc; i++) {
			const struct comparison *c = &an->c[i];

			if (c->cand != cand || ds->rows[c->row].better == BETTER_NONE)
				continue;
			t++;
			fl += c->verdict == VERDICT_REGRESSION;
			sk += !verdict_decided(c->verdict);
		}
		suite = xasprintf("%s vs %s", ds->v[cand].name, ds->v[ds->base].name);
		fprintf(f, "  <testsuite");
		xml_attr(f, "name", suite);
		fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", t, fl,
			sk);
		fprintf(f, "    <properties>\n");
		{
			char buf[64];
			const struct {
				const char *k, *v;
			} props[] = {
				{ "lrubench.version", LRUBENCH_VERSION },
				{ "campaign", rp->campaign },
				{ "database", rp->o->db_path },
				{ "kernel", ds->release },
			};

			for (size_t i = 0; i < ARRAY_SIZE(props); i++) {
				fprintf(f, "      <property");
				xml_attr(f, "name", props[i].k);
				xml_attr(f, "value", props[i].v);
				fprintf(f, "/>\n");
			}
			snprintf(buf, sizeof(buf), "%g", an->o.min_effect);
			fprintf(f, "      <property name=\"min_effect\" value=\"%s\"/>\n", buf);
			snprintf(buf, sizeof(buf), "%g", an->o.alpha);
			fprintf(f, "      <property name=\"alpha\" value=\"%s\"/>\n", buf);
		}
		fprintf(f, "    </properties>\n");
		for (size_t i = 0; i < an->nc; i++) {
			const struct comparison *c = &an->c[i];
			const struct ds_row *r = &ds->rows[c->row];
			_cleanup_free_ char *cls = NULL, *text = NULL;

			if (c->cand != cand || r->better == BETTER_NONE)
				continue;
			cls = xasprintf("lrubench.%s", r->group);
			text = cmp_text(ds, c);
			fprintf(f, "    <testcase");
			xml_attr(f, "classname", cls);
			xml_attr(f, "name", r->label);
			fprintf(f, ">\n");
			if (c->verdict == VERDICT_REGRESSION) {
				fprintf(f, "      <failure type=\"regression\"");
				xml_attr(f, "message", text);
				fprintf(f, ">");
				escape_xml(f, text);
				fprintf(f, "</failure>\n");
			} else if (!verdict_decided(c->verdict)) {
				_cleanup_free_ char *why =
					c->reason ? xasprintf("%s: %s", verdict_name(c->verdict),
							      c->reason) :
						    xstrdup(verdict_name(c->verdict));

				fprintf(f, "      <skipped");
				xml_attr(f, "message", why);
				fprintf(f, "/>\n");
			} else {
				fprintf(f, "      <system-out>");
				escape_xml(f, text);
				fprintf(f, "</system-out>\n");
			}
			fprintf(f, "    </testcase>\n");
		}
		fprintf(f, "  </testsuite>\n");
	}
	fprintf(f, "</testsuites>\n");
	return 0;
}

static void json_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, "%.10g", x);
	else
		fprintf(f, "null");
}

static void json_summary(FILE *f, const char *variant, const struct stats_summary *s)
{
	fprintf(f, "{\"variant\": ");
	escape_json(f, variant);
	fprintf(f, ", \"n\": %zu, \"mean\": ", s->n);
	json_num(f, s->n ? s->mean : NAN);
	fprintf(f, ", \"median\": ");
	json_num(f, s->n ? s->median : NAN);
	fprintf(f, ", \"sd\": ");
	json_num(f, s->n ? s->sd : NAN);
	fprintf(f, ", \"cv\": ");
	json_num(f, s->n ? s->cv : NAN);
	fprintf(f, ", \"min\": ");
	json_num(f, s->n ? s->min : NAN);
	fprintf(f, ", \"max\": ");
	json_num(f, s->n ? s->max : NAN);
	fprintf(f, "}");
}

int report_json(const struct report *rp, FILE *f)
{
	const struct analysis *an = rp->an;
	const struct dataset *ds = an->ds;
	bool first = true;

	fprintf(f, "{\n  \"tool\": \"lrubench\",\n  \"version\": ");
	escape_json(f, LRUBENCH_VERSION);
	fprintf(f, ",\n  \"campaign\": ");
	escape_json(f, rp->campaign);
	fprintf(f, ",\n  \"database\": ");
	escape_json(f, rp->o->db_path);
	fprintf(f, ",\n  \"kernel\": ");
	escape_json(f, ds->release);
	fprintf(f, ",\n  \"baseline\": ");
	escape_json(f, ds->v[ds->base].name);
	fprintf(f,
		",\n  \"options\": {\"min_effect\": %g, \"alpha\": %g, \"level\": %g, "
		"\"bootstrap_resamples\": %u, \"seed\": %llu, \"test\": \"welch\", "
		"\"adjust\": \"benjamini-hochberg\"},\n",
		an->o.min_effect, an->o.alpha, an->o.level, an->o.resamples,
		(unsigned long long)an->o.seed);
	fprintf(f,
		"  \"warmup_repetitions\": %d,\n  \"tests\": %zu,\n  \"regressions\": %zu,\n"
		"  \"improvements\": %zu,\n  \"verdicts\": [",
		ds->warmup, an->tests, an->regressions, an->improvements);
	for (size_t i = 0; i < an->nc; i++) {
		const struct comparison *c = &an->c[i];
		const struct ds_row *r = &ds->rows[c->row];
		const struct noise_row *nr = noise__find(rp->nz, r->label);

		if (r->better == BETTER_NONE)
			continue;
		fprintf(f, "%s\n    {\"metric\": ", first ? "" : ",");
		first = false;
		escape_json(f, r->label);
		fprintf(f, ", \"group\": ");
		escape_json(f, r->group);
		fprintf(f, ", \"unit\": ");
		escape_json(f, r->unit);
		fprintf(f, ", \"better\": \"%s\",\n     \"baseline\": ",
			metric_better_name(r->better));
		json_summary(f, ds->v[ds->base].name, &c->base);
		fprintf(f, ",\n     \"candidate\": ");
		json_summary(f, ds->v[c->cand].name, &c->cur);
		fprintf(f, ",\n     \"change\": ");
		json_num(f, c->change);
		fprintf(f, ", \"ci\": [");
		json_num(f, c->ci_lo);
		fprintf(f, ", ");
		json_num(f, c->ci_hi);
		fprintf(f, "], \"p_welch\": ");
		json_num(f, c->welch.p);
		fprintf(f, ", \"df\": ");
		json_num(f, c->welch.df);
		fprintf(f, ", \"p_mann_whitney\": ");
		json_num(f, c->mw.p);
		fprintf(f, ", \"q\": ");
		json_num(f, c->q);
		fprintf(f, ", \"cliffs_delta\": ");
		json_num(f, c->cliff);
		fprintf(f, ", \"hedges_g\": ");
		json_num(f, c->hedges);
		fprintf(f, ", \"mde\": ");
		json_num(f,
			 nr ? noise__mde_at(nr, c->base.n < c->cur.n ? c->base.n : c->cur.n) : NAN);
		fprintf(f, ",\n     \"verdict\": \"%s\", \"reason\": ",
			c->verdict == VERDICT_REGRESSION     ? "regression" :
			c->verdict == VERDICT_IMPROVEMENT    ? "improvement" :
			c->verdict == VERDICT_NO_CHANGE	     ? "no-change" :
			c->verdict == VERDICT_NOT_COMPARABLE ? "not-comparable" :
			c->verdict == VERDICT_TOO_FEW	     ? "too-few-runs" :
							       "no-data");
		if (c->reason)
			escape_json(f, c->reason);
		else
			fprintf(f, "null");
		fprintf(f, "}");
	}
	fprintf(f, "\n  ]\n}\n");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Outputs for CI: JUnit XML (a suite "runs" with an error per run lost to a
 * failure, with its reason and console tail, and per variant short of
 * blocks; then one test case per metric: a key metric's regression fails,
 * a metric without a verdict is skipped with the reason, exploratory rows
 * never fail), and the verdict table as JSON. Both record the tool, its version, the campaign,
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

/* "regression: change -12.3% [-20.1%, -4.0%] at 98.3%, q 0.004; classic 57396 n=3, ..." */
static char *cmp_text(const struct dataset *ds, const struct comparison *c)
{
	char ch[64], ci[64], q[16], mb[24], mc[24];

	fmt_change(ch, sizeof(ch), c, ds->rows[c->row].unit);
	fmt_change_ci(ci, sizeof(ci), c);
	fmt_p(q, sizeof(q), c->q);
	fmt_num(mb, sizeof(mb), c->base.n ? c->base.mean : NAN);
	fmt_num(mc, sizeof(mc), c->cur.n ? c->cur.mean : NAN);
	return xasprintf("%s%s: change %s %s at %.4g%%, q %s over %zu blocks; %s %s n=%zu, "
			 "%s %s n=%zu",
			 c->key ? "" : "exploratory, ", verdict_name(c->verdict), ch, ci,
			 100 * c->level, q, c->pairs, ds->v[ds->base].name, mb, c->base.n,
			 ds->v[c->cand].name, mc, c->cur.n);
}

/* The last lines of a run's console (the log table), at most max bytes; NULL if none. */
static char *console_tail(const struct report_data *data, int64_t run_id, size_t max)
{
	size_t len = 0, from = 0, n;
	const char *text = report_data__console(data, run_id, &len);
	char *tail;

	if (!text)
		return NULL;
	if (len > max) {
		/* start on a line */
		const char *nl = memchr(text + len - max, '\n', max);

		from = nl ? (size_t)(nl - text) + 1 : len - max;
	}
	n = len - from;
	tail = xcalloc(n + 1, 1);
	if (n)
		memcpy(tail, text + from, n);
	/* NUL bytes would cut the text short: the console is a guest's */
	for (size_t i = 0; i < n; i++)
		if (!tail[i])
			tail[i] = ' ';
	return tail;
}

static void junit_error(FILE *f, const char *classname, const char *name, const char *type,
			const char *message, const char *body)
{
	fprintf(f, "    <testcase");
	xml_attr(f, "classname", classname);
	xml_attr(f, "name", name);
	fprintf(f, ">\n      <error");
	xml_attr(f, "type", type);
	xml_attr(f, "message", message);
	fprintf(f, ">");
	escape_xml(f, body ? body : message);
	fprintf(f, "</error>\n    </testcase>\n");
}

/*
 * The campaign's own suite: an <error> per run lost to a failure (its
 * reason and console tail), per variant short of blocks, and when nothing
 * was measured. Returns the number of errors.
 */
static size_t junit_runs(const struct report *rp, FILE *f, bool count_only)
{
	const struct analysis *an = rp->an;
	const struct dataset *ds = an->ds;
	size_t errors = 0, measured = 0;

	for (size_t i = 0; i < ds->nv; i++)
		measured += (size_t)ds->v[i].measured;
	errors += ds->nfailures + !measured;
	for (size_t v = 0; v < ds->nv; v++)
		errors += v != ds->base && analysis__blocks(an, v) < VERDICT_MIN_BLOCKS;
	if (count_only)
		return errors;
	fprintf(f, "  <testsuite name=\"runs\" tests=\"%zu\" failures=\"0\" errors=\"%zu\" "
		   "skipped=\"0\">\n",
		errors ? errors : 1, errors);
	for (size_t i = 0; i < ds->nfailures; i++) {
		const struct ds_failure *fl = &ds->failures[i];
		_cleanup_free_ char *name = xasprintf("run %lld: %s, repetition %d",
						      (long long)fl->run_id,
						      ds->v[fl->variant].name, fl->rep + 1);
		_cleanup_free_ char *msg = xasprintf("%s: %s", fl->status,
						     *fl->reason ? fl->reason : "no reason given");
		_cleanup_free_ char *tail = console_tail(rp->data, fl->run_id, 4096);
		_cleanup_free_ char *body =
			xasprintf("%s\n\nconsole (last lines):\n%s", msg, tail ? tail : "(none)");

		junit_error(f, "lrubench.runs", name, fl->status, msg, body);
	}
	for (size_t v = 0; v < ds->nv; v++) {
		size_t n = v == ds->base ? VERDICT_MIN_BLOCKS : analysis__blocks(an, v);
		_cleanup_free_ char *name = NULL, *msg = NULL;

		if (n >= VERDICT_MIN_BLOCKS)
			continue;
		name = xasprintf("variant %s", ds->v[v].name);
		msg = xasprintf("%zu block%s measured beside %s; a verdict needs %d", n,
				n == 1 ? "" : "s", ds->v[ds->base].name, VERDICT_MIN_BLOCKS);
		junit_error(f, "lrubench.runs", name, "incomplete", msg, NULL);
	}
	if (!measured)
		junit_error(f, "lrubench.runs", "campaign", "nothing-measured",
			    "no run of the campaign was measured", NULL);
	if (!errors)
		fprintf(f, "    <testcase classname=\"lrubench.runs\" name=\"every planned run "
			   "measured\"/>\n");
	fprintf(f, "  </testsuite>\n");
	return errors;
}

int report__junit(const struct report *rp, FILE *f)
{
	const struct analysis *an = rp->an;
	const struct dataset *ds = an->ds;
	size_t errors = junit_runs(rp, f, true);
	size_t tests = errors ? errors : 1, failures = 0, skipped = 0;

	for (size_t i = 0; i < an->nc; i++) {
		if (ds->rows[an->c[i].row].better == BETTER_NONE && !an->c[i].key)
			continue;
		tests++;
		failures += an->c[i].key && an->c[i].verdict == VERDICT_REGRESSION;
		skipped += !verdict_decided(an->c[i].verdict);
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
	{
		_cleanup_free_ char *name = xasprintf("lrubench %s", rp->campaign);

		xml_attr(f, "name", name);
	}
	fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n", tests,
		failures, errors, skipped);
	junit_runs(rp, f, false);
	for (size_t cand = 0; cand < ds->nv; cand++) {
		size_t t = 0, fl = 0, sk = 0;
		_cleanup_free_ char *suite = NULL;

		if (cand == ds->base)
			continue;
		for (size_t i = 0; i < an->nc; i++) {
			const struct comparison *c = &an->c[i];

			if (c->cand != cand || (ds->rows[c->row].better == BETTER_NONE && !c->key))
				continue;
			t++;
			fl += c->key && c->verdict == VERDICT_REGRESSION;
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
				{ "kernel", ds->v[cand].release },
				{ "guest.clock", rp->clock },
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
			snprintf(buf, sizeof(buf), "%zu", an->looks);
			fprintf(f, "      <property name=\"looks\" value=\"%s\"/>\n", buf);
		}
		fprintf(f, "    </properties>\n");
		for (size_t i = 0; i < an->nc; i++) {
			const struct comparison *c = &an->c[i];
			const struct ds_row *r = &ds->rows[c->row];
			_cleanup_free_ char *cls = NULL, *text = NULL;

			if (c->cand != cand || (r->better == BETTER_NONE && !c->key))
				continue;
			cls = xasprintf(c->key ? "lrubench.%s" : "lrubench.exploratory.%s", r->family);
			text = cmp_text(ds, c);
			fprintf(f, "    <testcase");
			xml_attr(f, "classname", cls);
			xml_attr(f, "name", r->label);
			fprintf(f, ">\n");
			if (c->key && c->verdict == VERDICT_REGRESSION) {
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

int report__json(const struct report *rp, FILE *f)
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
	fprintf(f, ",\n  \"guest_clock\": ");
	escape_json(f, rp->clock);
	fprintf(f,
		",\n  \"options\": {\"min_effect\": %g, \"alpha\": %g, \"level\": %g, "
		"\"test\": \"paired-t over blocks\", \"interval\": \"fieller\", "
		"\"key_adjust\": \"bonferroni over the campaign's key tests, obf-like spending over "
		"looks\", \"far\": %g, "
		"\"exploratory_adjust\": \"benjamini-hochberg\", \"looks\": %zu},\n",
		an->o.min_effect, an->o.alpha, an->o.level, analysis__far(an), an->looks);
	{
		_cleanup_free_ char *buf = NULL;
		const char *why = analysis__incomplete(an, &buf);

		fprintf(f, "  \"exit_status\": %d,\n  \"incomplete\": ",
			analysis__exit_status(an));
		if (why)
			escape_json(f, why);
		else
			fprintf(f, "null");
	}
	fprintf(f, ",\n  \"failed_runs\": [");
	for (size_t i = 0; i < ds->nfailures; i++) {
		fprintf(f, "%s{\"run\": %lld, \"variant\": ", i ? ", " : "",
			(long long)ds->failures[i].run_id);
		escape_json(f, ds->v[ds->failures[i].variant].name);
		fprintf(f, ", \"repetition\": %d, \"status\": ", ds->failures[i].rep + 1);
		escape_json(f, ds->failures[i].status);
		fprintf(f, ", \"reason\": ");
		escape_json(f, ds->failures[i].reason);
		fprintf(f, "}");
	}
	fprintf(f,
		"],\n  \"warmup_repetitions\": %d,\n  \"key_tests\": %zu,\n"
		"  \"exploratory_tests\": %zu,\n  \"regressions\": %zu,\n"
		"  \"improvements\": %zu,\n  \"changed\": %zu,\n  \"undecided\": %zu,\n"
		"  \"verdicts\": [",
		ds->warmup, an->key_tests, an->tests, an->regressions, an->improvements,
		an->changed, an->open);
	for (size_t i = 0; i < an->nc; i++) {
		const struct comparison *c = &an->c[i];
		const struct ds_row *r = &ds->rows[c->row];
		const struct noise_row *nr = noise__find(rp->nz, r->label);

		if (r->better == BETTER_NONE && !c->key)
			continue;
		fprintf(f, "%s\n    {\"metric\": ", first ? "" : ",");
		first = false;
		escape_json(f, r->label);
		fprintf(f, ", \"group\": ");
		escape_json(f, r->group);
		fprintf(f, ", \"family\": ");
		escape_json(f, r->family);
		fprintf(f, ", \"key\": %s", c->key ? "true" : "false");
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
		fprintf(f, "], \"scale\": \"%s\", \"diff\": ", change_scale_name(c->scale));
		json_num(f, c->diff);
		fprintf(f, ", \"diff_ci\": [");
		json_num(f, c->diff_lo);
		fprintf(f, ", ");
		json_num(f, c->diff_hi);
		fprintf(f, "], \"resolution\": ");
		json_num(f, c->res);
		fprintf(f, ", \"p_sign_flip\": ");
		json_num(f, c->flip.p);
		fprintf(f, ", \"level\": ");
		json_num(f, c->level);
		fprintf(f, ", \"blocks\": %zu, \"p_paired\": ", c->pairs);
		json_num(f, c->paired.p);
		fprintf(f, ", \"p_welch\": ");
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
		json_num(f, nr ? noise__mde_paired_at(nr, c->pairs, c->level) : NAN);
		fprintf(f, ",\n     \"verdict\": \"%s\", \"decision\": \"%s\", "
			   "\"more_blocks\": %zu, \"reason\": ",
			c->verdict == VERDICT_REGRESSION     ? "regression" :
			c->verdict == VERDICT_IMPROVEMENT    ? "improvement" :
			c->verdict == VERDICT_CHANGED	     ? "changed" :
			c->verdict == VERDICT_NO_CHANGE	     ? "no-change" :
			c->verdict == VERDICT_NO_DIRECTION   ? "no-direction" :
			c->verdict == VERDICT_NOT_COMPARABLE ? "not-comparable" :
			c->verdict == VERDICT_TOO_FEW	     ? "too-few-blocks" :
							       "no-data",
			decision_name(c->decision), c->more_blocks);
		if (c->reason)
			escape_json(f, c->reason);
		else
			fprintf(f, "null");
		fprintf(f, "}");
	}
	fprintf(f, "\n  ]\n}\n");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* The bisection database: see bisect-db.h for its tables. */
#include "bisect-db.h"
#include "sql.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct bisect_db {
	sqlite3 *db;
};

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS bisect_param ("
	" key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS bisect_step ("
	" id INTEGER PRIMARY KEY,"
	" ord INTEGER NOT NULL UNIQUE,"
	" role TEXT NOT NULL CHECK (role IN ('good', 'bad', 'step')),"
	" commit_sha TEXT NOT NULL,"
	" subject TEXT,"
	" started TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
	" finished TEXT,"
	" build_key TEXT,"
	" campaigns TEXT,"	/* the step's campaign databases, space separated */
	" n INTEGER,"		/* values measured */
	" vals TEXT,"		/* the values, space separated, %.17g */
	" good_vals TEXT,"	/* the good end's, measured interleaved with these */
	" mean REAL, good_mean REAL,"
	" change REAL, ci_lo REAL, ci_hi REAL," /* relative to the good end, + = worse */
	" threshold REAL,"
	" decision TEXT CHECK (decision IN ('good', 'bad', 'skip', 'error')),"
	" reason TEXT,"
	" log TEXT);";

const char *bisect_db__errmsg(struct bisect_db *db)
{
	return sqlite3_errmsg(db->db);
}

int bisect_db__open(const char *path, struct bisect_db **ret, char **ret_err)
{
	struct bisect_db *db = xcalloc(1, sizeof(*db));
	char *msg = NULL;

	if (sqlite3_open(path, &db->db) != SQLITE_OK) {
		*ret_err = xasprintf("%s: %s", path, db->db ? sqlite3_errmsg(db->db) : "out of memory");
		bisect_db__close(db);
		return -EIO;
	}
	sqlite3_busy_timeout(db->db, 10000);
	if (sqlite3_exec(db->db, "PRAGMA journal_mode = WAL", NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(db->db, schema, NULL, NULL, &msg) != SQLITE_OK) {
		*ret_err = xasprintf("%s: %s", path, msg ? msg : sqlite3_errmsg(db->db));
		sqlite3_free(msg);
		bisect_db__close(db);
		return -EIO;
	}
	*ret = db;
	return 0;
}

void bisect_db__close(struct bisect_db *db)
{
	if (!db)
		return;
	sqlite3_close(db->db);
	free(db);
}

void bisect_db__closep(struct bisect_db **db)
{
	bisect_db__close(*db);
	*db = NULL;
}

/* Prepare sql, or -EIO (the message stays in the handle: bisect_db__errmsg). */
static int prep(struct bisect_db *db, const char *sql, sqlite3_stmt **ret)
{
	return sql_prepare(db->db, sql, ret, NULL, 0) == 0 ? 0 : -EIO;
}

/* Step a statement that returns no row, and finalize it. */
static int done(struct bisect_db *db, sqlite3_stmt *s)
{
	_cleanup_stmt_ sqlite3_stmt *q = s;

	return sql_step_done(db->db, q, NULL, 0) == 0 ? 0 : -EIO;
}

int bisect_db__param_set(struct bisect_db *db, const char *key, const char *value)
{
	sqlite3_stmt *s;

	if (prep(db, "INSERT OR REPLACE INTO bisect_param (key, value) VALUES (?, ?)", &s) < 0)
		return -EIO;
	sql_bind_text(s, 1, key);
	sql_bind_text(s, 2, value ? value : "");
	return done(db, s);
}

int bisect_db__param_get(struct bisect_db *db, const char *key, char **ret)
{
	sqlite3_stmt *s;
	int rc;

	if (prep(db, "SELECT value FROM bisect_param WHERE key = ?", &s) < 0)
		return -EIO;
	sql_bind_text(s, 1, key);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*ret = xstrdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? -ENOENT : -EIO;
}

int bisect_db__step_begin(struct bisect_db *db, const char *role, const char *commit,
			  const char *subject, int64_t *ret_id, int *ret_ord)
{
	sqlite3_stmt *s;
	int rc;

	if (prep(db, "INSERT INTO bisect_step (ord, role, commit_sha, subject) VALUES "
		     "((SELECT COALESCE(MAX(ord), 0) + 1 FROM bisect_step), ?, ?, ?) "
		     "RETURNING id, ord", &s) < 0)
		return -EIO;
	sql_bind_text(s, 1, role);
	sql_bind_text(s, 2, commit);
	sql_bind_text(s, 3, subject);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*ret_id = sqlite3_column_int64(s, 0);
		*ret_ord = sqlite3_column_int(s, 1);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return sqlite3_errcode(db->db) == SQLITE_CONSTRAINT ? -EINVAL : -EIO;
	return 0;
}

/* Values as text: space separated, exact (%.17g); NULL for none. */
static char *vals_text(const double *v, size_t n)
{
	char *t = NULL;
	size_t len = 0;
	FILE *f;

	if (!n)
		return NULL;
	f = open_memstream(&t, &len);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%.17g", i ? " " : "", v[i]);
	fclose(f);
	return t;
}

static size_t vals_parse(const char *p, double **ret)
{
	double *v = NULL;
	size_t n = 0;

	while (p && *p) {
		char *end;
		double x = strtod(p, &end);

		if (end == p)
			break;
		v = xrealloc(v, n + 1, sizeof(*v));
		v[n++] = x;
		p = end;
	}
	*ret = v;
	return n;
}

int bisect_db__step_finish(struct bisect_db *db, const struct bisect_step *st)
{
	_cleanup_free_ char *vals = vals_text(st->vals, st->n);
	_cleanup_free_ char *good = vals_text(st->good_vals, st->ngood);
	sqlite3_stmt *s;
	int rc;

	if (prep(db, "UPDATE bisect_step SET finished = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),"
		     " build_key = ?, campaigns = ?, n = ?, vals = ?, good_vals = ?, mean = ?,"
		     " good_mean = ?, change = ?, ci_lo = ?, ci_hi = ?, threshold = ?, decision = ?,"
		     " reason = ? WHERE id = ?", &s) < 0)
		return -EIO;
	sql_bind_text(s, 1, st->build_key);
	sql_bind_text(s, 2, st->campaigns);
	sqlite3_bind_int64(s, 3, (int64_t)st->n);
	sql_bind_text(s, 4, vals);
	sql_bind_text(s, 5, good);
	if (st->j) {
		sql_bind_real(s, 6, st->j->mean);
		sql_bind_real(s, 7, st->j->mean_good);
		sql_bind_real(s, 8, st->j->worse);
		sql_bind_real(s, 9, st->j->lo);
		sql_bind_real(s, 10, st->j->hi);
	} else {
		double m = 0;

		for (size_t i = 0; i < st->n; i++)
			m += st->vals[i];
		sql_bind_real(s, 6, st->n ? m / (double)st->n : NAN);
		for (int i = 7; i <= 10; i++)
			sqlite3_bind_null(s, i);
	}
	sql_bind_real(s, 11, st->threshold);
	sql_bind_text(s, 12, st->decision);
	sql_bind_text(s, 13, st->reason);
	sqlite3_bind_int64(s, 14, st->id);
	rc = done(db, s);
	if (rc == 0 && sqlite3_changes(db->db) != 1)
		return -ENOENT;
	return rc;
}

int bisect_db__step_log(struct bisect_db *db, int64_t id, const char *log, size_t len)
{
	sqlite3_stmt *s;

	if (prep(db, "UPDATE bisect_step SET log = ? WHERE id = ?", &s) < 0)
		return -EIO;
	sqlite3_bind_text(s, 1, log, (int)len, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, id);
	return done(db, s);
}

int bisect_db__values(struct bisect_db *db, int64_t id, double **ret_vals, size_t *ret_n,
		      double **ret_good, size_t *ret_ngood)
{
	sqlite3_stmt *s;
	int rc;

	if (prep(db, "SELECT vals, good_vals FROM bisect_step WHERE id = ?", &s) < 0)
		return -EIO;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*ret_n = vals_parse((const char *)sqlite3_column_text(s, 0), ret_vals);
		*ret_ngood = vals_parse((const char *)sqlite3_column_text(s, 1), ret_good);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? -ENOENT : -EIO;
}

int bisect_db__print(struct bisect_db *db, FILE *f)
{
	sqlite3_stmt *s;
	int rc;

	if (prep(db, "SELECT ord, role, substr(commit_sha, 1, 12), COALESCE(subject, ''),"
		     " COALESCE(n, 0), mean, change, ci_lo, ci_hi, COALESCE(decision, 'running'),"
		     " COALESCE(reason, '') FROM bisect_step ORDER BY ord", &s) < 0)
		return -EIO;
	fprintf(f, "%-3s %-5s %-12s %3s %12s %9s %21s  %-8s %s\n", "#", "role", "commit", "n",
		"mean", "change", "95% interval", "decision", "subject");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		char mean[32] = "-", change[32] = "-", ci[48] = "-", subj[48];

		if (sqlite3_column_type(s, 5) != SQLITE_NULL)
			snprintf(mean, sizeof(mean), "%.4g", sqlite3_column_double(s, 5));
		if (sqlite3_column_type(s, 6) != SQLITE_NULL)
			snprintf(change, sizeof(change), "%+.1f%%", 100 * sqlite3_column_double(s, 6));
		if (sqlite3_column_type(s, 7) != SQLITE_NULL)
			snprintf(ci, sizeof(ci), "[%+.1f%%, %+.1f%%]",
				 100 * sqlite3_column_double(s, 7), 100 * sqlite3_column_double(s, 8));
		snprintf(subj, sizeof(subj), "%s", (const char *)sqlite3_column_text(s, 3));
		fprintf(f, "%-3d %-5s %-12s %3d %12s %9s %21s  %-8s %s\n", sqlite3_column_int(s, 0),
			(const char *)sqlite3_column_text(s, 1),
			(const char *)sqlite3_column_text(s, 2), sqlite3_column_int(s, 4), mean,
			change, ci, (const char *)sqlite3_column_text(s, 9), subj);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/* The rule's fields as parameters: one row each, so none is saved and not loaded. */
static const struct {
	const char *key;
	size_t off;
	bool integer;
} rule_params[] = {
	{ "rule.min_effect", offsetof(struct bisect_rule, min_effect), false },
	{ "rule.alpha", offsetof(struct bisect_rule, alpha), false },
	{ "rule.level", offsetof(struct bisect_rule, level), false },
	{ "rule.seed", offsetof(struct bisect_rule, seed), true },
	{ "rule.resamples", offsetof(struct bisect_rule, resamples), true },
};

int bisect_db__rule_save(struct bisect_db *db, const struct bisect_rule *rule)
{
	for (size_t i = 0; i < ARRAY_SIZE(rule_params); i++) {
		const char *f = (const char *)rule + rule_params[i].off;
		/* f is the field at its offsetof(): not a reinterpretation of bytes */
		_cleanup_free_ char *v =
			/* cppcheck-suppress invalidPointerCast */
			!rule_params[i].integer ? xasprintf("%.17g", *(const double *)f)
			: !strcmp(rule_params[i].key, "rule.seed")
				? xasprintf("%llu", (unsigned long long)*(const uint64_t *)f)
				: xasprintf("%u", *(const unsigned *)f);

		if (bisect_db__param_set(db, rule_params[i].key, v) < 0)
			return -EIO;
	}
	return 0;
}

int bisect_db__rule_load(struct bisect_db *db, struct bisect_rule *ret, char **ret_err)
{
	struct bisect_rule r = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(rule_params); i++) {
		_cleanup_free_ char *v = NULL;
		char *f = (char *)&r + rule_params[i].off, *end;
		int rc = bisect_db__param_get(db, rule_params[i].key, &v);

		if (rc < 0) {
			*ret_err = xasprintf("no %s", rule_params[i].key);
			return rc;
		}
		errno = 0;
		if (!rule_params[i].integer)
			*(double *)f = strtod(v, &end); // cppcheck-suppress invalidPointerCast
		else if (!strcmp(rule_params[i].key, "rule.seed"))
			*(uint64_t *)f = strtoull(v, &end, 10);
		else
			*(unsigned *)f = (unsigned)strtoul(v, &end, 10);
		if (errno || end == v || *end) {
			*ret_err = xasprintf("bad %s '%s'", rule_params[i].key, v);
			return -EINVAL;
		}
	}
	if (!(r.alpha > 0 && r.alpha < 1) || !(r.level > 0 && r.level < 1) || !r.resamples) {
		*ret_err = xasprintf("rule out of range: alpha %g, level %g, %u resamples", r.alpha,
				     r.level, r.resamples);
		return -EINVAL;
	}
	*ret = r;
	return 0;
}

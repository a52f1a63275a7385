// SPDX-License-Identifier: GPL-2.0
#include "report.h"
#include "compare.h"
#include "store.h"
#include "util.h"

#include <sqlite3.h>
#include <string.h>

static const char *col(sqlite3_stmt *q, int i)
{
	const char *s = (const char *)sqlite3_column_text(q, i);

	return s ? s : "";
}

static void runs_table(sqlite3 *db, FILE *f)
{
	sqlite3_stmt *q = NULL;

	fprintf(f, "## Runs\n\n```\n%-4s %-12s %-4s %-16s %-7s %-5s %s\n", "run", "variant", "rep",
		"status", "samples", "accel", "reason");
	if (sqlite3_prepare_v2(db,
			       "SELECT r.id, v.name, r.rep, r.status, "
			       " (SELECT COUNT(*) FROM sample WHERE run_id = r.id), "
			       " (SELECT value FROM run_prov WHERE run_id = r.id AND key = 'accel'), "
			       " r.reason FROM run r JOIN variant v ON v.id = r.variant_id "
			       "ORDER BY r.ord",
			       -1, &q, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(q) == SQLITE_ROW)
		fprintf(f, "%-4s %-12s %-4d %-16s %-7s %-5s %s\n", col(q, 0), col(q, 1),
			sqlite3_column_int(q, 2) + 1, col(q, 3), col(q, 4), col(q, 5), col(q, 6));
	sqlite3_finalize(q);
	fprintf(f, "```\n\n");
}

static void provenance(sqlite3 *db, FILE *f)
{
	static const char *const keys[] = { "kernel.release", "kernel.sha256", "kernel.source",
					    "kernel.config_sha256", "guest.image_sha256",
					    "cmdline", "lru.enabled", "accel", "accel.why",
					    "qemu.argv", "host", "lrubench.version" };
	sqlite3_stmt *q = NULL;

	fprintf(f, "## Provenance (first run of each variant)\n\n");
	if (sqlite3_prepare_v2(db,
			       "SELECT v.name, p.key, p.value FROM variant v "
			       "JOIN run_prov p ON p.run_id = (SELECT MIN(id) FROM run "
			       "  WHERE variant_id = v.id) "
			       "WHERE p.key = ? ORDER BY v.id",
			       -1, &q, NULL) != SQLITE_OK)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		sqlite3_reset(q);
		sqlite3_bind_text(q, 1, keys[i], -1, SQLITE_STATIC);
		while (sqlite3_step(q) == SQLITE_ROW)
			fprintf(f, "- %s, `%s`: `%s`\n", col(q, 0), col(q, 1), col(q, 2));
	}
	sqlite3_finalize(q);
	fprintf(f, "\n");
}

int report_write(struct store *st, const char *db_path, const char *dir)
{
	_cleanup_free_ char *md = xasprintf("%s/report.md", dir);
	_cleanup_free_ char *campaign = NULL, *version = NULL;
	_cleanup_fclose_ FILE *f = NULL;
	sqlite3 *db = store__db(st);
	int r;

	r = mkdir_p(dir);
	if (r < 0)
		return r;
	f = fopen(md, "w");
	if (!f)
		return -errno;
	store__meta_get(st, "campaign", &campaign);
	store__meta_get(st, "lrubench.version", &version);
	fprintf(f, "# lrubench campaign %s\n\n", campaign ? campaign : "?");
	fprintf(f, "Database: `%s`. Produced by lrubench %s.\n\n", db_path,
		version ? version : LRUBENCH_VERSION);
	fprintf(f, "## Comparison\n\n```\n");
	r = compare_print(st, f, NULL);
	fprintf(f, "```\n\n");
	runs_table(db, f);
	provenance(db, f);
	if (fflush(f) != 0)
		return -errno;
	return r;
}

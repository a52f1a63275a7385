// SPDX-License-Identifier: GPL-2.0
/* What an export reads from a campaign store: see store-export.h. */
#include "store-export.h"
#include "store-priv.h"

#include <errno.h>
#include <string.h>

static struct store_export_kernel *find(struct store_export_kernel *k, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(k[i].variant, name))
			return &k[i];
	return NULL;
}

int store__export_kernels(struct store *st, struct store_export_kernel **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL, *p = NULL;
	struct store_export_kernel *k = NULL;
	size_t n = 0;
	int r = store__prepare(
		st,
		"SELECT v.name, COUNT(r.id), "
		" COALESCE(SUM(r.status = 'completed' OR EXISTS (SELECT 1 FROM run_prov b "
		"  WHERE b.run_id = r.id AND b.key = 'boot_to_agent_s' AND b.value != 'never')), 0), "
		" COALESCE(SUM(r.status = 'failed-kernel'), 0) "
		"FROM variant v LEFT JOIN run r ON r.variant_id = v.id GROUP BY v.id ORDER BY v.id",
		&q);

	if (r < 0)
		return r;
	while (sqlite3_step(q) == SQLITE_ROW) {
		k = xrealloc(k, n + 1, sizeof(*k));
		k[n] = (struct store_export_kernel){
			.variant = sql_col_dup(q, 0),
			.runs = sqlite3_column_int64(q, 1),
			.booted = sqlite3_column_int64(q, 2),
			.failed_kernel = sqlite3_column_int64(q, 3),
		};
		n++;
	}
	/* each kernel.* key's value from the first run (by id) of the variant that recorded it */
	r = store__prepare(st,
			   "SELECT v.name, p.key, p.value FROM variant v JOIN run r ON "
			   "r.variant_id = v.id JOIN run_prov p ON p.run_id = r.id "
			   "WHERE p.key LIKE 'kernel.%' AND r.id = (SELECT MIN(r2.id) FROM run r2 "
			   " JOIN run_prov p2 ON p2.run_id = r2.id WHERE r2.variant_id = v.id "
			   " AND p2.key = p.key) ORDER BY v.id, p.key",
			   &p);
	if (r < 0) {
		store_export_kernels__free(k, n);
		return r;
	}
	while (sqlite3_step(p) == SQLITE_ROW) {
		struct store_export_kernel *e = find(k, n, sql_col_text(p, 0));

		if (!e)
			continue;
		e->key = xrealloc(e->key, e->nkeys + 1, sizeof(*e->key));
		e->value = xrealloc(e->value, e->nkeys + 1, sizeof(*e->value));
		e->key[e->nkeys] = sql_col_dup(p, 1);
		e->value[e->nkeys] = sql_col_dup(p, 2);
		e->nkeys++;
	}
	*ret = k;
	*ret_n = n;
	return 0;
}

void store_export_kernels__free(struct store_export_kernel *k, size_t n)
{
	for (size_t i = 0; k && i < n; i++) {
		for (size_t j = 0; j < k[i].nkeys; j++) {
			free(k[i].key[j]);
			free(k[i].value[j]);
		}
		free(k[i].key);
		free(k[i].value);
		free(k[i].variant);
	}
	free(k);
}

const char *store_export_kernel__get(const struct store_export_kernel *k, const char *key)
{
	for (size_t i = 0; k && i < k->nkeys; i++)
		if (!strcmp(k->key[i], key))
			return *k->value[i] ? k->value[i] : NULL;
	return NULL;
}

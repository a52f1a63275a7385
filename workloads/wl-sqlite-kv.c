// SPDX-License-Identifier: GPL-2.0
/*
 * sqlite-kv: a key-value store on SQLite (libsqlite3, linked in
 * statically) larger than its memcg: point lookups and updates of
 * Zipf-distributed keys, one statement per operation, in WAL mode with
 * synchronous=NORMAL (commits do not wait for the disk; checkpoints do).
 * SQLite's own page cache is kept small (cache) so that the kernel's page
 * cache is what holds the database; with mmap=on SQLite reads it through a
 * mapping instead of pread().
 *
 * The table is built first (populate_s; without a journal, since it is not
 * measured), in batches of rows, and its cache dropped; the measured phase
 * then runs for ops statements or a duration.
 */
#include "wl-def.h"

struct opts {
	uint64_t size;
	uint64_t value_size;
	double theta;
	double read_ratio;
	uint64_t cache;
	const char *mmap_mode;
	uint64_t nops;
	uint64_t duration_ms;
	uint64_t seed;
	const char *dir;
};

WORKLOAD_DEF(sqlite_kv) = {
	WL_NAME("sqlite-kv"),
	.claims = "C7",
	.decides = "throughput read_bytes",
	.description = "SQLite (linked in) point lookups and updates of Zipf keys on a database "
		       "larger than its memcg; one op = one statement",
	.params = (const struct wl_param[]){
		PARAM_SIZE("size", size, NULL, "database size (bytes, or Nx memory.max)"),
		PARAM_SIZE("value-size", value_size, "1000", "bytes per value"),
		PARAM_FRACTION("theta", theta, "0.99", 0, 0.9999, "Zipf skew of keys"),
		PARAM_FRACTION("read-ratio", read_ratio, "0.9", 0, 1,
			       "fraction of lookups (the rest update)"),
		PARAM_SIZE("cache", cache, "2M", "SQLite's own page cache"),
		PARAM_CHOICE("mmap", mmap_mode, "off", "off|on", "read the database through mmap"),
		PARAM_U64("ops", nops, NULL, "statements in the measured phase"),
		PARAM_DURATION("duration", duration_ms, NULL, "or a time limit for it"),
		PARAM_SEED(seed),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("rows", "rows", "none", "rows in the table"),
		METRIC("db_bytes", "bytes", "none", "database file size"),
		METRIC("populate_s", "s", "lower", "time to build the database"),
		METRIC("read_bytes", "bytes", "lower",
		       "bytes read from the disk in the measured phase"),
		METRIC("majflt", "faults", "lower", "major faults in the measured phase"),
		{},
	},
	WL_SCRATCH(dir),
};

#ifndef WL_DEF_ONLY /* the host compiles the definition above alone, for its catalogue */
#include "util.h"
#include "wl-opts.h"
#include "wl-sys.h"
#include "wl.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#define ROW_OVERHEAD 16 /* bytes per row besides the value: key, header, cell pointer */

static int exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "wl-sqlite-kv: %s: %s\n", sql, msg ? msg : "?");
		sqlite3_free(msg);
		return -EIO;
	}
	return 0;
}

static int prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK) {
		fprintf(stderr, "wl-sqlite-kv: %s: %s\n", sql, sqlite3_errmsg(db));
		return -EIO;
	}
	return 0;
}

static void fill(uint64_t *buf, size_t words, struct wl_rng *rng)
{
	for (size_t i = 0; i < words; i++)
		buf[i] = wl_rng_next(rng);
}

static int populate(sqlite3 *db, uint64_t rows, size_t value_size, struct wl_rng *rng)
{
	_cleanup_free_ uint64_t *val = xcalloc(value_size / 8 + 1, 8);
	sqlite3_stmt *ins = NULL;
	int r = 0;

	if (exec(db, "CREATE TABLE kv(k INTEGER PRIMARY KEY, v BLOB NOT NULL)") < 0 ||
	    prepare(db, "INSERT INTO kv(k, v) VALUES(?, ?)", &ins) < 0)
		return -EIO;
	for (uint64_t k = 0; k < rows && r == 0; k++) {
		if (k % 10000 == 0)
			r = exec(db, "BEGIN");
		fill(val, value_size / 8 + 1, rng);
		sqlite3_bind_int64(ins, 1, (sqlite3_int64)k);
		sqlite3_bind_blob(ins, 2, val, (int)value_size, SQLITE_STATIC);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			fprintf(stderr, "wl-sqlite-kv: insert: %s\n", sqlite3_errmsg(db));
			r = -EIO;
		}
		sqlite3_reset(ins);
		if (r == 0 && (k % 10000 == 9999 || k + 1 == rows))
			r = exec(db, "COMMIT");
	}
	sqlite3_finalize(ins);
	if (r == 0)
		r = exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL");
	return r;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	_cleanup_free_ char *path = NULL, *pragmas = NULL;
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	_cleanup_free_ uint64_t *val = NULL;
	sqlite3 *db = NULL;
	sqlite3_stmt *get = NULL, *put = NULL;
	struct wl_rng rng;
	struct wl_zipf zipf;
	struct rusage ru0, ru1;
	struct stat sb;
	uint64_t rows, ops = 0, t0, t1, deadline, pop0, pop1;
	int r;

	r = wl_opts_parse(&wl_def_sqlite_kv, argc, argv, &o);
	if (r != 0)
		return r < 0 ? 2 : 0;
	rows = o.size / (o.value_size + ROW_OVERHEAD);
	if (!o.value_size || o.value_size > (1 << 20) || wl_zipf_init(&zipf, rows, o.theta) < 0 ||
	    (!o.nops && !o.duration_ms)) {
		fprintf(stderr, "wl-sqlite-kv: need 2 rows or more (size / value-size), values up "
				"to 1M, and ops or a duration\n");
		return 2;
	}
	r = wl_dir_make(o.dir);
	if (r < 0) {
		fprintf(stderr, "wl-sqlite-kv: mkdir %s: %s\n", o.dir, strerror(-r));
		return 1;
	}
	path = xasprintf("%s/kv.db", o.dir);
	unlink(path);
	if (sqlite3_open(path, &db) != SQLITE_OK) {
		fprintf(stderr, "wl-sqlite-kv: %s: %s\n", path, sqlite3_errmsg(db));
		return 1;
	}
	/* The build is not measured: no journal for it, WAL from the measured phase on. */
	pragmas = xasprintf("PRAGMA page_size=4096; PRAGMA journal_mode=OFF; "
			    "PRAGMA synchronous=OFF; PRAGMA cache_size=-%llu; "
			    "PRAGMA mmap_size=%llu",
			    (unsigned long long)(o.cache >> 10),
			    !strcmp(o.mmap_mode, "on") ? (unsigned long long)o.size * 2 : 0ULL);
	if (exec(db, pragmas) < 0)
		return 1;
	wl_rng_seed(&rng, o.seed);
	pop0 = wl_now_ns();
	if (populate(db, rows, o.value_size, &rng) < 0)
		return 1;
	pop1 = wl_now_ns();
	{
		/* Start cold: the database's pages out of the page cache. */
		_cleanup_close_ int fd = open(path, O_RDWR | O_CLOEXEC);

		if (fd < 0 || fstat(fd, &sb) < 0 || wl_file_drop(fd) < 0) {
			fprintf(stderr, "wl-sqlite-kv: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	if (prepare(db, "SELECT v FROM kv WHERE k = ?", &get) < 0 ||
	    prepare(db, "UPDATE kv SET v = ? WHERE k = ?", &put) < 0)
		return 1;
	val = xcalloc(o.value_size / 8 + 1, 8);
	wl_hist_init(lat);
	getrusage(RUSAGE_SELF, &ru0);
	t0 = wl_now_ns();
	deadline = o.duration_ms ? t0 + o.duration_ms * 1000000 : UINT64_MAX;
	for (;;) {
		uint64_t rank = wl_zipf_next(&zipf, &rng);
		/* Ranks scattered over the keys, hot keys not packed together. */
		sqlite3_int64 k =
			(sqlite3_int64)((rank * 0x9e3779b97f4a7c15ULL % rows + rows / 3) % rows);
		bool read = wl_rng_double(&rng) < o.read_ratio;
		sqlite3_stmt *st = read ? get : put;
		uint64_t a, b;
		int rc;

		if (!read) {
			val[0] = wl_rng_next(&rng);
			sqlite3_bind_blob(put, 1, val, (int)o.value_size, SQLITE_STATIC);
			sqlite3_bind_int64(put, 2, k);
		} else {
			sqlite3_bind_int64(get, 1, k);
		}
		a = wl_now_ns();
		rc = sqlite3_step(st);
		b = wl_now_ns();
		if (rc != (read ? SQLITE_ROW : SQLITE_DONE)) {
			fprintf(stderr, "wl-sqlite-kv: %s of key %lld: %s\n",
				read ? "lookup" : "update", (long long)k, sqlite3_errmsg(db));
			return 1;
		}
		sqlite3_reset(st);
		wl_hist_add(lat, b - a);
		ops++;
		if (o.nops && ops >= o.nops)
			break;
		if ((ops & 63) == 0 && b >= deadline)
			break;
	}
	t1 = wl_now_ns();
	getrusage(RUSAGE_SELF, &ru1);
	sqlite3_finalize(get);
	sqlite3_finalize(put);
	sqlite3_close(db);

	wl_result_common(ops, t1 - t0, lat);
	wl_result("rows", (double)rows);
	wl_result("db_bytes", (double)sb.st_size);
	wl_result("populate_s", (double)(pop1 - pop0) / 1e9);
	wl_result("read_bytes", (double)(ru1.ru_inblock - ru0.ru_inblock) * 512);
	wl_result("majflt", (double)(ru1.ru_majflt - ru0.ru_majflt));
	return 0;
}
#endif /* WL_DEF_ONLY */

// SPDX-License-Identifier: GPL-2.0
/*
 * The metric dictionary and the cross-LRU comparability table.
 *
 * The known metrics are the rows of the sampled sources (sources_table(),
 * harness/common/source-NAME.c): a name is "SOURCE:KEY", and a trailing '*'
 * matches any key with that prefix. An exact row wins over a prefix row, a
 * longer prefix over a shorter one. Names no row matches get their source's
 * fallback, whose name matches source names the same way.
 *
 * The comparability table below was read in linux-source-6.1 (6.1.192) and
 * 6.12 (6.12.118): what each reclaim counter counts under each LRU.
 */
#include "metrics.h"

#include "util.h"

#include <limits.h>
#include <string.h>

static const struct metric_info unknown_source = { "*", "value", METRIC_GAUGE, BETTER_NONE,
						   "value of an unknown source" };

/*
 * How well pattern matches name: -1 for no match, a larger number for a
 * closer match (exact beats any prefix, a longer prefix a shorter one).
 */
static long match(const char *pattern, const char *name)
{
	size_t plen = strlen(pattern);

	if (plen && pattern[plen - 1] == '*')
		return strncmp(pattern, name, plen - 1) ? -1 : (long)(plen - 1);
	return strcmp(pattern, name) ? -1 : LONG_MAX;
}

/* Raise *best to a row of rows[0..n) that matches name better than *best_score
 * (on a tie the earlier row stays). */
static void best_row(const struct metric_info *rows, size_t n, const char *name,
		     const struct metric_info **best, long *best_score)
{
	for (size_t i = 0; i < n; i++) {
		long sc;

		if (!rows[i].name)
			continue;
		sc = match(rows[i].name, name);
		if (sc > *best_score) {
			*best_score = sc;
			*best = &rows[i];
		}
	}
}

int metric__lookup_in(const struct source *const *sources, size_t n, const char *name,
		      struct metric_info *ret)
{
	const struct metric_info *row = NULL;
	long score = -1;
	const char *colon;
	char source[128];
	size_t slen;

	if (!name || !(colon = strchr(name, ':')) || colon == name || !colon[1])
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		best_row(sources[i]->metrics, sources[i]->n_metrics, name, &row, &score);
	if (!row) {
		slen = (size_t)(colon - name);
		if (slen >= sizeof(source))
			slen = sizeof(source) - 1;
		memcpy(source, name, slen);
		source[slen] = '\0';
		for (size_t i = 0; i < n; i++)
			best_row(&sources[i]->fallback, 1, source, &row, &score);
		if (!row)
			row = &unknown_source;
	}
	*ret = *row;
	ret->name = name;
	return 0;
}

int metric__lookup(const char *name, struct metric_info *ret)
{
	size_t n;
	const struct source *const *sources = sources_table(&n);

	return metric__lookup_in(sources, n, name, ret);
}

const char *metric_kind_name(enum metric_kind kind)
{
	return kind == METRIC_GAUGE ? "gauge" : "counter";
}

const char *metric_better_name(enum metric_better better)
{
	switch (better) {
	case BETTER_HIGHER:
		return "higher";
	case BETTER_LOWER:
		return "lower";
	default:
		return "none";
	}
}

#define KV(a, b, c) { .major = (a), .minor = (b), .sub = (c) }

static const char r_refault[] =
	"under MGLRU a refault is counted only while the generation the folio was evicted from is "
	"still the oldest one (lru_gen_refault() in 6.1 mm/workingset.c compares the shadow "
	"entry's sequence with min_seq), so it is undercounted; compare pgmajfault, pgpgin, pswpin "
	"and throughput instead";
static const char r_restore[] =
	"under MGLRU counted behind the same oldest-generation check as refaults, for folios that "
	"refaulted through page tables or had the most references (lru_gen_refault() in 6.1 "
	"mm/workingset.c); classic LRU counts refaults of folios that were active when evicted";
static const char r_activate[] =
	"classic LRU counts refaulting folios activated because their refault distance fits the "
	"workingset (workingset_refault() in 6.1 mm/workingset.c); MGLRU counts folios that "
	"eviction found protected by their access tier and moved to a younger generation "
	"(sort_folio() in 6.1 mm/vmscan.c), which are not refaults";
static const char r_pgscan[] =
	"MGLRU counts only the folios it isolates; folios it re-sorts to younger generations go to "
	"pgrefill (scan_folios()), while classic LRU counts every folio taken "
	"from the inactive list (shrink_inactive_list()); scan counts and scan efficiency "
	"(pgsteal/pgscan) are not comparable";
static const char r_pgrefill[] =
	"classic LRU counts folios scanned on the active list (shrink_active_list()); MGLRU has no active list and counts folios that eviction re-sorted to "
	"younger generations (scan_folios())";
static const char r_pgactivate[] =
	"classic LRU counts promotions to the active list (folio_mark_accessed() in 6.1 mm/swap.c) "
	"and folios reclaim keeps (shrink_folio_list() in mm/vmscan.c); under MGLRU "
	"folio_mark_accessed() only raises the access tier, so pgactivate counts folios reclaim "
	"keeps and young folios lru_gen_look_around() moves to the youngest generation";
static const char r_pgdeactivate[] =
	"classic LRU counts folios reclaim moves from the active to the inactive list "
	"(shrink_active_list() in 6.1 mm/vmscan.c); MGLRU never runs shrink_active_list(), so it "
	"counts only madvise/DAMON deactivations and invalidated file folios (mm/swap.c)";
static const char r_pgrotated[] =
	"counted by the same code (lru_move_tail_fn() in 6.1 mm/swap.c), but MGLRU puts dirty "
	"folios under writeback in the second youngest generation and its evict_folios() "
	"(mm/vmscan.c) reclaims at once clean folios that missed folio_rotate_reclaimable(), so "
	"different folios are rotated";
static const char r_active_size[] =
	"under MGLRU active/inactive sizes are derived: the two youngest generations count as "
	"active (lru_gen_is_active()), not an active list";

static const char r_refault_612[] =
	"comparable: lru_gen_refault() counts every refault whose eviction lruvec is the folio's "
	"(the 6.1 oldest-generation check now only gates workingset_activate/restore), as "
	"workingset_refault() does for classic LRU";
static const char r_restore_612[] =
	"under MGLRU counted only for refaults from the oldest generation (lru_gen_test_recent() "
	"compares the shadow's sequence with min_seq) that came through page tables or had the "
	"most references; classic LRU counts refaults of folios active when evicted";
static const char r_activate_612[] =
	"under MGLRU counts refaults from the oldest generation (lru_gen_test_recent() vs min_seq); "
	"classic LRU counts refaults whose refault distance fits the workingset "
	"(workingset_test_recent())";

/*
 * One row per metric pattern and kernel range, each with the source it was
 * read from. Ranges are closed to a series ("6.1 to 6.1.y": until 6.2) because
 * reclaim changes between series: a kernel outside every range of a pattern
 * gets "not known to be comparable", never a verdict.
 */
#define SRC_61 "linux-source-6.1 (6.1.192) "
#define SRC_612 "linux-source-6.12 (6.12.118) "
static const struct comparability {
	const char *pattern;
	struct kernel_version from, until; /* until exclusive */
	const char *reason;		   /* why; the text compare prints */
	const char *source;		   /* file and function it was read from */
	bool same;			   /* read and found comparable in this range */
} comparability_table[] = {
	{ "vmstat:workingset_refault_*", KV(6, 1, 0), KV(6, 2, 0), r_refault,
	  SRC_61 "mm/workingset.c lru_gen_refault()", false },
	{ "memory.stat:workingset_refault_*", KV(6, 1, 0), KV(6, 2, 0), r_refault,
	  SRC_61 "mm/workingset.c lru_gen_refault()", false },
	{ "vmstat:workingset_restore_*", KV(6, 1, 0), KV(6, 2, 0), r_restore,
	  SRC_61 "mm/workingset.c lru_gen_refault()", false },
	{ "memory.stat:workingset_restore_*", KV(6, 1, 0), KV(6, 2, 0), r_restore,
	  SRC_61 "mm/workingset.c lru_gen_refault()", false },
	{ "vmstat:workingset_activate_*", KV(6, 1, 0), KV(6, 2, 0), r_activate,
	  SRC_61 "mm/workingset.c workingset_refault(), mm/vmscan.c sort_folio()", false },
	{ "memory.stat:workingset_activate_*", KV(6, 1, 0), KV(6, 2, 0), r_activate,
	  SRC_61 "mm/workingset.c workingset_refault(), mm/vmscan.c sort_folio()", false },
	{ "vmstat:pgscan_kswapd", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgscan_direct", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgscan_anon", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgscan_file", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_kswapd", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_direct", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_anon", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_file", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgrefill", KV(6, 1, 0), KV(6, 2, 0), r_pgrefill,
	  SRC_61 "mm/vmscan.c shrink_active_list(), scan_folios()", false },
	{ "memory.stat:pgrefill", KV(6, 1, 0), KV(6, 2, 0), r_pgrefill,
	  SRC_61 "mm/vmscan.c shrink_active_list(), scan_folios()", false },
	{ "vmstat:pgactivate", KV(6, 1, 0), KV(6, 2, 0), r_pgactivate,
	  SRC_61 "mm/swap.c folio_mark_accessed(), mm/vmscan.c lru_gen_look_around()", false },
	{ "memory.stat:pgactivate", KV(6, 1, 0), KV(6, 2, 0), r_pgactivate,
	  SRC_61 "mm/swap.c folio_mark_accessed(), mm/vmscan.c lru_gen_look_around()", false },
	{ "vmstat:pgdeactivate", KV(6, 1, 0), KV(6, 2, 0), r_pgdeactivate,
	  SRC_61 "mm/vmscan.c shrink_active_list(), mm/swap.c", false },
	{ "memory.stat:pgdeactivate", KV(6, 1, 0), KV(6, 2, 0), r_pgdeactivate,
	  SRC_61 "mm/vmscan.c shrink_active_list(), mm/swap.c", false },
	{ "vmstat:pgrotated", KV(6, 1, 0), KV(6, 2, 0), r_pgrotated,
	  SRC_61 "mm/swap.c lru_move_tail_fn(), mm/vmscan.c evict_folios()", false },
	{ "vmstat:nr_active_*", KV(6, 1, 0), KV(6, 2, 0), r_active_size,
	  SRC_61 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "vmstat:nr_inactive_*", KV(6, 1, 0), KV(6, 2, 0), r_active_size,
	  SRC_61 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "vmstat:nr_zone_active_*", KV(6, 1, 0), KV(6, 2, 0), r_active_size,
	  SRC_61 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "vmstat:nr_zone_inactive_*", KV(6, 1, 0), KV(6, 2, 0), r_active_size,
	  SRC_61 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "memory.stat:active_*", KV(6, 1, 0), KV(6, 2, 0), r_active_size,
	  SRC_61 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "memory.stat:inactive_*", KV(6, 1, 0), KV(6, 2, 0), r_active_size,
	  SRC_61 "include/linux/mm_inline.h lru_gen_is_active()", false },
	/* 6.12 to 6.12.y; pgactivate, pgdeactivate, pgrotated not read yet: not known */
	{ "vmstat:workingset_refault_*", KV(6, 12, 0), KV(6, 13, 0), r_refault_612,
	  SRC_612 "mm/workingset.c lru_gen_refault(), workingset_refault()", true },
	{ "memory.stat:workingset_refault_*", KV(6, 12, 0), KV(6, 13, 0), r_refault_612,
	  SRC_612 "mm/workingset.c lru_gen_refault(), workingset_refault()", true },
	{ "vmstat:workingset_restore_*", KV(6, 12, 0), KV(6, 13, 0), r_restore_612,
	  SRC_612 "mm/workingset.c lru_gen_refault(), lru_gen_test_recent()", false },
	{ "memory.stat:workingset_restore_*", KV(6, 12, 0), KV(6, 13, 0), r_restore_612,
	  SRC_612 "mm/workingset.c lru_gen_refault(), lru_gen_test_recent()", false },
	{ "vmstat:workingset_activate_*", KV(6, 12, 0), KV(6, 13, 0), r_activate_612,
	  SRC_612 "mm/workingset.c lru_gen_refault(), workingset_refault()", false },
	{ "memory.stat:workingset_activate_*", KV(6, 12, 0), KV(6, 13, 0), r_activate_612,
	  SRC_612 "mm/workingset.c lru_gen_refault(), workingset_refault()", false },
	{ "vmstat:pgscan_kswapd", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgscan_direct", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgscan_anon", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgscan_file", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_kswapd", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_direct", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_anon", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_file", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgrefill", KV(6, 12, 0), KV(6, 13, 0), r_pgrefill,
	  SRC_612 "mm/vmscan.c shrink_active_list(), scan_folios()", false },
	{ "memory.stat:pgrefill", KV(6, 12, 0), KV(6, 13, 0), r_pgrefill,
	  SRC_612 "mm/vmscan.c shrink_active_list(), scan_folios()", false },
	{ "vmstat:nr_active_*", KV(6, 12, 0), KV(6, 13, 0), r_active_size,
	  SRC_612 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "vmstat:nr_inactive_*", KV(6, 12, 0), KV(6, 13, 0), r_active_size,
	  SRC_612 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "vmstat:nr_zone_active_*", KV(6, 12, 0), KV(6, 13, 0), r_active_size,
	  SRC_612 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "vmstat:nr_zone_inactive_*", KV(6, 12, 0), KV(6, 13, 0), r_active_size,
	  SRC_612 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "memory.stat:active_*", KV(6, 12, 0), KV(6, 13, 0), r_active_size,
	  SRC_612 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "memory.stat:inactive_*", KV(6, 12, 0), KV(6, 13, 0), r_active_size,
	  SRC_612 "include/linux/mm_inline.h lru_gen_is_active()", false },
};

static const char r_unknown[] =
	"not known to be comparable: the kernel is outside every range this metric's meaning under "
	"both LRUs was read for (harness/model/metrics.c comparability_table[]); no verdict";

/*
 * The reason and its source in one static text, built once and shared by the
 * rows with the same reason and source (compare lists a reason once, by pointer).
 */
static const char *row_text(size_t i)
{
	static char *text[ARRAY_SIZE(comparability_table)];
	const struct comparability *c = &comparability_table[i];
	size_t first = i;

	for (size_t j = 0; j < i; j++)
		if (comparability_table[j].reason == c->reason &&
		    !strcmp(comparability_table[j].source, c->source)) {
			first = j;
			break;
		}
	if (!text[first])
		text[first] = xasprintf("%s [source: %s]", c->reason, c->source);
	return text[first];
}

bool metric__comparability_known(const char *kernel_release)
{
	struct kernel_version v;

	if (!kernel_release || kernel_version_parse(kernel_release, &v) < 0)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(comparability_table); i++)
		if (kernel_version_in_range(v, comparability_table[i].from,
					    comparability_table[i].until))
			return true;
	return false;
}

bool metric__comparable(const char *name, const char *kernel_release, const char **ret_reason)
{
	struct kernel_version v;
	bool known = kernel_release && kernel_version_parse(kernel_release, &v) == 0;
	bool listed = false;

	if (!name)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(comparability_table); i++) {
		const struct comparability *c = &comparability_table[i];

		if (match(c->pattern, name) < 0)
			continue;
		listed = true;
		if (!known || !kernel_version_in_range(v, c->from, c->until))
			continue;
		if (c->same)
			return true;
		if (ret_reason)
			*ret_reason = row_text(i);
		return false;
	}
	/* a metric whose meaning depends on the LRU, on a kernel no row covers */
	if (listed && ret_reason)
		*ret_reason = r_unknown;
	return !listed;
}

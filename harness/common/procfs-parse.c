// SPDX-License-Identifier: GPL-2.0
/*
 * Pure parsers for /proc and cgroup files (see procfs-parse.h). They work on
 * (pointer, length) slices so the sampler can hand them the buffer it read
 * into without copying or terminating it.
 */
#include "procfs-parse.h"

#include <errno.h>
#include <string.h>

struct slice {
	const char *p;
	size_t n;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Next line of [*pos, end) without its '\n'; false at the end. */
static bool next_line(const char **pos, const char *end, struct slice *ret)
{
	const char *p = *pos, *nl;

	if (p >= end)
		return false;
	nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl)
		nl = end;
	ret->p = p;
	ret->n = (size_t)(nl - p);
	*pos = nl < end ? nl + 1 : end;
	return true;
}

/* Next blank-separated token of a line; false when none is left. */
static bool next_token(struct slice *line, struct slice *ret)
{
	const char *p = line->p, *end = line->p + line->n, *s;

	while (p < end && is_blank(*p))
		p++;
	if (p == end) {
		line->p = end;
		line->n = 0;
		return false;
	}
	s = p;
	while (p < end && !is_blank(*p))
		p++;
	ret->p = s;
	ret->n = (size_t)(p - s);
	line->p = p;
	line->n = (size_t)(end - p);
	return true;
}

/* Skip blanks at the start and the end of a slice. */
static struct slice strip(struct slice s)
{
	while (s.n && is_blank(*s.p)) {
		s.p++;
		s.n--;
	}
	while (s.n && (is_blank(s.p[s.n - 1]) || s.p[s.n - 1] == '\r'))
		s.n--;
	return s;
}

static bool slice_eq(struct slice s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && !memcmp(s.p, lit, n);
}

/* Whole-slice unsigned decimal, no sign, no overflow. */
static bool slice_u64(struct slice s, uint64_t *ret)
{
	uint64_t v = 0;

	if (!s.n || s.n > 20)
		return false;
	for (size_t i = 0; i < s.n; i++) {
		unsigned d = (unsigned)(s.p[i] - '0');

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*ret = v;
	return true;
}

/* Whole-slice signed decimal within int64_t. */
static bool slice_i64(struct slice s, int64_t *ret)
{
	bool neg = s.n && s.p[0] == '-';
	uint64_t v;

	if (neg) {
		s.p++;
		s.n--;
	}
	if (!slice_u64(s, &v))
		return false;
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return false;
		*ret = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		if (v > INT64_MAX)
			return false;
		*ret = (int64_t)v;
	}
	return true;
}

int procfs_parse_flat(const char *buf, size_t len, procfs_kv_fn fn, void *arg, unsigned *ret_bad)
{
	const char *pos = buf, *end = buf + len;
	struct slice line, key, val, extra;
	unsigned bad = 0;
	int r;

	while (next_line(&pos, end, &line)) {
		int64_t v;

		line = strip(line);
		if (!line.n)
			continue;
		if (!next_token(&line, &key) || !next_token(&line, &val) ||
		    next_token(&line, &extra) || !slice_i64(val, &v)) {
			bad++;
			continue;
		}
		r = fn(arg, key.p, key.n, v);
		if (r < 0)
			return r;
	}
	if (ret_bad)
		*ret_bad = bad;
	return 0;
}

int procfs_parse_u64(const char *buf, size_t len, uint64_t *ret)
{
	struct slice s = { buf, len };

	while (s.n && (s.p[s.n - 1] == '\n'))
		s.n--;
	return slice_u64(strip(s), ret) ? 0 : -EINVAL;
}

int procfs_parse_psi(const char *buf, size_t len, struct procfs_psi *ret)
{
	const char *pos = buf, *end = buf + len;
	struct procfs_psi psi = { 0 };
	struct slice line, kind, tok;

	while (next_line(&pos, end, &line)) {
		bool some;
		bool found = false;
		int64_t total = 0;

		if (!next_token(&line, &kind))
			continue;
		if (slice_eq(kind, "some"))
			some = true;
		else if (slice_eq(kind, "full"))
			some = false;
		else
			continue;
		while (next_token(&line, &tok)) {
			struct slice v = { tok.p + 6, tok.n - 6 };

			if (tok.n > 6 && !memcmp(tok.p, "total=", 6) && slice_i64(v, &total)) {
				found = true;
				break;
			}
		}
		if (!found)
			continue;
		if (some) {
			psi.has_some = true;
			psi.some_total = total;
		} else {
			psi.has_full = true;
			psi.full_total = total;
		}
	}
	if (!psi.has_some)
		return -EINVAL;
	*ret = psi;
	return 0;
}

/* ANON or FILE of a generation row: digits, then an optional 'x' mark. */
static bool lru_gen_size(struct slice s, uint64_t *ret)
{
	if (s.n > 1 && s.p[s.n - 1] == 'x')
		s.n--;
	return slice_u64(s, ret);
}

int procfs_parse_lru_gen(const char *buf, size_t len, procfs_lru_gen_fn fn, void *arg,
			 unsigned *ret_bad)
{
	const char *pos = buf, *end = buf + len;
	struct procfs_lru_gen_row row = { 0 };
	bool have_memcg = false, have_node = false;
	struct slice line, extra, tok[4];
	unsigned bad = 0;
	int r;

	while (next_line(&pos, end, &line)) {
		uint64_t v;
		size_t n = 0;

		if (!next_token(&line, &tok[0]))
			continue;
		if (slice_eq(tok[0], "memcg")) {
			if (!next_token(&line, &tok[1]) || !slice_u64(tok[1], &v) || v > 0xffff) {
				bad++;
				have_memcg = false;
				continue;
			}
			line = strip(line); /* the path, to the end of the line */
			row.memcg_id = (unsigned)v;
			row.path = line.p;
			row.path_len = line.n;
			have_memcg = true;
			have_node = false;
			continue;
		}
		if (slice_eq(tok[0], "node")) {
			if (!next_token(&line, &tok[1]) || !slice_u64(tok[1], &v) || v > 1 << 20 ||
			    next_token(&line, &tok[2])) {
				bad++;
				have_node = false;
				continue;
			}
			row.node = (int)v;
			have_node = true;
			continue;
		}
		/* Count every field, keep the first four. */
		for (n = 1; next_token(&line, &extra); n++)
			if (n < 4)
				tok[n] = extra;
		/* Tier rows and mm-walk rows of lru_gen_full have 6 or 7 fields. */
		if (n != 4) {
			if (n < 6)
				bad++;
			continue;
		}
		if (!have_memcg || !have_node || !slice_u64(tok[0], &row.seq) ||
		    !slice_u64(tok[1], &row.age_ms) || !lru_gen_size(tok[2], &row.anon) ||
		    !lru_gen_size(tok[3], &row.file)) {
			bad++;
			continue;
		}
		r = fn(arg, &row);
		if (r < 0)
			return r;
	}
	if (ret_bad)
		*ret_bad = bad;
	return 0;
}

struct lru_gen_find {
	const char *path;
	struct procfs_lru_gen_memcg *m;
	unsigned over; /* nodes or generations beyond the arrays */
	bool found;
};

static int lru_gen_find_row(void *arg, const struct procfs_lru_gen_row *row)
{
	struct lru_gen_find *f = arg;
	struct procfs_lru_gen_memcg *m = f->m;
	struct procfs_lru_gen_node *n = NULL;

	if (row->path_len != strlen(f->path) || memcmp(row->path, f->path, row->path_len))
		return 0;
	/* a second listing of the path (a memcg made again): the first one's id counts */
	if (f->found && row->memcg_id != m->memcg_id)
		return 0;
	f->found = true;
	m->memcg_id = row->memcg_id;
	for (size_t i = 0; i < m->n_nodes && !n; i++)
		if (m->node[i].node == row->node)
			n = &m->node[i];
	if (!n) {
		if (m->n_nodes == PROCFS_LRU_GEN_NODES) {
			f->over++;
			return 0;
		}
		n = &m->node[m->n_nodes++];
		n->node = row->node;
	}
	if (n->n_gens == PROCFS_LRU_GEN_GENS) {
		f->over++;
		return 0;
	}
	n->gen[n->n_gens++] =
		(struct procfs_lru_gen_gen){ .seq = row->seq, .anon = row->anon, .file = row->file };
	return 0;
}

int procfs_lru_gen_memcg(const char *buf, size_t len, const char *path,
			 struct procfs_lru_gen_memcg *ret, unsigned *ret_bad)
{
	struct procfs_lru_gen_memcg m = { 0 };
	struct lru_gen_find f = { .path = path, .m = &m };
	unsigned bad = 0;

	procfs_parse_lru_gen(buf, len, lru_gen_find_row, &f, &bad);
	if (ret_bad)
		*ret_bad = bad + f.over;
	if (!f.found)
		return -ENOENT;
	*ret = m;
	return 0;
}

uint64_t procfs_lru_gen_max_seq(const struct procfs_lru_gen_node *n)
{
	uint64_t max = 0;

	for (size_t g = 0; g < n->n_gens; g++)
		if (n->gen[g].seq > max)
			max = n->gen[g].seq;
	return max;
}

void procfs_lru_gen_window(const struct procfs_lru_gen_memcg *prev,
			   const struct procfs_lru_gen_memcg *cur, uint64_t *ret_anon,
			   uint64_t *ret_file)
{
	uint64_t anon = 0, file = 0;

	for (size_t i = 0; i < cur->n_nodes; i++) {
		const struct procfs_lru_gen_node *n = &cur->node[i];
		uint64_t lo = 0, hi = procfs_lru_gen_max_seq(n);
		bool seen = false;

		for (size_t j = 0; j < prev->n_nodes && !seen; j++) {
			if (prev->node[j].node == n->node) {
				lo = procfs_lru_gen_max_seq(&prev->node[j]);
				seen = true;
			}
		}
		if (!seen)
			continue;
		for (size_t g = 0; g < n->n_gens; g++) {
			if (n->gen[g].seq >= lo && n->gen[g].seq < hi) {
				anon += n->gen[g].anon;
				file += n->gen[g].file;
			}
		}
	}
	*ret_anon = anon;
	*ret_file = file;
}

void procfs_lru_gen_total(const struct procfs_lru_gen_memcg *m, uint64_t *ret_anon,
			  uint64_t *ret_file)
{
	uint64_t anon = 0, file = 0;

	for (size_t i = 0; i < m->n_nodes; i++) {
		for (size_t g = 0; g < m->node[i].n_gens; g++) {
			anon += m->node[i].gen[g].anon;
			file += m->node[i].gen[g].file;
		}
	}
	*ret_anon = anon;
	*ret_file = file;
}

static bool is_hex(char c)
{
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f');
}

/* "START-END PERMS OFFSET DEV INODE [PATH]": the inode, or false if not a header. */
static bool smaps_header(struct slice line, uint64_t *ret_inode)
{
	struct slice tok[5];
	size_t i = 0;

	if (!line.n || !is_hex(line.p[0]))
		return false;
	for (; i < 5; i++)
		if (!next_token(&line, &tok[i]))
			return false;
	if (!memchr(tok[0].p, '-', tok[0].n))
		return false;
	return slice_u64(tok[4], ret_inode);
}

int procfs_parse_smaps_ref(const char *buf, size_t len, struct procfs_smaps_ref *ret,
			   unsigned *ret_bad)
{
	const char *pos = buf, *end = buf + len;
	struct procfs_smaps_ref s = { 0 };
	struct slice line, key, val, unit;
	bool in_vma = false, anon = false;
	unsigned bad = 0;

	while (next_line(&pos, end, &line)) {
		uint64_t inode, kb;

		if (smaps_header(line, &inode)) {
			in_vma = true;
			anon = inode == 0;
			s.vmas++;
			continue;
		}
		if (!next_token(&line, &key) || !slice_eq(key, "Referenced:"))
			continue;
		if (!in_vma || !next_token(&line, &val) || !slice_u64(val, &kb) ||
		    !next_token(&line, &unit) || !slice_eq(unit, "kB")) {
			bad++;
			continue;
		}
		if (anon)
			s.anon_kb += kb;
		else
			s.file_kb += kb;
	}
	if (ret_bad)
		*ret_bad = bad;
	if (!s.vmas)
		return -EINVAL;
	*ret = s;
	return 0;
}

int procfs_parse_schedstat(const char *buf, size_t len, uint64_t *ret_run_ns)
{
	struct slice rest = { .p = buf, .n = len }, run, wait, slices;

	if (!next_token(&rest, &run) || !next_token(&rest, &wait) ||
	    !next_token(&rest, &slices) || !slice_u64(run, ret_run_ns))
		return -EINVAL;
	return 0;
}

int procfs_parse_pid_stat(const char *buf, size_t len, struct procfs_pid_stat *ret)
{
	const char *open = memchr(buf, '(', len), *close = NULL;
	struct procfs_pid_stat st = { 0 };
	struct slice rest, tok;
	size_t comm_len;

	for (size_t i = len; i > 0; i--) {
		if (buf[i - 1] == ')') {
			close = buf + i - 1;
			break;
		}
	}
	if (!open || !close || close < open)
		return -EINVAL;
	comm_len = (size_t)(close - open - 1);
	if (comm_len >= sizeof(st.comm))
		comm_len = sizeof(st.comm) - 1;
	memcpy(st.comm, open + 1, comm_len);
	st.comm[comm_len] = '\0';

	rest.p = close + 1;
	rest.n = (size_t)(buf + len - rest.p);
	/* Field 3 is the state; utime and stime are fields 14 and 15. */
	for (int field = 3; field <= 15; field++) {
		if (!next_token(&rest, &tok))
			return -EINVAL;
		if (field == 3) {
			if (tok.n != 1)
				return -EINVAL;
			st.state = tok.p[0];
		} else if (field == 14 && !slice_u64(tok, &st.utime)) {
			return -EINVAL;
		} else if (field == 15 && !slice_u64(tok, &st.stime)) {
			return -EINVAL;
		}
	}
	*ret = st;
	return 0;
}

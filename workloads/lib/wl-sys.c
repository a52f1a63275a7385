// SPDX-License-Identifier: GPL-2.0
#include "wl-sys.h"

#include "util.h"
#include "wl.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

int wl_memcg_self(char *dir, size_t dir_len, char *rel, size_t rel_len)
{
	_cleanup_free_ char *text = NULL;
	char *p;
	int r = read_file("/proc/self/cgroup", 4096, &text, NULL);

	if (r < 0)
		return r;
	/* cgroup v2: one line "0::/PATH". */
	p = strstr(text, "0::");
	if (!p)
		return -ENOENT;
	p += 3;
	p[strcspn(p, "\n")] = '\0';
	if ((size_t)snprintf(dir, dir_len, "%s%s", WL_CGROUP_ROOT, strcmp(p, "/") ? p : "") >=
		    dir_len ||
	    (rel && (size_t)snprintf(rel, rel_len, "%s", p) >= rel_len))
		return -ENAMETOOLONG;
	return 0;
}

int wl_flat_get(const char *text, const char *key, int64_t *ret)
{
	size_t klen = strlen(key);

	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");

		if (len > klen && !strncmp(line, key, klen) && line[klen] == ' ') {
			char buf[32];
			size_t vlen = len - klen - 1;

			if (vlen >= sizeof(buf))
				return -ERANGE;
			memcpy(buf, line + klen + 1, vlen);
			buf[vlen] = '\0';
			return parse_i64(strstrip(buf), ret);
		}
		line += len + (line[len] == '\n');
	}
	return -ENOENT;
}

int wl_flat_read(const char *path, const char *key, int64_t *ret)
{
	_cleanup_free_ char *text = NULL;
	int r = read_file(path, 1u << 20, &text, NULL);

	if (r < 0)
		return r;
	return wl_flat_get(text, key, ret);
}

int wl_memcg_read(const char *file, const char *key, int64_t *ret)
{
	char dir[512];
	_cleanup_free_ char *path = NULL;
	int r = wl_memcg_self(dir, sizeof(dir), NULL, 0);

	if (r < 0)
		return r;
	path = xasprintf("%s/%s", dir, file);
	return wl_flat_read(path, key, ret);
}

int wl_io_stat_rbytes(const char *text, unsigned maj, unsigned min, uint64_t *ret)
{
	char want[32];

	/* "254:16 rbytes=1234 wbytes=0 rios=3 wios=0 dbytes=0 dios=0" */
	snprintf(want, sizeof(want), "%u:%u ", maj, min);
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		const char *rb = strstr(p, " rbytes=");
		unsigned long long v;

		if (!strncmp(p, want, strlen(want))) {
			if (!rb || rb > p + len || sscanf(rb, " rbytes=%llu", &v) != 1)
				return -EINVAL;
			*ret = v;
			return 0;
		}
		p += len + (p[len] == '\n');
	}
	*ret = 0; /* no line: nothing read from it yet */
	return 0;
}

int wl_io_read_bytes(const char *path, uint64_t *ret)
{
	_cleanup_free_ char *file = NULL, *text = NULL;
	char dir[512];
	struct stat st;
	int r;

	if (stat(path, &st) < 0)
		return -errno;
	r = wl_memcg_self(dir, sizeof(dir), NULL, 0);
	if (r < 0)
		return r;
	file = xasprintf("%s/io.stat", dir);
	r = read_file(file, 1u << 16, &text, NULL);
	if (r < 0)
		return r;
	return wl_io_stat_rbytes(text, major(st.st_dev), minor(st.st_dev), ret);
}

int wl_psi_some_us(const char *path, uint64_t *ret)
{
	_cleanup_free_ char *text = NULL;
	char *p;
	int r = read_file(path, 4096, &text, NULL);

	if (r < 0)
		return r;
	if (strncmp(text, "some ", 5) || !(p = strstr(text, "total=")))
		return -EINVAL;
	p += 6;
	p[strcspn(p, " \n")] = '\0';
	return parse_u64(p, ret);
}

int wl_kswapd_cpu_ns(uint64_t *ret)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	uint64_t ticks = 0, ns = 0;
	long hz = sysconf(_SC_CLK_TCK);
	int found = 0, sched = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		_cleanup_free_ char *path = NULL, *text = NULL, *sp = NULL, *stext = NULL;
		unsigned long long ut, st, run;
		char *p;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		path = xasprintf("/proc/%s/stat", de->d_name);
		if (read_file(path, 4096, &text, NULL) < 0 || !strstr(text, "(kswapd"))
			continue;
		p = strrchr(text, ')');
		/* After "(comm)": state is field 3, utime field 14, stime field 15. */
		if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
				 &ut, &st) != 2)
			continue;
		ticks += ut + st;
		found++;
		/* the run time in ns where the kernel keeps it (CONFIG_SCHED_INFO) */
		sp = xasprintf("/proc/%s/schedstat", de->d_name);
		if (read_file(sp, 256, &stext, NULL) == 0 && sscanf(stext, "%llu", &run) == 1) {
			ns += run;
			sched++;
		}
	}
	closedir(d);
	if (!found)
		return -ENOENT;
	/* ns where every thread has it, else ticks: never a mix */
	*ret = sched == found ? ns : ticks * (1000000000ull / (uint64_t)(hz > 0 ? hz : 100));
	return 0;
}

int wl_mem_total(uint64_t *ret)
{
	_cleanup_free_ char *text = NULL;
	unsigned long long kb;
	char *p;
	int r = read_file("/proc/meminfo", 1u << 16, &text, NULL);

	if (r < 0)
		return r;
	p = strstr(text, "MemTotal:");
	if (!p || sscanf(p, "MemTotal: %llu kB", &kb) != 1)
		return -EINVAL;
	*ret = (uint64_t)kb << 10;
	return 0;
}

bool wl_mglru_on(void)
{
	_cleanup_free_ char *text = NULL;
	uint64_t v;

	if (read_file("/sys/kernel/mm/lru_gen/enabled", 64, &text, NULL) < 0)
		return false;
	return parse_u64_c(strstrip(text), &v) == 0 && v != 0; /* "0x0007" */
}

/*
 * memcg     2 /wl
 *  node     0
 *          12       2568       3492           0
 * (generation sequence number, age in ms, anon pages, file pages)
 */
int wl_lru_gen_parse(const char *text, const char *rel, struct wl_gen_sizes *ret)
{
	struct wl_gen_sizes g = { 0 };
	bool in = false, found = false;
	unsigned long long young_seq = 0, young_anon = 0, young_file = 0;
	bool node_open = false;

	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		char buf[600], path[512];
		unsigned long long seq, age, anon, file;
		unsigned id;

		snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) ? len : sizeof(buf) - 1),
			 line);
		line += len + (line[len] == '\n');
		if (!strncmp(buf, "memcg", 5)) {
			if (in && node_open) {
				g.young_anon += young_anon;
				g.young_file += young_file;
			}
			node_open = false;
			if (sscanf(buf, "memcg %u %511s", &id, path) != 2)
				path[0] = '\0';
			in = !strcmp(path, rel);
			found |= in;
			continue;
		}
		if (!in)
			continue;
		if (!strncmp(strstrip(buf), "node", 4)) {
			if (node_open) {
				g.young_anon += young_anon;
				g.young_file += young_file;
			}
			node_open = true;
			young_seq = 0;
			young_anon = young_file = 0;
			continue;
		}
		if (sscanf(buf, "%llu %llu %llu %llu", &seq, &age, &anon, &file) == 4) {
			g.anon += anon;
			g.file += file;
			g.ngens++;
			if (seq >= young_seq) {
				young_seq = seq;
				young_anon = anon;
				young_file = file;
			}
		}
	}
	if (in && node_open) {
		g.young_anon += young_anon;
		g.young_file += young_file;
	}
	if (!found)
		return -ENOENT;
	*ret = g;
	return 0;
}

int wl_lru_gen_read(const char *rel, struct wl_gen_sizes *ret)
{
	_cleanup_free_ char *text = NULL;
	int r = read_file("/sys/kernel/debug/lru_gen", 4u << 20, &text, NULL);

	if (r < 0)
		return r;
	return wl_lru_gen_parse(text, rel, ret);
}

int wl_file_drop(int fd)
{
	if (fdatasync(fd) < 0)
		return -errno;
	return -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

int wl_file_create(const char *path, uint64_t bytes, uint64_t seed)
{
	enum { CHUNK = 1 << 20 };
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	_cleanup_free_ uint64_t *buf = xcalloc(CHUNK / sizeof(uint64_t), sizeof(uint64_t));
	struct wl_rng rng;

	if (fd < 0)
		return -errno;
	wl_rng_seed(&rng, seed);
	for (size_t i = 0; i < CHUNK / sizeof(uint64_t); i++)
		buf[i] = wl_rng_next(&rng);
	for (uint64_t off = 0; off < bytes;) {
		size_t n = bytes - off < CHUNK ? (size_t)(bytes - off) : CHUNK;
		ssize_t w;

		/* Every page differs from the last chunk's. */
		for (size_t i = 0; i < CHUNK / sizeof(uint64_t); i += 512)
			buf[i] = wl_rng_next(&rng);
		w = write(fd, buf, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		off += (uint64_t)w;
	}
	return wl_file_drop(fd);
}

int wl_dir_make(const char *dir)
{
	return mkdir_p(dir);
}

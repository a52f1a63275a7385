// SPDX-License-Identifier: GPL-2.0
/*
 * Memcgs through libcgroup (2.0.2 on cgroup v2: it adds +memory to the
 * parent's subtree_control itself). Every control file is read back; when
 * libcgroup failed to create the group or to set a file, the agent does it
 * directly and says so in an event, so a run never silently lacks a limit.
 * The io controller is enabled beside memory (no limits are set on it) so
 * that each memcg's io.stat says what it read from which disk.
 */
#include "agent.h"
#include "procfs-parse.h"
#include "util.h"

#include <libcgroup.h>
#include <string.h>
#include <sys/stat.h>

static void cgroup_freep(struct cgroup **cg)
{
	if (*cg)
		cgroup_free(cg);
}

static const char *cg_error(int r)
{
	if (r == ECGOTHER)
		return strerror(cgroup_get_last_errno());
	return cgroup_strerror(r);
}

/* Whether the kernel holds what was asked: same text, or the same size
 * once rounded down to a page as memory.max and friends are. */
static bool value_matches(const char *want, const char *got)
{
	uint64_t w, g, page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (!strcmp(want, got))
		return true;
	if (parse_size(want, &w) < 0 || parse_u64(got, &g) < 0)
		return false;
	return w / page * page == g;
}

/* 0 if libcgroup made the group, else the libcgroup error. */
static int create_with_libcgroup(const struct memcg *m)
{
	_cleanup_(cgroup_freep) struct cgroup *cg = cgroup_new_cgroup(m->name);
	struct cgroup_controller *ctrl;

	if (!cg)
		return ECGFAIL;
	ctrl = cgroup_add_controller(cg, "memory");
	if (!ctrl)
		return ECGFAIL;
	for (size_t i = 0; i < m->conf->n_files; i++) {
		int r = cgroup_add_value_string(ctrl, m->conf->files[i].key,
						m->conf->files[i].value);

		if (r)
			return r;
	}
	return cgroup_create_cgroup(cg, 0);
}

static int create_directly(const struct memcg *m)
{
	int r = write_file(CGROUP_ROOT "/cgroup.subtree_control", "+memory");

	if (r < 0)
		return r;
	if (mkdir(m->path, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Read each file back; set directly what libcgroup did not. */
static int check_files(struct agent *a, const struct memcg *m)
{
	for (size_t i = 0; i < m->conf->n_files; i++) {
		const struct conf_kv *f = &m->conf->files[i];
		_cleanup_free_ char *path = xasprintf("%s/%s", m->path, f->key);
		char back[256] = "";
		int r;

		r = read_knob(path, back, sizeof(back));
		if (r < 0 || !value_matches(f->value, back)) {
			channel_event(a->ch, "memcg",
				      "%s: libcgroup left %s at '%s' (wanted '%s'); writing it directly",
				      m->name, f->key, r < 0 ? strerror(-r) : back, f->value);
			r = write_file(path, f->value);
			if (r == 0)
				r = read_knob(path, back, sizeof(back));
			if (r < 0 || !value_matches(f->value, back)) {
				channel_event(a->ch, "error", "memcg %s: cannot set %s to '%s': %s",
					      m->name, f->key, f->value,
					      r < 0 ? strerror(-r) : back);
				return r < 0 ? r : -EINVAL;
			}
		}
		channel_record(a->ch, "conf memcg/%s/%s %s", m->name, f->key, back);
	}
	return 0;
}

int memcgs_create(struct agent *a)
{
	int cg_ready = cgroup_init();

	if (cg_ready)
		channel_event(a->ch, "memcg", "libcgroup: cgroup_init: %s; creating memcgs directly",
			      cg_error(cg_ready));
	if (a->n_memcgs) {
		int r = write_file(CGROUP_ROOT "/cgroup.subtree_control", "+io");

		if (r < 0)
			channel_event(a->ch, "memcg", "io controller not enabled: %s; no io.stat",
				      strerror(-r));
	}
	for (size_t i = 0; i < a->n_memcgs; i++) {
		struct memcg *m = &a->memcgs[i];
		int r = cg_ready ? cg_ready : create_with_libcgroup(m);

		if (r && !cg_ready)
			channel_event(a->ch, "memcg", "%s: libcgroup: %s; creating it directly",
				      m->name, cg_error(r));
		if (r) {
			r = create_directly(m);
			if (r < 0) {
				channel_event(a->ch, "error", "memcg %s: mkdir %s: %s", m->name,
					      m->path, strerror(-r));
				return r;
			}
		}
		r = check_files(a, m);
		if (r < 0)
			return r;
		channel_event(a->ch, "memcg", "created %s", m->name);
	}
	return 0;
}

static int find_oom_kill(void *arg, const char *key, size_t key_len, int64_t value)
{
	if (key_len == 8 && !memcmp(key, "oom_kill", 8)) {
		*(int64_t *)arg = value;
	}
	return 0;
}

int memcg_oom_kills(const struct memcg *m, int64_t *ret)
{
	_cleanup_free_ char *path = xasprintf("%s/memory.events", m->path);
	_cleanup_free_ char *buf = NULL;
	int64_t v = -1;
	size_t len;
	int r;

	r = read_file(path, 64 * 1024, &buf, &len);
	if (r < 0)
		return r;
	procfs_parse_flat(buf, len, find_oom_kill, &v, NULL);
	if (v < 0)
		return -ENOENT;
	*ret = v;
	return 0;
}

// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: memory cgroup ids; cgroup.h says what they are.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* name_to_handle_at */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include "cgroup.h"
#include "trace.h"	/* OW_MEMCG_PATH_MAX, ow_memcg_path_valid() */

#define CGROUP2_MAGIC	0x63677270	/* CGROUP2_SUPER_MAGIC */
#define MAX_DEPTH	32

static bool on_cgroup2(const char *path)
{
	struct statfs sfs;

	return !statfs(path, &sfs) && sfs.f_type == CGROUP2_MAGIC;
}

/*
 * cgroupfs hands out the cgroup id as an 8-byte file handle; elsewhere
 * (and if that fails) the inode number is the id on 64-bit kernels.
 */
static bool dir_id(const char *path, bool cgroup2, __u64 *id)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h;
	struct stat st;
	int mount_id;

	if (cgroup2) {
		h.fh.handle_bytes = sizeof(h.id);
		if (!name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) &&
		    h.fh.handle_bytes == sizeof(h.id)) {
			memcpy(id, h.fh.f_handle, sizeof(*id));
			return true;
		}
	}
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return false;
	*id = st.st_ino;
	return true;
}

static void add_id(struct ow_cgroup_set *set, __u64 id)
{
	if (set->nr == OW_CGROUP_MAX_IDS) {
		set->truncated = true;
		return;
	}
	set->ids[set->nr++] = id;
}

static bool is_dir(const char *dir, const struct dirent *d)
{
	char p[OW_CGROUP_PATH_MAX];
	struct stat st;

	if (d->d_type != DT_UNKNOWN)
		return d->d_type == DT_DIR;
	if (snprintf(p, sizeof(p), "%s/%s", dir, d->d_name) >= (int)sizeof(p))
		return false;
	return !lstat(p, &st) && S_ISDIR(st.st_mode);
}

/* Depth-first; symlinks are not followed, depth and count are bounded. */
static void scan(struct ow_cgroup_set *set, const char *dir, int depth)
{
	struct dirent *d;
	DIR *dp;
	__u64 id;

	if (!dir_id(dir, set->cgroup2, &id))
		return;
	add_id(set, id);
	if (depth >= MAX_DEPTH || set->truncated)
		return;
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		char sub[OW_CGROUP_PATH_MAX];

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..") ||
		    !is_dir(dir, d))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", dir, d->d_name) >=
		    (int)sizeof(sub))
			continue;
		scan(set, sub, depth + 1);
	}
	closedir(dp);
}

bool ow_cgroup_refresh(struct ow_cgroup_set *set)
{
	if (!set->path[0])
		return false;
	set->nr = 0;
	set->truncated = false;
	scan(set, set->path, 0);
	return true;
}

bool ow_cgroup_contains(const struct ow_cgroup_set *set, __u64 id)
{
	for (size_t i = 0; i < set->nr; i++)
		if (set->ids[i] == id)
			return true;
	return false;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Does dir's parent enable the memory controller for its children? */
static bool owns_memcg(const char *dir)
{
	char p[OW_CGROUP_PATH_MAX + 32], line[256];
	char *slash, *tok, *save;
	bool found = false;
	FILE *f;

	snprintf(p, sizeof(p), "%s", dir);
	slash = strrchr(p, '/');
	if (!slash)
		return false;
	strcpy(slash, "/cgroup.subtree_control");
	f = fopen(p, "r");
	if (!f)
		return false;
	if (fgets(line, sizeof(line), f))
		for (tok = strtok_r(line, " \n", &save); tok && !found;
		     tok = strtok_r(NULL, " \n", &save))
			found = !strcmp(tok, "memory");
	fclose(f);
	return found;
}

/* "-c ID": a decimal memcg id, the set of that one id. */
static int set_of_id(struct ow_cgroup_set *set, const char *arg, char *why,
		     size_t size)
{
	errno = 0;
	set->ids[0] = strtoull(arg, NULL, 10);
	set->nr = 1;
	if (errno || !set->ids[0]) {
		snprintf(why, size, "--cgroup %s: not a memcg id", arg);
		return -1;
	}
	return 0;
}

int ow_cgroup_resolve(struct ow_cgroup_set *set, const char *arg,
		      bool require_cgroup2, char *why, size_t size,
		      char *note, size_t note_size)
{
	struct stat st;
	size_t len;

	memset(set, 0, sizeof(*set));
	note[0] = '\0';
	if (all_digits(arg) && stat(arg, &st))
		return set_of_id(set, arg, why, size);
	len = strlen(arg);
	while (len > 1 && arg[len - 1] == '/')
		len--;		/* "/sys/fs/cgroup/job/" is job */
	if (len >= sizeof(set->path)) {
		snprintf(why, size, "--cgroup: path too long");
		return -1;
	}
	memcpy(set->path, arg, len);
	set->path[len] = '\0';
	if (stat(set->path, &st)) {
		snprintf(why, size, "--cgroup %s: %s", arg, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, size, "--cgroup %s: not a directory", arg);
		return -1;
	}
	set->cgroup2 = on_cgroup2(set->path);
	if (require_cgroup2 && !set->cgroup2) {
		snprintf(why, size, "--cgroup %s: not a cgroup v2 directory "
			 "(is cgroup2 mounted there?)", arg);
		return -1;
	}
	ow_cgroup_refresh(set);
	if (!set->nr) {
		snprintf(why, size, "--cgroup %s: cannot read its id", arg);
		return -1;
	}
	/* The cgroup2 root has no parent and always owns the root memcg. */
	if (!(set->cgroup2 && st.st_ino == 1) && !owns_memcg(set->path))
		snprintf(note, note_size, "--cgroup %s: the memory controller "
			 "is not enabled for it (no \"memory\" in its parent's "
			 "cgroup.subtree_control): its tasks are charged to an "
			 "ancestor's memcg and will not match", arg);
	return 0;
}

int ow_cgroup2_mount(char *buf, size_t size)
{
	char line[1024];
	int ret = -1;
	FILE *f = fopen("/proc/self/mountinfo", "r");

	if (!f)
		return -1;
	/* "36 25 0:31 / /sys/fs/cgroup rw,... - cgroup2 cgroup2 rw" */
	while (ret && fgets(line, sizeof(line), f)) {
		char mnt[512], *dash = strstr(line, " - cgroup2 ");

		if (dash && sscanf(line, "%*s %*s %*s %*s %511s", mnt) == 1 &&
		    strlen(mnt) < size) {
			strcpy(buf, mnt);
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

bool ow_memcg_of_path(const char *root, const char *rel, bool cgroup2,
		      __u64 *id)
{
	char p[OW_CGROUP_PATH_MAX];
	size_t root_len = strlen(root);

	if (snprintf(p, sizeof(p), "%s%s", root, rel) >= (int)sizeof(p))
		return false;
	while (strlen(p) > root_len && p[strlen(p) - 1] == '/')
		p[strlen(p) - 1] = '\0';
	/* Up to the directory that owns the memory css, or the root. */
	while (strlen(p) > root_len && !owns_memcg(p))
		*strrchr(p, '/') = '\0';
	return dir_id(p, cgroup2, id);
}

bool ow_memcg_of_pid(void *ctx, __u32 pid, __u64 *id)
{
	const char *root = ctx;
	char path[64], line[OW_CGROUP_PATH_MAX];
	bool ok = false;
	FILE *f;

	if (!root)
		return false;
	snprintf(path, sizeof(path), "/proc/%u/cgroup", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!ok && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::/", 4))
			continue;
		line[strcspn(line, "\n")] = '\0';
		ok = ow_memcg_of_path(root, line + 3, true, id);
	}
	fclose(f);
	return ok;
}

/* ---------------------------------------------------- paths of memcg ids */

void ow_memcg_paths_init(struct ow_memcg_paths *p)
{
	memset(p, 0, sizeof(*p));
}

void ow_memcg_paths_free(struct ow_memcg_paths *p)
{
	for (size_t i = 0; i < p->cap; i++)
		free(p->slot[i].path);
	free(p->slot);
	ow_memcg_paths_init(p);
}

/* Fibonacci hashing: ids are often consecutive inode numbers. */
static size_t slot_of(const struct ow_memcg_paths *p, __u64 id)
{
	return (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 32) & (p->cap - 1);
}

struct ow_memcg_entry *ow_memcg_paths_get(const struct ow_memcg_paths *p,
					  __u64 id)
{
	if (!id || !p->cap)
		return NULL;
	for (size_t i = slot_of(p, id);; i = (i + 1) & (p->cap - 1)) {
		if (p->slot[i].id == id)
			return &p->slot[i];
		if (!p->slot[i].id)
			return NULL;
	}
}

const char *ow_memcg_path_of(const struct ow_memcg_paths *p, __u64 id)
{
	const struct ow_memcg_entry *e = ow_memcg_paths_get(p, id);

	return e ? e->path : NULL;
}

/* Kept at most half full, so that a probe always ends on a free slot. */
static bool grow(struct ow_memcg_paths *p)
{
	struct ow_memcg_paths bigger = { .cap = p->cap ? p->cap * 2 : 64 };

	bigger.slot = calloc(bigger.cap, sizeof(*bigger.slot));
	if (!bigger.slot)
		return false;
	for (size_t i = 0; i < p->cap; i++) {
		size_t j;

		if (!p->slot[i].id)
			continue;
		for (j = slot_of(&bigger, p->slot[i].id); bigger.slot[j].id;
		     j = (j + 1) & (bigger.cap - 1))
			;
		bigger.slot[j] = p->slot[i];
	}
	free(p->slot);
	p->slot = bigger.slot;
	p->cap = bigger.cap;
	return true;
}

struct ow_memcg_entry *ow_memcg_paths_add(struct ow_memcg_paths *p, __u64 id,
					  const char *path, __u64 parent)
{
	struct ow_memcg_entry *e = ow_memcg_paths_get(p, id);
	size_t i;

	if (!id)
		return NULL;
	if (e) {
		if (!e->path && path) {
			e->path = strdup(path);
			e->parent = parent;
		}
		return e;
	}
	if (p->nr >= OW_MEMCG_MAX_PATHS) {
		p->full = true;
		p->dropped++;
		return NULL;
	}
	if ((p->nr + 1) * 2 > p->cap && !grow(p))
		return NULL;
	for (i = slot_of(p, id); p->slot[i].id; i = (i + 1) & (p->cap - 1))
		;
	e = &p->slot[i];
	e->path = path ? strdup(path) : NULL;
	if (path && !e->path)
		return NULL;
	e->id = id;
	e->parent = parent;
	e->written = false;
	p->nr++;
	return e;
}

bool ow_memcg_path_under(const char *path, const char *top)
{
	size_t n = strlen(top);

	if (!strcmp(top, "/"))
		return path[0] == '/';
	return !strncmp(path, top, n) && (path[n] == '\0' || path[n] == '/');
}

bool ow_memcg_paths_any_under(const struct ow_memcg_paths *p, const char *top)
{
	for (size_t i = 0; i < p->cap; i++)
		if (p->slot[i].path && ow_memcg_path_under(p->slot[i].path, top))
			return true;
	return false;
}

/*
 * One directory: dir is its name on this machine, rel its path from the
 * root (both in buffers of PATH_MAX, extended and cut back in place).
 */
static void scan_paths(struct ow_memcg_paths *p, char *dir, char *rel,
		       bool cgroup2, __u64 parent, int depth)
{
	size_t dlen = strlen(dir), rlen = strlen(rel);
	struct dirent *d;
	DIR *dp;
	__u64 id;

	if (!dir_id(dir, cgroup2, &id) ||
	    !ow_memcg_paths_add(p, id, rel, parent) || depth >= MAX_DEPTH)
		return;
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp)) && !p->full) {
		size_t n = strlen(d->d_name);
		/* "/" + name below the root, else rel + "/" + name */
		size_t sub = (rlen == 1 ? 0 : rlen) + 1 + n;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..") ||
		    sub > OW_MEMCG_PATH_MAX || dlen + 1 + n >= PATH_MAX ||
		    !is_dir(dir, d))
			continue;
		snprintf(dir + dlen, PATH_MAX - dlen, "/%s", d->d_name);
		snprintf(rel + (rlen == 1 ? 0 : rlen), PATH_MAX - rlen, "/%s",
			 d->d_name);
		scan_paths(p, dir, rel, cgroup2, id, depth + 1);
		dir[dlen] = '\0';
		rel[rlen] = '\0';
	}
	closedir(dp);
}

void ow_memcg_paths_scan(struct ow_memcg_paths *p, const char *root,
			 bool cgroup2)
{
	char *dir = malloc(PATH_MAX), *rel = malloc(PATH_MAX);

	p->scans++;
	if (dir && rel && strlen(root) < PATH_MAX) {
		strcpy(dir, root);
		strcpy(rel, "/");
		scan_paths(p, dir, rel, cgroup2, 0, 0);
	}
	free(dir);
	free(rel);
}

int ow_cgroup_resolve_recorded(struct ow_cgroup_set *set, const char *arg,
			       char *why, size_t size)
{
	size_t len = strlen(arg);

	memset(set, 0, sizeof(*set));
	set->recorded = true;
	if (all_digits(arg))
		return set_of_id(set, arg, why, size);
	while (len > 1 && arg[len - 1] == '/')
		len--;		/* "/job/" is /job */
	if (len >= sizeof(set->path) || !ow_memcg_path_valid(arg, len)) {
		snprintf(why, size, "--cgroup %s: on a replay, a memcg id or a "
			 "cgroup path as the recording names it, from the "
			 "cgroup2 root (/job)", arg);
		return -1;
	}
	memcpy(set->path, arg, len);
	set->path[len] = '\0';
	return 0;
}

enum ow_cgroup_match ow_cgroup_match_recorded(const struct ow_cgroup_set *set,
					      const struct ow_memcg_paths *paths,
					      __u64 id)
{
	const char *path = ow_memcg_path_of(paths, id), *top;

	if (!set->path[0]) {
		if (id == set->ids[0])
			return OW_CG_IN;
		top = ow_memcg_path_of(paths, set->ids[0]);
		return top && path && ow_memcg_path_under(path, top) ?
		       OW_CG_IN : OW_CG_OUT;
	}
	if (!path)
		return OW_CG_NO_PATH;
	return ow_memcg_path_under(path, set->path) ? OW_CG_IN : OW_CG_OUT;
}

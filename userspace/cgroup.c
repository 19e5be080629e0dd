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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include "cgroup.h"

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

int ow_cgroup_resolve(struct ow_cgroup_set *set, const char *arg,
		      bool require_cgroup2, char *why, size_t size,
		      char *note, size_t note_size)
{
	struct stat st;
	size_t len;

	memset(set, 0, sizeof(*set));
	note[0] = '\0';
	if (all_digits(arg) && stat(arg, &st)) {
		errno = 0;
		set->ids[0] = strtoull(arg, NULL, 10);
		set->nr = 1;
		if (errno || !set->ids[0]) {
			snprintf(why, size, "--cgroup %s: not a memcg id", arg);
			return -1;
		}
		return 0;
	}
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

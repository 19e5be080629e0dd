/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: memory cgroup ids in user space, for -c and for naming the
 * memcg of a task that asks for an OOM kill.
 *
 * The BPF side reports a victim's memcg as the id of the cgroup that owns
 * its memory css (task->cgroups->subsys[memory]->cgroup->kn->id): the
 * task's own cgroup v2 directory if the memory controller is enabled
 * there, else the nearest ancestor where it is.  A cgroup's id is what
 * name_to_handle_at() returns on cgroupfs, and its inode number on a
 * 64-bit kernel; both are used here, nothing is loaded into the kernel.
 */
#ifndef OW_CGROUP_H
#define OW_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#define OW_CGROUP_MAX_IDS	4096	/* directories of one subtree */
#define OW_CGROUP_PATH_MAX	512

/* The memcg ids -c matches: one directory and every one below it. */
struct ow_cgroup_set {
	char path[OW_CGROUP_PATH_MAX];	/* "": a bare id was given */
	bool cgroup2;			/* path must be on cgroup2 */
	__u64 ids[OW_CGROUP_MAX_IDS];
	size_t nr;
	bool truncated;			/* more directories than ids[] */
};

/*
 * arg: a path (must be a directory on cgroup2 when require_cgroup2; the
 * host tests pass false to use a scratch tree) or a decimal memcg id.
 * Returns 0, or -1 with a one-line reason in why.  *note gets a warning
 * worth printing ("" when none): a directory without its own memory
 * controller, whose tasks are charged to an ancestor.
 */
int ow_cgroup_resolve(struct ow_cgroup_set *set, const char *arg,
		      bool require_cgroup2, char *why, size_t size,
		      char *note, size_t note_size);

bool ow_cgroup_contains(const struct ow_cgroup_set *set, __u64 id);

/* Rescan the subtree (cgroups made since); false when there is no path. */
bool ow_cgroup_refresh(struct ow_cgroup_set *set);

/*
 * Where cgroup2 is mounted, from /proc/self/mountinfo; 0 or -1.  The
 * resolver below needs it.
 */
int ow_cgroup2_mount(char *buf, size_t size);

/*
 * The memcg id of a running process, as the BPF side would report it:
 * /proc/PID/cgroup's "0::PATH" under the cgroup2 mount, walked up to the
 * directory that owns the memory controller.  ctx is the mount path
 * (const char *).  false when the task is gone or cgroup2 is not there.
 */
bool ow_memcg_of_pid(void *ctx, __u32 pid, __u64 *id);

/* The same walk from a path under root; exposed for the tests. */
bool ow_memcg_of_path(const char *root, const char *rel, bool cgroup2,
		      __u64 *id);

#endif /* OW_CGROUP_H */

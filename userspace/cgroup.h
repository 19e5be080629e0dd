/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: memory cgroup ids in user space, for -c, for naming the memcg
 * of a task that asks for an OOM kill, and for the cgroup paths of memcg
 * ids that a recording keeps ("memcg" lines, trace format 2).
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

/*
 * The memcg ids -c matches: one directory and every one below it.  Live,
 * the directories of this machine's tree; on a replay (recorded), the
 * memcgs the recording names by path at or below path, or the id ids[0]
 * and those the recording names at or below its path.
 */
struct ow_cgroup_set {
	char path[OW_CGROUP_PATH_MAX];	/* "": a bare id was given */
	bool cgroup2;			/* path must be on cgroup2 */
	bool recorded;			/* replay: path is the recording's */
	__u64 ids[OW_CGROUP_MAX_IDS];
	size_t nr;
	bool truncated;			/* more directories than ids[] */
};

/* The cgroup paths of memcg ids, a hash table keyed by id. */
#define OW_MEMCG_MAX_PATHS	65536	/* ids kept, found or not */

struct ow_memcg_entry {
	__u64 id;		/* 0: a free slot */
	__u64 parent;		/* the parent directory's id; 0: none, unknown */
	char *path;		/* from the cgroup2 root; NULL: not found */
	bool written;		/* its memcg line went out */
};

struct ow_memcg_paths {
	struct ow_memcg_entry *slot;
	size_t cap;		/* 0 or a power of two */
	size_t nr;
	unsigned long scans;	/* tree walks so far */
	bool full;		/* OW_MEMCG_MAX_PATHS reached: ids not kept */
	unsigned long dropped;	/* ids not kept because it was full */
};

void ow_memcg_paths_init(struct ow_memcg_paths *p);
void ow_memcg_paths_free(struct ow_memcg_paths *p);
struct ow_memcg_entry *ow_memcg_paths_get(const struct ow_memcg_paths *p,
					  __u64 id);
/* The path of id, or NULL (unknown, not found, id 0). */
const char *ow_memcg_path_of(const struct ow_memcg_paths *p, __u64 id);

/*
 * Keep id's path (path NULL: looked for, not found).  The first path
 * given for an id stays; a later one only fills a "not found".  NULL when
 * the table is full (p->full; counted in p->dropped: the session says
 * so, and the checker reports it) or out of memory.
 */
struct ow_memcg_entry *ow_memcg_paths_add(struct ow_memcg_paths *p, __u64 id,
					  const char *path, __u64 parent);

/*
 * Walk the cgroup tree at root (the cgroup2 mount; the host tests pass a
 * scratch tree and cgroup2 false) and keep every directory's id and path
 * from root.  Bounded: MAX_DEPTH levels, OW_MEMCG_MAX_PATHS ids, paths
 * of at most OW_MEMCG_PATH_MAX bytes; symlinks are not followed.
 */
void ow_memcg_paths_scan(struct ow_memcg_paths *p, const char *root,
			 bool cgroup2);

/* path is top or lies below it (both in ow_memcg_path_valid() form). */
bool ow_memcg_path_under(const char *path, const char *top);

/* Does p hold any path at or below top? */
bool ow_memcg_paths_any_under(const struct ow_memcg_paths *p,
			      const char *top);

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

/*
 * -c on a replay, never looking at this machine: a decimal memcg id, or a
 * path as the recording names cgroups, from the traced machine's cgroup2
 * root ("/job"; trailing slashes are dropped).  0, or -1 with why.
 */
int ow_cgroup_resolve_recorded(struct ow_cgroup_set *set, const char *arg,
			       char *why, size_t size);

bool ow_cgroup_contains(const struct ow_cgroup_set *set, __u64 id);

enum ow_cgroup_match {
	OW_CG_OUT,
	OW_CG_IN,
	OW_CG_NO_PATH,		/* by path, and the recording names none */
};

/*
 * A recorded set against what the recording said so far (paths): by
 * path, id is in when its path is set->path or below; by id, when it is
 * ids[0] or the recording names it below ids[0]'s path.
 */
enum ow_cgroup_match ow_cgroup_match_recorded(const struct ow_cgroup_set *set,
					      const struct ow_memcg_paths *paths,
					      __u64 id);

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

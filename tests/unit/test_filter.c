// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The -p / -c output filter, and the memcg ids -c resolves, on a scratch
 * directory tree standing in for cgroup v2 (ids are inode numbers there
 * as on cgroupfs; "memory" in cgroup.subtree_control as in the kernel).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cgroup.h"
#include "filter.h"

#include "proc.h"
#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------ cgroups */

static char root[300], dir_a[320], dir_b[340], dir_c[320], dir_d[340];

static __u64 ino(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* root (memory for children) -> a (no memory below) -> b; root -> c */
static void make_tree(void)
{
	char p[400];

	snprintf(root, sizeof(root), "%s", proc_path("cg"));
	mkdir(root, 0700);
	snprintf(dir_a, sizeof(dir_a), "%s/a", root);
	snprintf(dir_b, sizeof(dir_b), "%s/b", dir_a);
	snprintf(dir_c, sizeof(dir_c), "%s/c", root);
	snprintf(dir_d, sizeof(dir_d), "%s/d", dir_a);
	mkdir(dir_a, 0700);
	mkdir(dir_b, 0700);
	mkdir(dir_c, 0700);
	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", root);
	put(p, "cpu memory\n");
	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", dir_a);
	put(p, "cpu\n");
}

static void remove_tree(void)
{
	char p[400];

	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", dir_a);
	unlink(p);
	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", root);
	unlink(p);
	rmdir(dir_d);
	rmdir(dir_b);
	rmdir(dir_c);
	rmdir(dir_a);
	rmdir(root);
}

static void test_cgroup(void)
{
	static struct ow_cgroup_set set;
	char why[256], note[512], file[400];
	__u64 id = 0;
	int ret;

	make_tree();
	ret = ow_cgroup_resolve(&set, dir_a, false, why, sizeof(why), note,
				sizeof(note));
	tap_ok(!ret && set.nr == 2 && ow_cgroup_contains(&set, ino(dir_a)) &&
	       ow_cgroup_contains(&set, ino(dir_b)) &&
	       !ow_cgroup_contains(&set, ino(dir_c)) && !note[0],
	       "cgroup: a directory and its subtree, by id");

	mkdir(dir_d, 0700);
	ret = !ow_cgroup_contains(&set, ino(dir_d)) && ow_cgroup_refresh(&set) &&
	      ow_cgroup_contains(&set, ino(dir_d));
	tap_ok(ret, "cgroup: a cgroup made later is found by a rescan");

	ret = ow_cgroup_resolve(&set, dir_b, false, why, sizeof(why), note,
				sizeof(note));
	tap_ok(!ret && strstr(note, "memory controller is not enabled for it"),
	       "cgroup: a directory without its own memcg gets a warning");

	ret = ow_cgroup_resolve(&set, "123456789", false, why, sizeof(why),
				note, sizeof(note));
	tap_ok(!ret && set.nr == 1 && set.ids[0] == 123456789 && !set.path[0],
	       "cgroup: a number is a memcg id");

	ret = ow_cgroup_resolve(&set, "/nonexistent/cg", false, why,
				sizeof(why), note, sizeof(note));
	tap_ok(ret && !strcmp(why, "--cgroup /nonexistent/cg: No such file or "
			      "directory"), "cgroup: missing path (%s)", why);

	snprintf(file, sizeof(file), "%s/cgroup.subtree_control", root);
	ret = ow_cgroup_resolve(&set, file, false, why, sizeof(why), note,
				sizeof(note));
	tap_ok(ret && strstr(why, ": not a directory"),
	       "cgroup: a file is refused (%s)", why);

	ret = ow_cgroup_resolve(&set, dir_a, true, why, sizeof(why), note,
				sizeof(note));
	tap_ok(ret && strstr(why, "not a cgroup v2 directory"),
	       "cgroup: live use wants cgroup2 (%s)", why);

	tap_ok(ow_memcg_of_path(root, "/a/b", false, &id) && id == ino(dir_a) &&
	       ow_memcg_of_path(root, "/c", false, &id) && id == ino(dir_c) &&
	       ow_memcg_of_path(root, "/", false, &id) && id == ino(root) &&
	       !ow_memcg_of_path(root, "/gone", false, &id),
	       "cgroup: a task's memcg is the nearest directory owning memory");
	remove_tree();
}

/* ------------------------------------------------------------- filter */

#define EV(ty, cur, ...) { .type = (ty), .pid = (cur), .tgid = (cur), \
			   __VA_ARGS__ }

struct fcase {
	struct oomwatch_event ev;
	struct ow_requester who;
	bool want;
};

static bool run_cases(struct ow_filter *f, const struct fcase *c, size_t n,
		      const char *what)
{
	bool ok = true;

	for (size_t i = 0; i < n; i++) {
		bool got = ow_filter_event(f, &c[i].ev, &c[i].who);

		if (got != c[i].want) {
			tap_diag("%s: case %zu (%s): got %d", what, i,
				 ow_event_type_name(c[i].ev.type), got);
			ok = false;
		}
	}
	return ok;
}

static void test_pid(void)
{
	static const struct fcase cases[] = {
		{ EV(OW_KSWAPD_WAKE, 30, .kswapd = { .nid = 0 }), {0}, false },
		{ EV(OW_UNRECLAIMABLE_SET, 30, .unrecl = { .nid = 0 }), {0},
		  true },
		{ EV(OW_OOM_REQUEST, 200, .request = { .pid = 200 }), {0},
		  true },
		{ EV(OW_OOM_REQUEST, 201, .request = { .pid = 201 }), {0},
		  false },
		{ EV(OW_OOM_DEFER, 30, .request = { .pid = 200 }), {0}, true },
		{ EV(OW_TOKEN_BYPASS, 201, .token_pass = { .reclaimer = 201,
		     .holder_tgid = 200 }), {0}, true },
		{ EV(OW_OOM_VETO, 201, .request = { .pid = 201 }), {0}, false },
		/* names another pid but settles 200's request on node 0 */
		{ EV(OW_OOM_GRANT, 30, .grant = { .pid = 202, .nid = 0 }),
		  {0}, true },
		{ EV(OW_MARK_VICTIM, 201, .victim = { .pid = 200 }), {0},
		  true },
		{ EV(OW_TASK_EXIT, 200, .exit = { .pid = 200, .tgid = 200 }),
		  {0}, true },
		{ EV(OW_OOM_GRANT, 30, .grant = { .pid = 203, .nid = 0 }),
		  {0}, false },
		/* the thrash rule: node context, and takes by pid */
		{ EV(OW_THRASHING_SET, 30, .thrash = { .nid = 0 }), {0}, true },
		{ EV(OW_THRASH_GRANT, 30, .thrash_grant = { .nid = 0 }), {0},
		  true },
		{ EV(OW_THRASH_TAKE, 201, .take = { .pid = 201 }), {0}, false },
		{ EV(OW_THRASH_TAKE, 200, .take = { .pid = 200 }), {0}, true },
		{ EV(OW_THRASHING_CLEAR, 30, .thrash = { .nid = 0 }), {0},
		  true },
	};
	struct ow_filter f;
	bool ok;

	ow_filter_init(&f, 0, NULL, NULL, false, NULL);
	ok = !ow_filter_active(&f);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		ok &= ow_filter_event(&f, &cases[i].ev, NULL);
	tap_ok(ok, "filter: without -p and -c everything is shown");
	ow_filter_free(&f);

	ow_filter_init(&f, 200, NULL, NULL, false, NULL);
	tap_ok(run_cases(&f, cases, ARRAY_SIZE(cases), "-p 200"),
	       "filter -p: its events, events naming it, grants settling its "
	       "request, its thrash take, node transitions and thrash grants; "
	       "not others");
	ow_filter_free(&f);
}

static void test_memcg(void)
{
	static struct ow_cgroup_set set = { .ids = { 5 }, .nr = 1 };
	static const struct fcase cases[] = {
		{ EV(OW_MARK_VICTIM, 1, .victim = { .pid = 10, .memcg_id = 5 }),
		  {0}, true },
		{ EV(OW_MARK_VICTIM, 1, .victim = { .pid = 11, .memcg_id = 7 }),
		  {0}, false },
		{ EV(OW_OOM_REQUEST, 12, .request = { .pid = 12, .nid = 0 }),
		  { true, 5 }, true },
		{ EV(OW_OOM_REQUEST, 13, .request = { .pid = 13, .nid = 1 }),
		  { true, 7 }, false },
		{ EV(OW_OOM_REQUEST, 14, .request = { .pid = 14, .nid = 1 }),
		  { false, 0 }, false },
		{ EV(OW_OOM_DEFER, 30, .request = { .pid = 12, .nid = 0 }),
		  {0}, true },
		{ EV(OW_OOM_GRANT, 30, .grant = { .pid = 13, .nid = 1 }), {0},
		  false },
		{ EV(OW_OOM_GRANT, 30, .grant = { .pid = 12, .nid = 0 }), {0},
		  true },
		{ EV(OW_TOKEN_GRAB, 13, .token = { .tgid = 13 }), {0}, true },
		/* a take, like a request, by its taker's memcg */
		{ EV(OW_THRASH_TAKE, 15, .take = { .pid = 15, .nid = 0 }),
		  { true, 5 }, true },
		{ EV(OW_THRASH_TAKE, 16, .take = { .pid = 16, .nid = 0 }),
		  { true, 7 }, false },
		{ EV(OW_THRASH_TAKE, 17, .take = { .pid = 17, .nid = 0 }),
		  { false, 0 }, false },
		{ EV(OW_THRASH_GRANT, 30, .thrash_grant = { .nid = 0 }), {0},
		  true },
	};
	struct ow_filter f;
	bool ok;

	ow_filter_init(&f, 0, &set, NULL, false, NULL);
	ok = run_cases(&f, cases, ARRAY_SIZE(cases), "-c");
	ok = ok && f.requests_unattributed == 1 &&
	     !ow_episodes_waiting_on(ow_ep_of(&f.ep), 0) &&
	     !ow_episodes_waiting_on(ow_ep_of(&f.ep), 1);
	ow_filter_free(&f);
	tap_ok(ok,
	       "filter -c: kills, requests and thrash takes by memcg, grants by "
	       "the requests they settle, other events pass; a request's "
	       "unknown memcg counted");
}

/* -c /job on a replay: by the paths the recording named so far. */
static void test_recorded(void)
{
	static struct ow_cgroup_set set;
	static const struct fcase cases[] = {
		{ EV(OW_MARK_VICTIM, 1, .victim = { .pid = 10, .memcg_id = 41 }),
		  {0}, true },
		{ EV(OW_MARK_VICTIM, 1, .victim = { .pid = 11, .memcg_id = 50 }),
		  {0}, false },
		{ EV(OW_MARK_VICTIM, 1, .victim = { .pid = 12, .memcg_id = 77 }),
		  {0}, false },
		{ EV(OW_OOM_REQUEST, 12, .request = { .pid = 12, .nid = 0 }),
		  { true, 40 }, true },
		{ EV(OW_OOM_REQUEST, 13, .request = { .pid = 13, .nid = 1 }),
		  { true, 50 }, false },
		{ EV(OW_OOM_REQUEST, 14, .request = { .pid = 14, .nid = 1 }),
		  { true, 77 }, false },
		{ EV(OW_OOM_REQUEST, 15, .request = { .pid = 15, .nid = 1 }),
		  { false, 0 }, false },
		{ EV(OW_OOM_DEFER, 30, .request = { .pid = 12, .nid = 0 }),
		  {0}, true },
		{ EV(OW_OOM_VETO, 30, .request = { .pid = 13, .nid = 1 }),
		  {0}, false },
		{ EV(OW_THRASH_TAKE, 18, .take = { .pid = 18, .nid = 1 }),
		  { true, 41 }, true },
		{ EV(OW_THRASH_TAKE, 19, .take = { .pid = 19, .nid = 1 }),
		  { true, 50 }, false },
	};
	struct ow_memcg_paths p;
	struct ow_filter f;
	char why[256];
	bool ok;

	ow_memcg_paths_init(&p);
	ow_memcg_paths_add(&p, 40, "/job", 0);
	ow_memcg_paths_add(&p, 41, "/job/a", 0);
	ow_memcg_paths_add(&p, 50, "/other", 0);
	ok = !ow_cgroup_resolve_recorded(&set, "/job", why, sizeof(why));
	ow_filter_init(&f, 0, &set, &p, false, NULL);
	ok = ok && run_cases(&f, cases, ARRAY_SIZE(cases), "-c /job recorded");
	ok = ok && f.requests_unattributed == 1 && f.requests_no_path == 1;
	ow_filter_free(&f);
	ow_memcg_paths_free(&p);
	tap_ok(ok, "filter -c on a replay: kills and requests by recorded "
	       "path; memcg unknown and memcg without a path counted apart");
}

int main(void)
{
	test_cgroup();
	test_pid();
	test_memcg();
	test_recorded();
	return tap_done();
}

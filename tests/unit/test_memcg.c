// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The cgroup paths of memcg ids (trace format 2): the id -> path table,
 * the walk of a tree that fills it (a scratch directory tree standing in
 * for cgroup v2: ids are inode numbers there, as on cgroupfs), -c on a
 * replay against the recording's paths, and a live session writing the
 * memcg lines: once per id, its ancestors first, before the event that
 * names it, and one walk at most for an id it cannot find.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cgroup.h"
#include "cli.h"
#include "session.h"

#include "proc.h"
#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static char root[300], dir_job[320], dir_a[340], dir_odd[340], dir_new[320];

static __u64 ino(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

/* root -> job -> a, job -> "t\xe9st \"q\"" */
static void make_tree(void)
{
	snprintf(root, sizeof(root), "%s", proc_path("memcg"));
	snprintf(dir_job, sizeof(dir_job), "%s/job", root);
	snprintf(dir_a, sizeof(dir_a), "%s/a", dir_job);
	snprintf(dir_odd, sizeof(dir_odd), "%s/t\xe9st \"q\"", dir_job);
	snprintf(dir_new, sizeof(dir_new), "%s/new", root);
	mkdir(root, 0700);
	mkdir(dir_job, 0700);
	mkdir(dir_a, 0700);
	mkdir(dir_odd, 0700);
}

static void remove_tree(void)
{
	rmdir(dir_new);
	rmdir(dir_odd);
	rmdir(dir_a);
	rmdir(dir_job);
	rmdir(root);
}

/* ------------------------------------------------------------- table */

static void test_table(void)
{
	struct ow_memcg_paths p;
	struct ow_memcg_entry *e;
	bool ok;

	ow_memcg_paths_init(&p);
	ok = !ow_memcg_path_of(&p, 5) && !ow_memcg_paths_add(&p, 0, "/", 0);
	e = ow_memcg_paths_add(&p, 5, "/a", 1);
	ok &= e && e->id == 5 && e->parent == 1 && !e->written &&
	      !strcmp(ow_memcg_path_of(&p, 5), "/a");
	/* The first path stays; a later one only fills a "not found". */
	ow_memcg_paths_add(&p, 5, "/b", 2);
	ok &= !strcmp(ow_memcg_path_of(&p, 5), "/a");
	ok &= ow_memcg_paths_add(&p, 6, NULL, 0) && !ow_memcg_path_of(&p, 6) &&
	      ow_memcg_paths_get(&p, 6);
	ow_memcg_paths_add(&p, 6, "/c", 1);
	ok &= !strcmp(ow_memcg_path_of(&p, 6), "/c");
	/* Growth keeps every entry where a lookup finds it. */
	for (__u64 id = 100; id < 5100; id++)
		ok &= ow_memcg_paths_add(&p, id << 20, "/x", 0) != NULL;
	for (__u64 id = 100; id < 5100; id++)
		ok &= ow_memcg_path_of(&p, id << 20) != NULL;
	ok &= p.nr == 5002 && !p.full && !ow_memcg_path_of(&p, 99 << 20);
	ow_memcg_paths_free(&p);
	tap_ok(ok, "memcg paths: add, first path wins, \"not found\" filled "
	       "later, 5000 ids through growth");

	ow_memcg_paths_init(&p);
	for (__u64 id = 1; id <= OW_MEMCG_MAX_PATHS; id++)
		ow_memcg_paths_add(&p, id, NULL, 0);
	ok = !p.full && !ow_memcg_paths_add(&p, OW_MEMCG_MAX_PATHS + 1, "/", 0) &&
	     p.full && p.nr == OW_MEMCG_MAX_PATHS;
	ow_memcg_paths_free(&p);
	tap_ok(ok, "memcg paths: at most %d ids, then full", OW_MEMCG_MAX_PATHS);

	ok = ow_memcg_path_under("/job/a", "/job") &&
	     ow_memcg_path_under("/job", "/job") &&
	     ow_memcg_path_under("/job", "/") && ow_memcg_path_under("/", "/") &&
	     !ow_memcg_path_under("/jobs", "/job") &&
	     !ow_memcg_path_under("/job", "/job/a") &&
	     !ow_memcg_path_under("/other", "/job");
	tap_ok(ok, "memcg paths: below is by whole components");
}

/* -------------------------------------------------------------- walk */

static void test_scan(void)
{
	struct ow_memcg_paths p;
	const struct ow_memcg_entry *e;
	bool ok;

	ow_memcg_paths_init(&p);
	ow_memcg_paths_scan(&p, root, false);
	e = ow_memcg_paths_get(&p, ino(dir_a));
	ok = p.scans == 1 && p.nr == 4 &&
	     !strcmp(ow_memcg_path_of(&p, ino(root)), "/") &&
	     !strcmp(ow_memcg_path_of(&p, ino(dir_job)), "/job") &&
	     !strcmp(ow_memcg_path_of(&p, ino(dir_odd)), "/job/t\xe9st \"q\"") &&
	     e && !strcmp(e->path, "/job/a") && e->parent == ino(dir_job) &&
	     ow_memcg_paths_get(&p, ino(dir_job))->parent == ino(root) &&
	     ow_memcg_paths_get(&p, ino(root))->parent == 0;
	ow_memcg_paths_scan(&p, "/nonexistent/cgroup", false);
	ok &= p.scans == 2 && p.nr == 4;
	ow_memcg_paths_free(&p);
	tap_ok(ok, "walk: every directory's id and path from the root, its "
	       "parent's id; a missing root adds nothing");
}

/* -------------------------------------------------- -c on a replay */

static void test_recorded_set(void)
{
	static struct ow_cgroup_set set;
	struct ow_memcg_paths p;
	char why[600];
	bool ok;

	ow_memcg_paths_init(&p);
	ow_memcg_paths_add(&p, 1, "/", 0);
	ow_memcg_paths_add(&p, 40, "/job", 0);
	ow_memcg_paths_add(&p, 41, "/job/a", 0);
	ow_memcg_paths_add(&p, 50, "/jobs", 0);

	ok = !ow_cgroup_resolve_recorded(&set, "/job//", why, sizeof(why)) &&
	     set.recorded && !strcmp(set.path, "/job") &&
	     ow_cgroup_match_recorded(&set, &p, 40) == OW_CG_IN &&
	     ow_cgroup_match_recorded(&set, &p, 41) == OW_CG_IN &&
	     ow_cgroup_match_recorded(&set, &p, 50) == OW_CG_OUT &&
	     ow_cgroup_match_recorded(&set, &p, 1) == OW_CG_OUT &&
	     ow_cgroup_match_recorded(&set, &p, 77) == OW_CG_NO_PATH;
	tap_ok(ok, "-c PATH on a replay: the path and below, by components; an "
	       "id without a path is told apart");

	ok = !ow_cgroup_resolve_recorded(&set, "40", why, sizeof(why)) &&
	     !set.path[0] && set.ids[0] == 40 &&
	     ow_cgroup_match_recorded(&set, &p, 40) == OW_CG_IN &&
	     ow_cgroup_match_recorded(&set, &p, 41) == OW_CG_IN &&
	     ow_cgroup_match_recorded(&set, &p, 50) == OW_CG_OUT &&
	     ow_cgroup_match_recorded(&set, &p, 77) == OW_CG_OUT;
	ok &= !ow_cgroup_resolve_recorded(&set, "77", why, sizeof(why)) &&
	      ow_cgroup_match_recorded(&set, &p, 77) == OW_CG_IN &&
	      ow_cgroup_match_recorded(&set, &p, 41) == OW_CG_OUT;
	tap_ok(ok, "-c ID on a replay: the id, and what the recording names "
	       "below its path (nothing more when it names no path for it)");

	ok = ow_cgroup_resolve_recorded(&set, "job", why, sizeof(why)) &&
	     strstr(why, "--cgroup job: on a replay, a memcg id or a cgroup "
		    "path") &&
	     ow_cgroup_resolve_recorded(&set, "/a/../b", why, sizeof(why)) &&
	     ow_cgroup_resolve_recorded(&set, "0", why, sizeof(why)) &&
	     !strcmp(why, "--cgroup 0: not a memcg id") &&
	     !ow_cgroup_resolve_recorded(&set, "/", why, sizeof(why)) &&
	     !strcmp(set.path, "/") &&
	     ow_cgroup_match_recorded(&set, &p, 50) == OW_CG_IN;
	tap_ok(ok, "-c on a replay: relative paths, .. and id 0 refused; / "
	       "is every named memcg");
	ow_memcg_paths_free(&p);
}

/* ------------------------------------------------ live: memcg lines */

struct live {
	struct ow_cli cli;
	struct ow_session *s;
	FILE *out, *err;
	char *out_buf, *err_buf;
	size_t out_len, err_len;
};

static void live_start(struct live *l)
{
	struct ow_session_opts so = { .live = true, .cgroup_root = root };

	memset(&l->cli, 0, sizeof(l->cli));
	l->cli.json = true;
	l->out = open_memstream(&l->out_buf, &l->out_len);
	l->err = open_memstream(&l->err_buf, &l->err_len);
	so.cli = &l->cli;
	so.out = l->out;
	so.err = l->err;
	l->s = ow_session_new(&so);
	ow_session_start(l->s, NULL, OOMWATCH_FORMAT_VERSION);
}

static void live_finish(struct live *l)
{
	ow_session_finish(l->s, 0);
	ow_session_free(l->s);
	fclose(l->out);
	fclose(l->err);
}

static void request(struct live *l, unsigned long long seq, __u64 memcg)
{
	struct oomwatch_event ev = {
		.seq = seq, .ts_ns = seq * 1000, .type = OW_OOM_REQUEST,
		.pid = 200, .tgid = 200, .comm = "hog",
		.request = { .pid = 200, .memcg_id = memcg, .comm = "hog" },
	};

	ow_session_event(l->s, &ev);
	fflush(l->out);
}

static unsigned long scans(const struct live *l)
{
	return ow_session_memcg_paths(l->s)->scans;
}

/* The memcg line of id and path, as the encoder writes it. */
static const char *line_of(char *buf, size_t size, __u64 id, const char *path)
{
	if (ow_json_format_memcg(buf, size, OOMWATCH_FORMAT_VERSION, id,
				 path) < 0)
		buf[0] = '\0';
	return buf;
}

/*
 * Where line is in the output (the memstream's buffer moves as it grows:
 * offsets, not pointers), and whether it is there once only.
 */
static bool at(const struct live *l, const char *line, size_t *off)
{
	const char *p = line[0] ? strstr(l->out_buf, line) : NULL;

	if (!p || strstr(p + 1, line)) {
		tap_diag("\"%.200s\" %s in the output", line,
			 p ? "more than once" : "not");
		return false;
	}
	*off = p - l->out_buf;
	return true;
}

static void test_live_lines(void)
{
	char l_root[128], l_job[128], l_a[128], l_odd[160], l_new[128];
	size_t o_root, o_job, o_a, o_odd, o_new;
	const char *req;
	struct live l;
	bool ok;

	line_of(l_root, sizeof(l_root), ino(root), "/");
	line_of(l_job, sizeof(l_job), ino(dir_job), "/job");
	line_of(l_a, sizeof(l_a), ino(dir_a), "/job/a");
	line_of(l_odd, sizeof(l_odd), ino(dir_odd), "/job/t\xe9st \"q\"");

	live_start(&l);
	request(&l, 0, ino(dir_a));
	req = strstr(l.out_buf, "\"type\":\"oom_request\"");
	ok = scans(&l) == 1 && at(&l, l_root, &o_root) && at(&l, l_job, &o_job) &&
	     at(&l, l_a, &o_a) && req && o_root < o_job && o_job < o_a &&
	     l.out_buf + o_a < req && strstr(req, ",\"memcg_id\":");
	tap_ok(ok, "live: the first request of a memcg writes its line and its "
	       "ancestors', root first, before the event; one walk");

	request(&l, 1, ino(dir_a));
	request(&l, 2, ino(dir_job));
	request(&l, 3, ino(dir_odd));
	ok = scans(&l) == 1 && at(&l, l_a, &o_a) && at(&l, l_job, &o_job) &&
	     at(&l, l_odd, &o_odd) && o_odd > o_a && strstr(l_odd, "\\u00e9");
	tap_ok(ok, "live: each line once; a sibling found by the same walk, "
	       "its odd bytes escaped");

	request(&l, 4, 999999999999ULL);
	request(&l, 5, 999999999999ULL);
	request(&l, 6, 0);
	ok = scans(&l) == 2 && !strstr(l.out_buf, "\"memcg_id\":999999999999,"
				       "\"path\"");
	tap_ok(ok, "live: an id no walk finds: no line, one walk, not another "
	       "for the same id; id 0 walks for nothing");

	mkdir(dir_new, 0700);
	line_of(l_new, sizeof(l_new), ino(dir_new), "/new");
	request(&l, 7, ino(dir_new));
	ok = scans(&l) == 3 && at(&l, l_new, &o_new) && at(&l, l_root, &o_root);
	tap_ok(ok, "live: a cgroup made after the last walk is found by the "
	       "next one");
	live_finish(&l);
	ok = !l.err_len;
	if (!ok)
		tap_diag("stderr: %s", l.err_buf);
	free(l.out_buf);
	free(l.err_buf);
}

/* A thrash take names its taker's memcg, as a request does. */
static void test_live_take(void)
{
	struct oomwatch_event ev = {
		.seq = 0, .ts_ns = 1000, .type = OW_THRASH_TAKE,
		.pid = 200, .tgid = 200, .comm = "hog",
		.take = { .pid = 200, .memcg_id = ino(dir_a), .comm = "hog" },
	};
	char l_root[128], l_job[128], l_a[128];
	size_t o_root, o_job, o_a;
	const char *take;
	struct live l;
	bool ok;

	line_of(l_root, sizeof(l_root), ino(root), "/");
	line_of(l_job, sizeof(l_job), ino(dir_job), "/job");
	line_of(l_a, sizeof(l_a), ino(dir_a), "/job/a");
	live_start(&l);
	ow_session_event(l.s, &ev);
	fflush(l.out);
	take = strstr(l.out_buf, "\"type\":\"oom_thrash_take\"");
	ok = scans(&l) == 1 && at(&l, l_root, &o_root) &&
	     at(&l, l_job, &o_job) && at(&l, l_a, &o_a) && take &&
	     o_root < o_job && o_job < o_a && l.out_buf + o_a < take;
	live_finish(&l);
	tap_ok(ok, "live: a thrash take writes its taker's memcg line and its "
	       "ancestors' before the event");
	free(l.out_buf);
	free(l.err_buf);
}

/* Version 1 output (a replay of a v1 recording) has no memcg lines. */
static void test_v1_session(void)
{
	struct ow_cli cli = { .json = true };
	struct ow_session_opts so = { .cli = &cli };
	struct oomwatch_event ev = {
		.type = OW_OOM_REQUEST, .request = { .pid = 1, .memcg_id = 5 },
	};
	struct ow_session *s;
	char *buf = NULL, *ebuf = NULL;
	size_t len = 0, elen = 0;
	bool ok;

	so.out = open_memstream(&buf, &len);
	so.err = open_memstream(&ebuf, &elen);
	s = ow_session_new(&so);
	ow_session_start(s, NULL, 1);
	ow_session_memcg(s, 5, "/a");
	ow_session_event(s, &ev);
	ow_session_finish(s, 0);
	ow_session_free(s);
	fclose(so.out);
	fclose(so.err);
	ok = buf && !strstr(buf, "\"type\":\"memcg\"") &&
	     !strstr(buf, "memcg_id\":5") && !strstr(buf, "{\"v\":2") &&
	     strstr(buf, "{\"v\":1,\"type\":\"header\"") &&
	     strstr(buf, "{\"v\":1,\"type\":\"summary\"");
	if (!ok)
		tap_diag("%s", buf ? buf : "");
	tap_ok(ok, "a version 1 session writes version 1 lines only");
	free(buf);
	free(ebuf);
}

int main(void)
{
	make_tree();
	test_table();
	test_scan();
	test_recorded_set();
	test_live_lines();
	test_live_take();
	test_v1_session();
	remove_tree();
	return tap_done();
}

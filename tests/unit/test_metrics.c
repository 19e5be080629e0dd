// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch --metrics: the numbers of a known trace per label (nodes past
 * OW_METRICS_NODES summed as "other", unknown reasons as "invalid",
 * seconds from the events' timestamps that never go down), the atomic
 * write (the old file intact under an open descriptor, no temporary file
 * left, on success or failure), the rewrite at the interval, the options
 * and their errors through oomwatch-host, and every fixture's replay
 * through Prometheus' own parser (check_metrics.py, with Debian's
 * python3-prometheus-client), which must also reject broken expositions.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "metrics.h"
#include "session.h"

#include "events.h"
#include "proc.h"
#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ARGV(...)	((const char *[]){ OOMWATCH_BIN, __VA_ARGS__, NULL })
#define PYTHON		"/usr/bin/python3"
#define CHECKER		TOP_DIR "/tests/unit/check_metrics.py"
#define MAN_PAGE	TOP_DIR "/man/oomwatch.8"
#define METRICS_DOC	TOP_DIR "/docs/metrics.md"

static char *slurp(const char *path)
{
	size_t len;

	return proc_slurp(path, &len);
}

/* The model, the statistics and the metrics, fed as the session does. */
struct rig {
	struct ow_episodes m;
	struct ow_stats st;
	struct ow_metrics *mx;
	unsigned long long seq;
};

static void rig_init(struct rig *r)
{
	ow_episodes_init(&r->m);
	ow_stats_init(&r->st, &r->m);
	r->mx = ow_metrics_new(&r->m, &r->st);
	r->seq = 0;
	if (!r->mx)
		exit(1);
}

static void rig_free(struct rig *r)
{
	ow_metrics_free(r->mx);
	ow_stats_free(&r->st);
	ow_episodes_free(&r->m);
}

static void rig_feed(struct rig *r, const struct oomwatch_event *evs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct oomwatch_event ev = evs[i];

		ev.seq = r->seq++;
		ow_episodes_feed(&r->m, &ev, NULL);
		ow_stats_feed(&r->st, &ev);
		ow_metrics_feed(r->mx, &ev);
	}
}

/* The exposition as a string the caller frees. */
static char *rig_text(const struct rig *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || ow_metrics_format(r->mx, NULL, f) || fclose(f))
		exit(1);
	return buf;
}

/* Every line of want is a whole line of text. */
static bool has_lines(const char *text, const char *const *want, size_t n)
{
	bool ok = true;

	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(want[i]);
		const char *p = text;

		while ((p = strstr(p, want[i])) &&
		       ((p != text && p[-1] != '\n') || p[len] != '\n'))
			p++;
		if (!p) {
			tap_diag("missing: %s", want[i]);
			ok = false;
		}
	}
	return ok;
}

static const struct oomwatch_event trace[] = {
	E(0, OW_UNRECLAIMABLE_SET, .unrecl = { .nid = 0 }),
	E(10, OW_OOM_REQUEST, .request = { .pid = 1 }),
	E(12, OW_OOM_DEFER, .request = { .pid = 1,
		.reason = OW_RULE_TOO_SOON }),
	E(13, OW_OOM_DEFER, .request = { .pid = 1,
		.reason = OW_RULE_TOO_SOON }),
	E(14, OW_OOM_DEFER, .request = { .pid = 1, .reason = 99 }),
	E(20, OW_OOM_REQUEST, .request = { .pid = 2, .nid = 1 }),
	E(21, OW_OOM_REQUEST, .request = { .pid = 3, .nid = 1 }),
	E(30, OW_OOM_VETO, .request = { .pid = 3, .nid = 1,
		.reason = OW_VETO_RECOVERED }),
	E(40, OW_OOM_FALLBACK, .request = { .pid = 2, .nid = 1,
		.reason = OW_STOCK_NOFS }),
	E(1500, OW_UNRECLAIMABLE_CLEAR, .unrecl = { .nid = 0,
		.reason = OW_CLEAR_TIMEOUT }),		/* 1.5 s */
	E(1600, OW_UNRECLAIMABLE_SET, .unrecl = { .nid = 0 }),	/* open */
	E(1700, OW_OOM_GRANT, .grant = { .pid = 1 }),
	E(1710, OW_MARK_VICTIM, .victim = { .pid = 1 }),
	E(1720, OW_MARK_VICTIM, .victim = { .pid = 5,
		.constraint = OW_CONSTRAINT_MEMCG }),
	E(1730, OW_MARK_VICTIM, .victim = { .pid = 6, .constraint = 77 }),
	E(1800, OW_TOKEN_GRAB, .token = { .tgid = 7 }),
	E(1810, OW_TOKEN_RELEASE, .token = { .tgid = 7,
		.reason = OW_TOKEN_IDLE }),
	E(1820, OW_TOKEN_BYPASS, .token_pass = { .nid = 1 }),
	E(1830, OW_TOKEN_BYPASS, .token_pass = { .nid = 1 }),
	/* thrashing from 1000 (the window's start) to 3000: 2 s */
	E(2000, OW_THRASHING_SET, .thrash = { .nid = 1, .window_ms = 1000 }),
	E(2500, OW_THRASH_GRANT, .thrash_grant = { .nid = 1 }),
	E(2510, OW_THRASH_TAKE, .take = { .pid = 9, .nid = 1 }),
	E(3000, OW_THRASHING_CLEAR, .thrash = { .nid = 1 }),
	E(3100, OW_THRASHING_SET, .thrash = { .nid = 2, .window_ms = 100 }),
	E(4000, OW_OOM_REQUEST, .request = { .pid = 4 }),	/* waits */
};

static void test_labels(void)
{
	static const char *const want[] = {
		"oomwatch_events_total 25",
		"oomwatch_oom_requests_total{node=\"0\"} 2",
		"oomwatch_oom_requests_total{node=\"1\"} 2",
		"oomwatch_oom_requests_total{node=\"2\"} 0",
		"oomwatch_oom_grants_total{node=\"0\"} 1",
		"oomwatch_oom_requests_waiting{node=\"0\"} 1",
		"oomwatch_oom_requests_waiting{node=\"1\"} 0",
		"oomwatch_oom_defers_total{node=\"0\",reason=\"too_soon\"} 2",
		"oomwatch_oom_defers_total{node=\"0\",reason=\"invalid\"} 1",
		"oomwatch_oom_vetoes_total{node=\"1\",reason=\"recovered\"} 1",
		"oomwatch_oom_fallbacks_total{node=\"1\",reason=\"nofs\"} 1",
		"oomwatch_oom_kills_total{constraint=\"global\"} 1",
		"oomwatch_oom_kills_total{constraint=\"memcg\"} 1",
		"oomwatch_oom_kills_total{constraint=\"invalid\"} 1",
		/* a constraint oomwatch cannot name is taken as global */
		"oomwatch_oom_episodes_total 2",
		"oomwatch_unreclaimable_sets_total{node=\"0\"} 2",
		/* 1.5 s closed, 1.6 s to the last event (4.0) open */
		"oomwatch_unreclaimable_seconds_total{node=\"0\"} 3.900000000",
		"oomwatch_nodes_unreclaimable 1",
		"oomwatch_thrashing_sets_total{node=\"1\"} 1",
		"oomwatch_thrashing_seconds_total{node=\"1\"} 2.000000000",
		"oomwatch_thrashing_seconds_total{node=\"2\"} 1.000000000",
		"oomwatch_nodes_thrashing 1",
		"oomwatch_thrash_grants_total{node=\"1\"} 1",
		"oomwatch_thrash_takes_total{node=\"1\"} 1",
		"oomwatch_swap_token_bypasses_total{node=\"1\"} 2",
		"oomwatch_swap_token_grabs_total{reason=\"free\"} 1",
		"oomwatch_swap_token_releases_total{reason=\"idle\"} 1",
		"oomwatch_invariant_violations_total{invariant=\"liveness\"} 0",
	};
	struct rig r;
	char *text;

	rig_init(&r);
	rig_feed(&r, trace, ARRAY_SIZE(trace));
	text = rig_text(&r);
	tap_ok(has_lines(text, want, ARRAY_SIZE(want)) &&
	       !strstr(text, "pid") && !strstr(text, "comm"),
	       "labels: a known trace counted per node, reason, constraint; "
	       "no pid or comm");
	free(text);
	rig_free(&r);
}

/*
 * The clear of an open spell carries an older timestamp than the last
 * event (another CPU's): the seconds stay where the last write had them.
 */
static void test_monotonic(void)
{
	static const struct oomwatch_event late[] = {
		E(3999, OW_UNRECLAIMABLE_CLEAR, .unrecl = { .nid = 0,
			.reason = OW_CLEAR_PROGRESS }),
	};
	static const char *const want[] = {
		"oomwatch_unreclaimable_seconds_total{node=\"0\"} 3.900000000",
		"oomwatch_nodes_unreclaimable 0",
	};
	struct rig r;
	char *text;

	rig_init(&r);
	rig_feed(&r, trace, ARRAY_SIZE(trace));
	rig_feed(&r, late, ARRAY_SIZE(late));
	text = rig_text(&r);
	tap_ok(has_lines(text, want, ARRAY_SIZE(want)),
	       "seconds: a clear older than the last event takes nothing back");
	free(text);
	rig_free(&r);
}

/* Nodes past the first OW_METRICS_NODES named share node="other". */
static void test_other(void)
{
	struct oomwatch_event ev = E(1, OW_OOM_REQUEST, .request = { 0 });
	char other[80];
	struct rig r;
	size_t labels = 0;
	char *text, *p;

	rig_init(&r);
	for (int i = 0; i < OW_METRICS_NODES + 6; i++) {
		ev.request.pid = 100 + i;
		ev.request.nid = 1000 - i;
		rig_feed(&r, &ev, 1);
	}
	text = rig_text(&r);
	for (p = text; (p = strstr(p, "oomwatch_oom_requests_total{")); p++)
		labels++;
	snprintf(other, sizeof(other),
		 "oomwatch_oom_requests_total{node=\"other\"} 6");
	tap_ok(labels == OW_METRICS_NODES + 1 &&
	       has_lines(text, (const char *const[]){ other }, 1),
	       "labels: %d nodes of their own, 6 more as node=\"other\" "
	       "(%zu series)", OW_METRICS_NODES, labels);
	free(text);
	rig_free(&r);
}

/* Any file of the scratch directory whose name holds ".tmp.". */
static bool temp_left(const char *path)
{
	char dir[512], *slash;
	struct dirent *d;
	bool found = false;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	dp = opendir(dir);
	if (!dp)
		return true;
	while ((d = readdir(dp)))
		if (strstr(d->d_name, ".tmp."))
			found = true;
	closedir(dp);
	return found;
}

static void test_atomic(void)
{
	const char *path = proc_write("atomic.prom", "old\n", 4);
	const char *sub = proc_path("sub");
	char old[8] = "", *got, *want, bad[600];
	struct stat before, after;
	struct rig r;
	int fd;
	bool ok;

	rig_init(&r);
	rig_feed(&r, trace, ARRAY_SIZE(trace));
	fd = open(path, O_RDONLY);
	stat(path, &before);
	ok = fd >= 0 && !ow_metrics_write(r.mx, NULL, path);
	got = slurp(path);
	want = rig_text(&r);
	stat(path, &after);
	/* The reader of the old file kept it whole: renamed over, not
	 * rewritten in place. */
	ok = ok && pread(fd, old, sizeof(old) - 1, 0) == 4 &&
	     !strcmp(old, "old\n") && before.st_ino != after.st_ino;
	tap_ok(ok && got && !strcmp(got, want) && !temp_left(path),
	       "write: the whole exposition renamed over FILE; the old one "
	       "intact for its reader; no temporary file left");
	if (fd >= 0)
		close(fd);
	free(got);
	free(want);

	/* Renaming onto a directory fails: the temporary file goes too. */
	mkdir(sub, 0700);
	errno = 0;
	ok = ow_metrics_write(r.mx, NULL, sub) && errno == EISDIR &&
	     !temp_left(sub);
	rmdir(sub);
	snprintf(bad, sizeof(bad), "%s/no-such-dir/m.prom", sub);
	errno = 0;
	ok = ok && ow_metrics_write(r.mx, NULL, bad) && errno == ENOENT;
	tap_ok(ok, "write: a FILE that cannot be written fails with errno, "
	       "and leaves no temporary file");
	rig_free(&r);
}

static bool file_has(const char *path, const char *line)
{
	char *text = slurp(path);
	bool ok = text && has_lines(text, &line, 1);

	free(text);
	return ok;
}

/* The session writes at start, then at each interval, then at the end. */
static void test_interval(void)
{
	const char *path = proc_path("tick.prom");
	struct ow_cli cli = { .metrics = path, .metrics_interval = 15 };
	struct oomwatch_event ev = E(5, OW_OOM_REQUEST, .request = { .pid = 1 });
	unsigned long long t0 = 1000ULL * 1000000000ULL;
	struct ow_session_opts so = { .cli = &cli, .live = true };
	struct ow_session *s;
	bool ok;

	so.out = fopen("/dev/null", "w");
	so.err = stderr;
	s = ow_session_new(&so);
	ok = s && !ow_session_start(s, NULL, OOMWATCH_FORMAT_VERSION) &&
	     file_has(path, "oomwatch_events_total 0");
	ow_session_metrics_tick(s, t0);
	ow_session_event(s, &ev);
	ow_session_metrics_tick(s, t0 + 14ULL * 1000000000ULL);
	ok = ok && file_has(path, "oomwatch_events_total 0");
	ow_session_metrics_tick(s, t0 + 15ULL * 1000000000ULL);
	ok = ok && file_has(path, "oomwatch_events_total 1") &&
	     file_has(path, "oomwatch_oom_requests_waiting{node=\"0\"} 1");
	ow_session_event(s, &(struct oomwatch_event)E(6, OW_OOM_VETO,
		.seq = 1, .request = { .pid = 1 }));
	ow_session_metrics_tick(s, t0 + 16ULL * 1000000000ULL);
	ok = ok && file_has(path, "oomwatch_events_total 1");
	ok = ok && ow_session_finish(s, 0) == OW_EXIT_OK &&
	     file_has(path, "oomwatch_events_total 2") &&
	     file_has(path, "oomwatch_oom_requests_waiting{node=\"0\"} 0");
	tap_ok(ok, "interval: written at start, again 15 s later (not at 14), "
	       "and at the end");
	ow_session_free(s);
	fclose(so.out);
}

struct cli_case {
	const char *const *argv;
	const char *err;	/* in stderr */
	const char *path;	/* or stderr is one line: path and errnum */
	int errnum;
	const char *what;
};

static void run_cli(const struct cli_case *c)
{
	struct proc_result r;
	char line[1400];
	bool ok;

	if (c->path)
		snprintf(line, sizeof(line), "oomwatch: --metrics %s: %s\n",
			 c->path, strerror(c->errnum));
	ok = !proc_run(c->argv, NULL, &r) && r.status == OW_EXIT_SETUP &&
	     (c->path ? !strcmp(r.err, line) : !!strstr(r.err, c->err));
	if (!tap_ok(ok, "cli: %s (exit 1)", c->what))
		tap_diag("exit %d, stderr: %.300s", r.status,
			 r.err ? r.err : "");
	proc_free(&r);
}

static void test_cli(void)
{
	const char *fix = FIXTURE_DIR "/arbiter_ok.jsonl";
	char *rec = slurp(fix);
	const char *in = proc_write("in.jsonl", rec, strlen(rec));
	const char *m = proc_path("cli.prom"), *r = proc_path("cli.jsonl");
	char in2[600], r2[600], nodir[600], notdir[600];

	free(rec);
	snprintf(in2, sizeof(in2), "%.*s/./in.jsonl",
		 (int)(strrchr(in, '/') - in), in);
	snprintf(r2, sizeof(r2), "%.*s/./cli.jsonl",
		 (int)(strrchr(r, '/') - r), r);
	snprintf(nodir, sizeof(nodir), "%s.d/m.prom", m);
	snprintf(notdir, sizeof(notdir), "%s/m.prom", in);

	const struct cli_case cases[] = {
		{ ARGV("--metrics", m, "--metrics-interval", "0"),
		  "invalid metrics interval \"0\": expected a number from 1 "
		  "to 86400", NULL, 0, "--metrics-interval 0" },
		{ ARGV("--metrics", m, "--metrics-interval", "1.5"),
		  "invalid metrics interval \"1.5\"", NULL, 0,
		  "--metrics-interval 1.5" },
		{ ARGV("--metrics", m, "--metrics-interval", "86401"),
		  "invalid metrics interval \"86401\"", NULL, 0,
		  "--metrics-interval 86401" },
		{ ARGV("--metrics-interval", "5"),
		  "oomwatch: --metrics-interval needs --metrics\n", NULL, 0,
		  "--metrics-interval without --metrics" },
		{ ARGV("--replay", in, "--metrics", m, "--metrics-interval",
		       "5"), "--metrics-interval is for live tracing", NULL, 0,
		  "--metrics-interval with --replay" },
		{ ARGV("--replay", in, "--metrics", "-"),
		  "--metrics needs a file name", NULL, 0, "--metrics -" },
		{ ARGV("--replay", in, "--metrics", in),
		  "--metrics would overwrite the --replay file", NULL, 0,
		  "--metrics FILE of --replay" },
		{ ARGV("--replay", in, "--metrics", in2),
		  "--metrics would overwrite it", NULL, 0,
		  "--metrics FILE of --replay, spelled otherwise" },
		{ ARGV("--replay", in, "--record", r, "--metrics", r),
		  "--record and --metrics name the same file", NULL, 0,
		  "--metrics FILE of --record" },
		{ ARGV("--replay", in, "--record", r, "--metrics", r2),
		  "is the file of --record: it would overwrite it", NULL, 0,
		  "--metrics FILE of --record, spelled otherwise" },
		{ ARGV("--replay", in, "--svg", r, "--metrics", r),
		  "--svg and --metrics name the same file", NULL, 0,
		  "--metrics FILE of --svg" },
		{ ARGV("--replay", in, "-s", "--metrics", nodir), NULL,
		  nodir, ENOENT, "--metrics in a directory that does not "
		  "exist: one line" },
		{ ARGV("--replay", in, "-s", "--metrics", notdir), NULL,
		  notdir, ENOTDIR, "--metrics under a file, not a directory: "
		  "one line" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		run_cli(&cases[i]);
	rec = slurp(in);
	tap_ok(rec && !strncmp(rec, "{\"v\":1,", 7),
	       "cli: the --replay file is untouched by the refusals");
	free(rec);
}

/*
 * A directory nobody may create files in: a mode 0500 one, or for root,
 * who ignores modes, sysfs (EACCES, or EROFS where it is mounted so).
 * The errno is this process's own attempt's.
 */
static void test_unwritable(void)
{
	const char *dir = proc_path("ro.d");
	char path[600];
	int fd, errnum;

	mkdir(dir, 0500);
	snprintf(path, sizeof(path), "%s/m.prom",
		 geteuid() ? dir : "/sys");
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	errnum = errno;
	if (fd >= 0) {
		close(fd);
		unlink(path);
		tap_ok(false, "cli: %s should not be writable", path);
	} else {
		run_cli(&(struct cli_case){ ARGV("--replay", FIXTURE_DIR
			"/arbiter_ok.jsonl", "-s", "--metrics", path), NULL,
			path, errnum, "--metrics in a directory it may not "
			"write: one line" });
	}
	rmdir(dir);
}

/* check_metrics.py on files: its exit status, its stderr in *err. */
static int parse(const char *const *files, size_t n, char **err)
{
	const char *argv[32] = { PYTHON, CHECKER, "--doc", MAN_PAGE, "--doc",
				 METRICS_DOC };
	size_t argc = 6;
	struct proc_result r;
	int status;

	for (size_t i = 0; i < n && argc < ARRAY_SIZE(argv) - 1; i++)
		argv[argc++] = files[i];
	argv[argc] = NULL;
	if (proc_run(argv, NULL, &r))
		return -1;
	status = r.status;
	*err = strdup(r.err ? r.err : "");
	proc_free(&r);
	return status;
}

/* Every fixture replayed with --metrics, twice; Prometheus' parser. */
static void test_fixtures(void)
{
	const char *files[24];
	size_t n = 0;
	bool same = true, ran = true;
	glob_t g;
	char *err;
	int status;

	if (glob(FIXTURE_DIR "/*.jsonl", 0, NULL, &g) || !g.gl_pathc) {
		tap_ok(false, "fixtures: none found in " FIXTURE_DIR);
		return;
	}
	for (size_t i = 0; i < g.gl_pathc && n < ARRAY_SIZE(files); i++) {
		char name[64];
		char *a, *b;
		struct proc_result r;

		snprintf(name, sizeof(name), "fixture%zu.prom", i);
		files[n] = strdup(proc_path(name));
		for (int k = 0; k < 2; k++) {
			ran = ran && !proc_run(ARGV("--replay", g.gl_pathv[i],
					       "-s", "--metrics", files[n]),
					       NULL, &r) && !r.status;
			proc_free(&r);
			if (!k)
				rename(files[n], proc_path("again.prom"));
		}
		a = slurp(files[n]);
		b = slurp(proc_path("again.prom"));
		same = same && a && b && !strcmp(a, b);
		free(a);
		free(b);
		n++;
	}
	tap_ok(ran && same, "fixtures: %zu replays with --metrics exit 0, the "
	       "same file each time", n);
	status = parse(files, n, &err);
	if (!tap_ok(status == 0, "fixtures: %zu expositions parsed by "
		    "prometheus_client (" PYTHON "), conventions kept, every "
		    "family in oomwatch.8 and docs/metrics.md", n))
		tap_diag("exit %d (python3-prometheus-client installed?): "
			 "%.600s", status, err);
	free(err);
	for (size_t i = 0; i < n; i++)
		free((char *)files[i]);
	globfree(&g);
}

/* A recording's shed line reaches its counter; lost ones stay apart. */
static void test_shed(void)
{
	const char *m = proc_path("shed.prom");
	struct proc_result r;
	char *text = NULL;
	bool ok;

	ok = !proc_run(ARGV("--replay", FIXTURE_DIR "/shed_v5.jsonl", "-s",
			    "--metrics", m), NULL, &r) && !r.status &&
	     (text = slurp(m)) &&
	     strstr(text, "\noomwatch_shed_events_total 1200\n") &&
	     strstr(text, "\noomwatch_lost_events_total 0\n");
	tap_ok(ok, "shed: a recording's 1200 shed context records are "
	       "oomwatch_shed_events_total, none lost");
	free(text);
	proc_free(&r);
}

/* The check can fail: a broken exposition, an unbounded label. */
static void test_rejects(void)
{
	static const char broken[] =
		"# HELP oomwatch_x_total x\n# TYPE oomwatch_x_total counter\n"
		"oomwatch_x_total{node=\"0\" 1\n";
	static const char pid[] =
		"# HELP oomwatch_x_total x\n# TYPE oomwatch_x_total counter\n"
		"oomwatch_x_total{pid=\"42\"} 1\n";
	const char *f;
	char *err;
	int status;

	f = proc_write("broken.prom", broken, sizeof(broken) - 1);
	status = parse(&f, 1, &err);
	tap_ok(status == 1 && strstr(err, "rejected by the parser"),
	       "parser: a label set without its brace is rejected (exit %d)",
	       status);
	free(err);
	f = proc_write("pid.prom", pid, sizeof(pid) - 1);
	status = parse(&f, 1, &err);
	tap_ok(status == 1 && strstr(err, "labels ['pid']"),
	       "parser: a pid label is refused (exit %d)", status);
	free(err);
}

int main(void)
{
	test_labels();
	test_monotonic();
	test_other();
	test_atomic();
	test_interval();
	test_cli();
	test_unwritable();
	test_fixtures();
	test_shed();
	test_rejects();
	return tap_done();
}

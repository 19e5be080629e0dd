// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --journal and the recording's rotation, through the session as the
 * live run drives it:
 *  - a recorded OOM (guest_oom_true.jsonl) fed to a session in journal
 *    mode: one entry per timeline line, the kill a warning with its
 *    victim, its permit and the grant's evidence, the grant a notice, the
 *    summary an entry of its own, nothing on stdout;
 *  - a violation is an error entry naming its invariant;
 *  - a refusing journal is counted and said at the end;
 *  - --record-max-size rotates: FILE.1 ... FILE.keep, the oldest
 *    deleted, every file begins with the header and replays;
 *  - SIGHUP's reopen rotates a file still at its name and starts anew
 *    when it was moved away;
 *  - with rotation on, a previous run's recording is kept as FILE.1.
 */
#define _GNU_SOURCE		/* open_memstream, mkdtemp */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/stat.h>
#include "journal.h"
#include "replay.h"
#include "session.h"
#include "trace.h"

#include "events.h"
#include "tap.h"

#define MAX_ENTRIES	512

struct capture {
	char *entry[MAX_ENTRIES];	/* fields joined by '\n' */
	int n;
	int refuse;			/* < 0: return this */
};

static int capture_send(void *ctx, const struct iovec *iov, int n)
{
	struct capture *c = ctx;
	size_t len = 0;
	char *e;

	if (c->refuse)
		return c->refuse;
	for (int i = 0; i < n; i++)
		len += iov[i].iov_len + 1;
	e = malloc(len + 1);
	if (!e || c->n == MAX_ENTRIES) {
		free(e);
		return -ENOMEM;
	}
	len = 0;
	for (int i = 0; i < n; i++) {
		memcpy(e + len, iov[i].iov_base, iov[i].iov_len);
		len += iov[i].iov_len;
		e[len++] = '\n';
	}
	e[len] = '\0';
	c->entry[c->n++] = e;
	return 0;
}

static void capture_free(struct capture *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->entry[i]);
	c->n = 0;
}

/* The entry's value of field name ("NAME=" at a line start), or NULL. */
static const char *field(const char *entry, const char *name,
			 char *buf, size_t size)
{
	size_t nl = strlen(name);
	const char *p = entry;

	while (p && *p) {
		if (!strncmp(p, name, nl) && p[nl] == '=') {
			const char *end = strchr(p, '\n');
			size_t len = end ? (size_t)(end - p - nl - 1) :
				     strlen(p + nl + 1);

			if (len >= size)
				len = size - 1;
			memcpy(buf, p + nl + 1, len);
			buf[len] = '\0';
			return buf;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static bool has(const char *entry, const char *name, const char *value)
{
	char buf[512];
	const char *v = field(entry, name, buf, sizeof(buf));

	return v && (!value || !strcmp(v, value));
}

/* The first entry with OOMWATCH_EVENT=event, or NULL. */
static const char *find(const struct capture *c, const char *event)
{
	for (int i = 0; i < c->n; i++)
		if (has(c->entry[i], "OOMWATCH_EVENT", event))
			return c->entry[i];
	return NULL;
}

static int count(const struct capture *c, const char *event)
{
	int n = 0;

	for (int i = 0; i < c->n; i++)
		n += has(c->entry[i], "OOMWATCH_EVENT", event);
	return n;
}

struct run {
	struct ow_cli cli;
	struct capture cap;
	struct ow_session *s;
	FILE *out, *err;
	char *out_buf, *err_buf;
	size_t out_len, err_len;
};

static void run_start(struct run *r, const struct ow_header *h)
{
	struct ow_session_opts so = { .live = true };

	r->out = open_memstream(&r->out_buf, &r->out_len);
	r->err = open_memstream(&r->err_buf, &r->err_len);
	so.cli = &r->cli;
	so.out = r->out;
	so.err = r->err;
	so.journal_send = capture_send;
	so.journal_ctx = &r->cap;
	r->s = ow_session_new(&so);
	ow_session_start(r->s, h, OOMWATCH_FORMAT_VERSION);
}

static int run_finish(struct run *r)
{
	int ret = ow_session_finish(r->s, 0);

	ow_session_free(r->s);
	fclose(r->out);
	fclose(r->err);
	return ret;
}

static void run_free(struct run *r)
{
	capture_free(&r->cap);
	free(r->out_buf);
	free(r->err_buf);
}

/* Feeds a fixture's header and events; false when it cannot be read. */
static bool feed_fixture(struct run *r, const char *name)
{
	char path[512];
	struct ow_reader rd;
	struct ow_record rec;
	bool started = false;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", FIXTURE_DIR, name);
	f = fopen(path, "r");
	if (!f)
		return false;
	ow_reader_init(&rd, f, path);
	while ((ret = ow_reader_next(&rd, &rec)) == 1) {
		if (rec.kind == OW_REC_HEADER && !started) {
			run_start(r, &rec.header);
			started = true;
		} else if (rec.kind == OW_REC_EVENT) {
			if (!started) {
				run_start(r, NULL);
				started = true;
			}
			ow_session_event(r->s, &rec.event);
		}
	}
	fclose(f);
	return ret == 0 && started;
}

static void test_recorded_oom(void)
{
	struct run r = { 0 };
	const char *kill, *grant;
	int ret;

	r.cli.journal = true;
	if (!tap_ok(feed_fixture(&r, "guest_oom_true.jsonl"),
		    "journal: guest_oom_true.jsonl read"))
		return;
	ret = run_finish(&r);
	tap_ok(ret == 0, "journal: the run ends with status 0 (%d)", ret);
	tap_ok(r.out_len == 0, "journal: nothing on stdout (%zu bytes)",
	       r.out_len);
	kill = find(&r.cap, "kill");
	grant = find(&r.cap, "grant");
	tap_ok(count(&r.cap, "kill") == 1, "journal: one kill entry (%d)",
	       count(&r.cap, "kill"));
	tap_ok(kill && has(kill, "PRIORITY", "4") &&
	       has(kill, "SYSLOG_IDENTIFIER", "oomwatch"),
	       "journal: the kill is a warning from oomwatch");
	tap_ok(kill && has(kill, "OOMWATCH_VICTIM_PID", NULL) &&
	       has(kill, "OOMWATCH_VICTIM_COMM", NULL) &&
	       has(kill, "OOMWATCH_VICTIM_RSS_KB", NULL) &&
	       has(kill, "OOMWATCH_CONSTRAINT", NULL),
	       "journal: the kill names its victim and constraint");
	tap_ok(kill && has(kill, "OOMWATCH_PERMIT", "grant") &&
	       has(kill, "OOMWATCH_PERMIT_SEQ", NULL) &&
	       has(kill, "OOMWATCH_GRANT_UNRECLAIMABLE_MS", NULL) &&
	       has(kill, "OOMWATCH_GRANT_ZONES", NULL),
	       "journal: the kill carries its grant and the grant's evidence");
	if (kill && grant) {
		char a[64], b[64];

		tap_ok(!strcmp(field(kill, "OOMWATCH_PERMIT_SEQ", a, sizeof(a)),
			       field(grant, "OOMWATCH_SEQ", b, sizeof(b))),
		       "journal: the kill's permit is the grant entry's seq "
		       "(%s, %s)", a, b);
	} else {
		tap_ok(false, "journal: the kill's permit is the grant entry's "
		       "seq (entries missing)");
	}
	tap_ok(kill && has(kill, "MESSAGE", NULL) &&
	       strstr(kill, " KILL ") != NULL,
	       "journal: the kill's message is its timeline line");
	tap_ok(grant && has(grant, "PRIORITY", "5"),
	       "journal: the grant is a notice");
	tap_ok(count(&r.cap, "request") == 2 && count(&r.cap, "defer") == 2 &&
	       count(&r.cap, "fallback") == 1,
	       "journal: requests, defers, fallback one entry each");
	tap_ok(count(&r.cap, "summary") == 1,
	       "journal: the summary is one entry");
	tap_ok(count(&r.cap, "kswapd_wake") == 0,
	       "journal: evidence-only events send nothing");
	run_free(&r);
}

static void test_violation(void)
{
	struct run r = { 0 };
	const char *v;
	/* A kill with no grant, fallback or take on a kernel with the arbiter. */
	struct oomwatch_event ev[] = {
		E_BY(10, OW_MARK_VICTIM, 300, "hog",
		     .victim = { .pid = 200, .comm = "victim",
				 .constraint = 0 }),
	};
	struct ow_header h = { 0 };

	ow_config_unknown(&h.config);
	h.config.oom_arbiter = 1;
	h.kswapd_period_ms = 1000;
	r.cli.journal = true;
	run_start(&r, &h);
	ev[0].seq = 1;
	ow_session_event(r.s, &ev[0]);
	run_finish(&r);
	v = find(&r.cap, "violation");
	tap_ok(v && has(v, "PRIORITY", "3") &&
	       has(v, "OOMWATCH_INVARIANT", NULL),
	       "journal: a violation is an error entry naming its invariant");
	v = find(&r.cap, "kill");
	tap_ok(v && has(v, "OOMWATCH_PERMIT", "none"),
	       "journal: a kill with no permit says none");
	run_free(&r);
}

static void test_refused(void)
{
	struct run r = { 0 };

	r.cli.journal = true;
	r.cap.refuse = -ECONNREFUSED;
	feed_fixture(&r, "guest_oom_true.jsonl");
	run_finish(&r);
	tap_ok(r.err_buf && strstr(r.err_buf, "--journal: ") &&
	       strstr(r.err_buf, "entries not sent"),
	       "journal: entries the journal refused are said on stderr");
	run_free(&r);
}

/* ------------------------------------------------------------- rotation */

static char dir[] = "/tmp/ow-journal-test-XXXXXX";

static bool exists(const char *name)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return !access(p, F_OK);
}

/* The file replays: a header first, its events read without error. */
static bool replays(const char *name, int *events)
{
	char p[512];
	struct ow_reader rd;
	struct ow_record rec;
	bool header = false;
	FILE *f;
	int ret;

	*events = 0;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "r");
	if (!f)
		return false;
	ow_reader_init(&rd, f, p);
	while ((ret = ow_reader_next(&rd, &rec)) == 1) {
		if (rec.kind == OW_REC_HEADER)
			header = true;
		*events += rec.kind == OW_REC_EVENT;
	}
	fclose(f);
	return ret == 0 && header;
}

static void feed_many(struct run *r, int from, int n)
{
	for (int i = from; i < from + n; i++) {
		struct oomwatch_event ev = E(i, OW_KSWAPD_WAKE);

		ev.seq = i;
		ow_session_event(r->s, &ev);
	}
}

static void test_rotation(void)
{
	char rec[512];
	struct run r = { 0 };
	struct ow_header h = { 0 };
	int events;
	bool ok;

	if (!tap_ok(mkdtemp(dir) != NULL, "rotation: scratch directory"))
		return;
	snprintf(rec, sizeof(rec), "%s/oomwatch.jsonl", dir);
	ow_config_unknown(&h.config);
	h.kswapd_period_ms = 1000;
	r.cli.summary_only = true;
	r.cli.record = rec;
	r.cli.record_max = 4096;
	r.cli.record_keep = 2;
	run_start(&r, &h);
	feed_many(&r, 0, 200);	/* about 150 bytes an event: 7 files */
	tap_ok(exists("oomwatch.jsonl") && exists("oomwatch.jsonl.1") &&
	       exists("oomwatch.jsonl.2") && !exists("oomwatch.jsonl.3"),
	       "rotation: FILE, FILE.1, FILE.2 kept, no FILE.3 (keep 2)");
	ok = replays("oomwatch.jsonl.1", &events);
	tap_ok(ok && events > 10,
	       "rotation: a rotated file has the header and replays "
	       "(%d events)", events);
	/* SIGHUP with the file in place: rotated, a new one begun. */
	ow_session_reopen_record(r.s);
	ok = replays("oomwatch.jsonl", &events);
	tap_ok(ok && events == 0,
	       "reopen: FILE in place is rotated, the new one has the header "
	       "only (%d events)", events);
	/* SIGHUP after logrotate moved it: FILE is only created again. */
	{
		char moved[600];

		snprintf(moved, sizeof(moved), "%s/moved.jsonl", dir);
		rename(rec, moved);
	}
	feed_many(&r, 200, 5);
	ow_session_reopen_record(r.s);
	feed_many(&r, 205, 3);
	ok = replays("moved.jsonl", &events);
	tap_ok(ok && events == 5,
	       "reopen: a moved file keeps what was written before the "
	       "signal (%d events)", events);
	run_finish(&r);
	ok = replays("oomwatch.jsonl", &events);
	tap_ok(ok && events == 3,
	       "reopen: a moved file is not rotated again, FILE starts anew "
	       "(%d events)", events);
	run_free(&r);

	/* A new run with rotation on keeps the previous one as FILE.1. */
	memset(&r, 0, sizeof(r));
	r.cli.summary_only = true;
	r.cli.record = rec;
	r.cli.record_max = 1 << 20;
	r.cli.record_keep = 2;
	run_start(&r, &h);
	feed_many(&r, 0, 1);
	run_finish(&r);
	ok = replays("oomwatch.jsonl.1", &events);
	tap_ok(ok && events == 3,
	       "rotation: a restart keeps the previous run as FILE.1 "
	       "(%d events)", events);
	run_free(&r);
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			tap_diag("could not remove %s", dir);
	}
}

/* --assert on one file, as `oomwatch --replay FILE --assert -s`. */
static int assert_replay(const char *path)
{
	struct ow_cli cli = { 0 };
	FILE *null = fopen("/dev/null", "w");
	int ret;

	cli.replay = path;
	cli.assert_mode = true;
	cli.summary_only = true;
	cli.record_keep = OW_RECORD_KEEP_DEFAULT;
	ret = ow_replay(&cli, null, null);
	fclose(null);
	return ret;
}

/*
 * A recorded OOM (26 kB, in an OOM from its 9th line to its end) with a
 * 12 kB cap: the rotation waits until nothing is in flight, and both
 * files pass --assert on their own.  Cut where the size says, the second
 * file would begin with a kill whose grant is in the first.
 */
static void test_rotation_quiet(void)
{
	char rec[512], name[600];
	struct run r = { 0 };
	int files = 0, bad = 0;

	if (!tap_ok(mkdtemp(dir) != NULL, "quiet rotation: scratch directory"))
		return;
	snprintf(rec, sizeof(rec), "%s/oomwatch.jsonl", dir);
	r.cli.summary_only = true;
	r.cli.record = rec;
	r.cli.record_max = 12 << 10;
	r.cli.record_keep = 10;
	feed_fixture(&r, "guest_oom_true.jsonl");
	run_finish(&r);
	for (int n = 0; n <= 10; n++) {
		if (n)
			snprintf(name, sizeof(name), "%s.%d", rec, n);
		else
			snprintf(name, sizeof(name), "%s", rec);
		if (access(name, F_OK))
			continue;
		files++;
		if (assert_replay(name)) {
			bad++;
			tap_diag("%s fails --assert", name);
		}
	}
	tap_ok(files == 2 && bad == 0, "quiet rotation: %d files, %d fail "
	       "--assert (want 2, 0)", files, bad);
	run_free(&r);
	snprintf(name, sizeof(name), "rm -rf '%s'", dir);
	if (system(name))
		tap_diag("could not remove %s", dir);
}

int main(void)
{
	test_recorded_oom();
	test_violation();
	test_refused();
	test_rotation();
	strcpy(dir, "/tmp/ow-journal-test-XXXXXX");
	test_rotation_quiet();
	return tap_done();
}

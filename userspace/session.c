// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: one run's event path; session.h says where things go.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <syslog.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "checker.h"
#include "journal.h"
#include "metrics.h"
#include "output.h"
#include "session.h"
#include "stats.h"
#include "svg.h"

#define KSWAPD_PERIOD_MS	1000	/* HZ-independent: kswapd's timer */

struct ow_session {
	struct ow_session_opts o;
	struct ow_header hdr;
	unsigned int version;	/* of the source, and of what is written */
	struct ow_memcg_paths paths;	/* memcg id -> cgroup path */
	bool have_header;
	bool started;
	bool timeline;		/* the human timeline is on out */
	bool json_events;	/* JSON event lines are on out */
	FILE *record;
	bool record_failed;
	int record_errno;
	long long record_bytes;		/* --record-max-size: in the file */
	bool journal_on;		/* --journal: the timeline goes there */
	struct ow_journal journal;
	struct ow_episodes episodes;	/* fed once per event, read by all */
	struct ow_checker checker;
	struct ow_stats stats;
	struct ow_out out;
	struct ow_filter filter;
	struct ow_svg *svg;
	struct ow_metrics *metrics;	/* --metrics */
	bool metrics_open;		/* written once: FILE works */
	unsigned long long metrics_due;	/* live: next write, CLOCK_MONOTONIC */
	bool metrics_failed;		/* a write failed, said once */
	unsigned long long events;
	unsigned long long lost;
	unsigned long long last_ts;
};

struct ow_session *ow_session_new(const struct ow_session_opts *opts)
{
	struct ow_session *s = calloc(1, sizeof(*s));

	if (!s) {
		fprintf(opts->err, "oomwatch: out of memory\n");
		return NULL;
	}
	s->o = *opts;
	if (opts->cli->svg) {
		s->svg = ow_svg_new();
		if (!s->svg) {
			fprintf(opts->err, "oomwatch: out of memory\n");
			free(s);
			return NULL;
		}
	}
	if (opts->cli->journal) {
		if (ow_journal_init(&s->journal, opts->journal_send,
				    opts->journal_ctx)) {
			fprintf(opts->err, "oomwatch: out of memory\n");
			ow_svg_free(s->svg);
			free(s);
			return NULL;
		}
		s->journal_on = true;
	}
	ow_episodes_init(&s->episodes);
	ow_stats_init(&s->stats, &s->episodes);
	ow_memcg_paths_init(&s->paths);
	if (opts->cli->metrics) {
		s->metrics = ow_metrics_new(&s->episodes, &s->stats);
		if (!s->metrics) {
			fprintf(opts->err, "oomwatch: out of memory\n");
			ow_session_free(s);
			return NULL;
		}
	}
	s->version = OOMWATCH_FORMAT_VERSION;
	return s;
}

void ow_session_free(struct ow_session *s)
{
	if (!s)
		return;
	if (s->record)
		fclose(s->record);
	if (s->journal_on)
		ow_journal_free(&s->journal);
	ow_svg_free(s->svg);
	ow_metrics_free(s->metrics);
	ow_stats_free(&s->stats);
	if (s->started) {
		ow_checker_free(&s->checker);
		ow_filter_free(&s->filter);
		ow_out_free(&s->out);
	}
	ow_episodes_free(&s->episodes);
	ow_memcg_paths_free(&s->paths);
	free(s);
}

unsigned long long ow_session_events(const struct ow_session *s)
{
	return s->events;
}

static void report(void *ctx, const struct ow_violation *v)
{
	struct ow_session *s = ctx;

	if (s->timeline)
		ow_out_violation(&s->out, v);
	else
		fprintf(s->o.err, "oomwatch: violation: %s\n", v->msg);
	if (s->journal_on)
		ow_journal_violation(&s->journal, v);
}

/* Remember the first write error; the run goes on, the exit says it. */
static void record_result(struct ow_session *s, int ret)
{
	if (ret && !s->record_failed) {
		s->record_failed = true;
		s->record_errno = errno ? errno : EIO;
	}
}

/* Two names of one file: the same device and inode. */
static bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static int same_as_svg(struct ow_session *s)
{
	fprintf(s->o.err, "oomwatch: --record %s and --svg %s are the same "
		"file: the picture would overwrite the recording\n",
		s->o.cli->record, s->o.cli->svg);
	return OW_EXIT_SETUP;
}

/* FILE.N, for a rotation. */
static int rotated_name(char *buf, size_t size, const char *path, long n)
{
	int len = snprintf(buf, size, "%s.%ld", path, n);

	return len < 0 || (size_t)len >= size ? -1 : 0;
}

/*
 * FILE -> FILE.1 -> FILE.2 ... -> FILE.keep, the oldest beyond deleted;
 * what cannot be renamed stays where it is (the next rotation tries
 * again), and is said on stderr.
 */
static void shift_rotated(struct ow_session *s)
{
	const char *path = s->o.cli->record;
	char from[PATH_MAX], to[PATH_MAX];
	long keep = s->o.cli->record_keep;

	if (rotated_name(to, sizeof(to), path, keep))
		return;
	if (unlink(to) && errno != ENOENT)
		fprintf(s->o.err, "oomwatch: --record: %s: %s\n", to,
			strerror(errno));
	for (long n = keep - 1; n >= 0; n--) {
		if (n ? rotated_name(from, sizeof(from), path, n) :
			snprintf(from, sizeof(from), "%s", path) < 0)
			continue;
		if (rotated_name(to, sizeof(to), path, n + 1))
			continue;
		if (rename(from, to) && errno != ENOENT)
			fprintf(s->o.err, "oomwatch: --record: %s -> %s: %s\n",
				from, to, strerror(errno));
	}
}

/*
 * A recording starts with the header, then the memcg lines named so far
 * (none in the first file); what that took starts the rotation's count.
 */
static void write_record_head(struct ow_session *s)
{
	const struct ow_memcg_paths *p = &s->paths;

	record_result(s, ow_json_write_header(s->record, s->version,
					      &s->hdr.config, s->hdr.kernel,
					      s->hdr.kswapd_period_ms));
	for (size_t i = 0; i < p->cap; i++) {
		const struct ow_memcg_entry *e = &p->slot[i];

		if (e->id && e->path && e->written && s->version >= 2)
			record_result(s, ow_json_write_memcg(s->record,
							     s->version,
							     e->id, e->path));
	}
	s->record_bytes = ftell(s->record);
}

/*
 * Close the recording (if one is open: a reopen that failed left none)
 * and open FILE anew.  rotate: move FILE and its older rotations up by
 * one first; else FILE was moved away by somebody (logrotate) and is
 * only created again.
 */
static int reopen_record(struct ow_session *s, bool rotate)
{
	const char *path = s->o.cli->record;

	if (s->record && fclose(s->record))
		record_result(s, -1);
	s->record = NULL;
	if (rotate) {
		shift_rotated(s);
	}
	s->record = fopen(path, "w");
	if (!s->record) {
		record_result(s, -1);
		fprintf(s->o.err, "oomwatch: --record %s: %s: recording "
			"stopped\n", path, strerror(errno));
		return OW_EXIT_SETUP;
	}
	write_record_head(s);
	fflush(s->record);
	return 0;
}

/*
 * Past --record-max-size, the file is rotated at the first event after
 * which nothing is in flight (ow_episodes_quiet()), so that the next file
 * replays under --assert on its own; at twice the size, whatever is in
 * flight: a node that never recovers must not grow the file forever.
 * The size is counted, not asked for: ftell() costs an lseek() per
 * event.  The header and the event lines are counted; the few memcg and
 * lost lines are not, so a file may pass SIZE by those.
 */
static void rotate_if_full(struct ow_session *s)
{
	long long max = s->o.cli->record_max;

	if (!max || !s->record || s->record_bytes < max)
		return;
	if (s->record_bytes >= 2 * max || ow_episodes_quiet(&s->episodes))
		reopen_record(s, true);
}

/* An event line into the recording, its bytes counted for the rotation. */
static void record_event(struct ow_session *s, const struct oomwatch_event *ev)
{
	char buf[OW_LINE_MAX];
	int len = ow_json_format_event(buf, sizeof(buf), s->version, ev);

	if (len < 0 || fwrite(buf, 1, len, s->record) != (size_t)len) {
		record_result(s, -1);
		return;
	}
	s->record_bytes += len;
	rotate_if_full(s);
}

int ow_session_reopen_record(struct ow_session *s)
{
	struct stat fs, ps;

	if (!s->o.cli->record || !s->started)
		return 0;
	/* The last reopen failed: try again, a signal is the way to ask. */
	if (!s->record)
		return reopen_record(s, false);
	fflush(s->record);
	/* Still ours at its name: rotate it; moved away: start anew. */
	if (!fstat(fileno(s->record), &fs) && !stat(s->o.cli->record, &ps) &&
	    same_inode(&fs, &ps))
		return reopen_record(s, true);
	return reopen_record(s, false);
}

/*
 * --record and --svg may name one file under two spellings ("F", "./F",
 * a link): compared by device and inode, before the recording is opened
 * when both exist, else right after it created the file (which is then
 * removed again: nothing was in it).
 */
int ow_session_open_record(struct ow_session *s)
{
	const char *path = s->o.cli->record, *svg = s->o.cli->svg;
	struct stat rs, ss;
	bool existed;

	if (!path || s->record)
		return 0;
	existed = !stat(path, &rs);
	if (existed && svg && !stat(svg, &ss) && same_inode(&rs, &ss))
		return same_as_svg(s);
	/* With rotation on, a previous run's recording is kept, as FILE.1. */
	if (existed && s->o.cli->record_max && rs.st_size > 0) {
		shift_rotated(s);
		existed = false;
	}
	s->record = fopen(path, "w");
	if (!s->record) {
		fprintf(s->o.err, "oomwatch: --record %s: %s\n", path,
			strerror(errno));
		return OW_EXIT_SETUP;
	}
	if (svg && !fstat(fileno(s->record), &rs) && !stat(svg, &ss) &&
	    same_inode(&rs, &ss)) {
		fclose(s->record);
		s->record = NULL;
		if (!existed)
			unlink(path);
		return same_as_svg(s);
	}
	return 0;
}

/* The output --metrics FILE is under another name, or NULL. */
static const char *metrics_clobbers(struct ow_session *s)
{
	const char *svg = s->o.cli->svg;
	struct stat ms, os;

	if (stat(s->o.cli->metrics, &ms))
		return NULL;
	if (s->record && !fstat(fileno(s->record), &os) && same_inode(&ms, &os))
		return "--record";
	if (svg && !stat(svg, &os) && same_inode(&ms, &os))
		return "--svg";
	return NULL;
}

static int metrics_error(struct ow_session *s)
{
	fprintf(s->o.err, "oomwatch: --metrics %s: %s\n", s->o.cli->metrics,
		strerror(errno));
	return OW_EXIT_SETUP;
}

/*
 * The first write, all zeroes, so that a live run fails on a FILE it
 * cannot write before it loads anything into the kernel, and the
 * collector has a file from the start.  Checked against the other
 * outputs before (FILE exists) and after (it did not) that write.
 */
int ow_session_open_metrics(struct ow_session *s)
{
	const char *path = s->o.cli->metrics, *other;
	bool existed;

	if (!s->metrics || s->metrics_open)
		return 0;
	existed = !access(path, F_OK);
	other = metrics_clobbers(s);
	if (!other && ow_metrics_write(s->metrics, NULL, path))
		return metrics_error(s);
	if (!other && !existed) {
		other = metrics_clobbers(s);
		if (other)
			unlink(path);
	}
	if (other) {
		fprintf(s->o.err, "oomwatch: --metrics %s is the file of %s: "
			"it would overwrite it\n", path, other);
		return OW_EXIT_SETUP;
	}
	s->metrics_open = true;
	return 0;
}

static int write_metrics(struct ow_session *s)
{
	if (!ow_metrics_write(s->metrics, s->started ? &s->checker : NULL,
			      s->o.cli->metrics)) {
		s->metrics_failed = false;
		return 0;
	}
	if (!s->metrics_failed)
		metrics_error(s);
	s->metrics_failed = true;
	return OW_EXIT_SETUP;
}

void ow_session_metrics_tick(struct ow_session *s, unsigned long long now_ns)
{
	long interval = s->o.cli->metrics_interval;
	unsigned long long ns = (interval ? interval : OW_METRICS_INTERVAL) *
				1000000000ULL;

	if (!s->metrics_open)
		return;
	if (!s->metrics_due) {
		s->metrics_due = now_ns + ns;	/* open wrote the first */
		return;
	}
	if (now_ns < s->metrics_due)
		return;
	write_metrics(s);
	s->metrics_due = now_ns + ns;
}

static void start_output(struct ow_session *s)
{
	const struct ow_cli *cli = s->o.cli;
	struct ow_out_opts oo = {
		.f = s->journal_on ? ow_journal_stream(&s->journal) : s->o.out,
		.clock = !cli->timestamp ? OW_CLOCK_NONE :
			 s->o.live ? OW_CLOCK_WALL : OW_CLOCK_RELATIVE,
		.wall_offset_ns = s->o.wall_offset_ns,
		.cfg = s->hdr.config,
		.paths = &s->paths,
	};

	s->timeline = !cli->json && !cli->summary_only;
	s->json_events = cli->json && !cli->summary_only;
	ow_out_init(&s->out, &oo, &s->episodes);
	/* The journal has its own columns: the fields. */
	if (s->timeline && !s->journal_on)
		ow_out_columns(&s->out);
}

int ow_session_start(struct ow_session *s, const struct ow_header *h,
		     unsigned int version)
{
	const struct ow_cli *cli = s->o.cli;
	struct ow_check_opts co;
	int ret;

	s->started = true;
	s->version = version;
	s->have_header = h != NULL;
	if (h) {
		s->hdr = *h;
	} else {
		ow_config_unknown(&s->hdr.config);
		s->hdr.kswapd_period_ms = KSWAPD_PERIOD_MS;
		snprintf(s->hdr.kernel, sizeof(s->hdr.kernel), "unknown");
	}
	ret = ow_session_open_record(s);
	if (!ret)
		ret = ow_session_open_metrics(s);
	if (ret)
		return ret;
	ow_check_opts_default(&co);
	co.kswapd_period_ms = s->hdr.kswapd_period_ms;
	co.report = report;
	co.ctx = s;
	co.episodes = &s->episodes;
	ow_checker_init(&s->checker, &s->hdr.config, &co);
	ow_filter_init(&s->filter, cli->pid, s->o.cgroup, &s->paths,
		       s->o.live && s->o.cgroup && s->o.cgroup->path[0],
		       &s->episodes);
	start_output(s);
	if (cli->json)
		ow_json_write_header(s->o.out, s->version, &s->hdr.config,
				     s->hdr.kernel, s->hdr.kswapd_period_ms);
	if (s->record)
		write_record_head(s);
	return 0;
}

/* A memcg line, where JSON lines go, at most once per id. */
static void write_memcg(struct ow_session *s, struct ow_memcg_entry *e)
{
	if (e->written || !e->path || s->version < 2)
		return;
	e->written = true;
	if (s->record)
		record_result(s, ow_json_write_memcg(s->record, s->version,
						     e->id, e->path));
	if (s->json_events)
		ow_json_write_memcg(s->o.out, s->version, e->id, e->path);
}

void ow_session_memcg(struct ow_session *s, __u64 id, const char *path)
{
	struct ow_memcg_entry *e = ow_memcg_paths_add(&s->paths, id, path, 0);

	/* Only the first line for an id is kept, and passed on. */
	if (e && e->path && !strcmp(e->path, path))
		write_memcg(s, e);
}

const struct ow_memcg_paths *ow_session_memcg_paths(const struct ow_session *s)
{
	return &s->paths;
}

/*
 * Live: an id not seen yet sends us through the tree once; what the walk
 * did not find is kept as such, so that it is not walked for again.  A
 * full table keeps nothing more: then no id is walked for at all.
 */
static struct ow_memcg_entry *resolve(struct ow_session *s, __u64 id)
{
	struct ow_memcg_entry *e = ow_memcg_paths_get(&s->paths, id);

	if (e || s->paths.full || !s->o.live || !s->o.cgroup_root ||
	    !s->o.cgroup_root[0])
		return e;
	ow_memcg_paths_scan(&s->paths, s->o.cgroup_root,
			    s->o.cgroup_root_cgroup2);
	e = ow_memcg_paths_get(&s->paths, id);
	return e ? e : ow_memcg_paths_add(&s->paths, id, NULL, 0);
}

/*
 * Ancestors first, the root's line on top: -c by id on a replay matches
 * what is below the id's path, so that path must be known by the time a
 * request below it is decided.  The walk's parent ids are all in the
 * table; the depth is the walk's, bounded.
 */
static void name_memcg(struct ow_session *s, __u64 id, int depth)
{
	struct ow_memcg_entry *e;

	if (!id || s->version < 2 || depth > 64)
		return;
	e = resolve(s, id);
	if (!e || e->written || !e->path)
		return;
	name_memcg(s, e->parent, depth + 1);
	write_memcg(s, e);
}

/* The memcg ids an event names, written before it is. */
static void name_memcgs(struct ow_session *s, const struct oomwatch_event *ev)
{
	if (ev->type == OW_OOM_REQUEST)
		name_memcg(s, ev->request.memcg_id, 0);
	else if (ev->type == OW_THRASH_TAKE)
		name_memcg(s, ev->take.memcg_id, 0);
	else if (ev->type == OW_MARK_VICTIM)
		name_memcg(s, ev->victim.memcg_id, 0);
}

/* A request, its verdicts, a thrash take: a task asking for a kill. */
static bool about_request(unsigned int type)
{
	return (type >= OW_OOM_REQUEST && type <= OW_OOM_FALLBACK &&
		type != OW_OOM_GRANT) || type == OW_THRASH_TAKE;
}

/* Where the task asks: a request or a take is raised in its context. */
static bool asks(unsigned int type)
{
	return type == OW_OOM_REQUEST || type == OW_THRASH_TAKE;
}

/* The memcg the event carries (from version 2), 0 if none. */
static __u64 recorded_memcg(const struct ow_session *s,
			    const struct oomwatch_event *ev)
{
	if (s->version < 2)
		return 0;
	if (ev->type == OW_OOM_REQUEST)
		return ev->request.memcg_id;
	return ev->type == OW_THRASH_TAKE ? ev->take.memcg_id : 0;
}

/*
 * A version 2 request, and a take, say which memcg their task was in (0:
 * none known).  For a version 1 one, an id of 0 and a verdict, only a
 * live run can ask /proc: at the request or take (for the timeline and
 * -c), and at a verdict only for -c.
 */
static void requester_of(struct ow_session *s, const struct oomwatch_event *ev,
			 struct ow_requester *who)
{
	__u64 id = recorded_memcg(s, ev);

	memset(who, 0, sizeof(*who));
	if (id) {
		who->known = true;
		who->memcg_id = id;
		return;
	}
	if (!s->o.memcg_of || !about_request(ev->type))
		return;
	if (!asks(ev->type) && !s->o.cgroup)
		return;
	who->known = s->o.memcg_of(s->o.memcg_ctx,
				   ev->type == OW_THRASH_TAKE ? ev->take.pid :
				   ev->request.pid, &who->memcg_id);
}

void ow_session_event(struct ow_session *s, const struct oomwatch_event *ev)
{
	struct ow_requester who;
	bool show;

	s->events++;
	if (ev->ts_ns > s->last_ts)
		s->last_ts = ev->ts_ns;
	name_memcgs(s, ev);
	requester_of(s, ev, &who);
	/* The model first: every view below reads what this event did. */
	ow_episodes_feed(&s->episodes, ev, &who);
	show = ow_filter_event(&s->filter, ev, &who);
	if (s->record)
		record_event(s, ev);
	if (s->svg)
		ow_svg_event(s->svg, ev);
	ow_stats_feed(&s->stats, ev);
	if (s->metrics)
		ow_metrics_feed(s->metrics, ev);
	/* The line first: a violation it causes is printed after it. */
	if (s->timeline)
		ow_out_event(&s->out, ev, &who, show);
	else if (s->json_events && show)
		ow_json_write_event(s->o.out, s->version, ev);
	if (s->journal_on)
		ow_journal_event(&s->journal, ev, &s->episodes.step);
	ow_checker_feed(&s->checker, ev);
}

/* A record of 0 lost (a recording may hold one) is passed on as is. */
void ow_session_lost(struct ow_session *s, int cpu, long long count)
{
	if (count < 0)
		return;
	if (s->record)
		record_result(s, ow_json_write_lost_cpu(s->record, s->version,
							cpu, count));
	/* Elsewhere the checker's record_whole violation says it. */
	if (s->json_events)
		ow_json_write_lost_cpu(s->o.out, s->version, cpu, count);
	if (!count)
		return;
	s->lost += count;
	ow_stats_lost(&s->stats, count);
	ow_checker_lost(&s->checker, count);
}

void ow_session_shed(struct ow_session *s, long long count)
{
	if (count < 0 || s->version < 5)
		return;
	if (s->record)
		record_result(s, ow_json_write_shed(s->record, s->version,
						    count));
	if (s->json_events)
		ow_json_write_shed(s->o.out, s->version, count);
	ow_stats_shed(&s->stats, count);
	ow_out_shed(&s->out, count);
}

static int close_record(struct ow_session *s)
{
	const char *path = s->o.cli->record;

	if (!s->record)
		return 0;
	record_result(s, ow_stats_write_json(s->record, s->version, &s->stats,
					     &s->checker));
	if (fclose(s->record))
		record_result(s, -1);
	s->record = NULL;
	if (!s->record_failed)
		return 0;
	fprintf(s->o.err, "oomwatch: --record %s: %s: the recording is "
		"incomplete\n", path, strerror(s->record_errno));
	return OW_EXIT_SETUP;
}

static int write_svg(struct ow_session *s)
{
	const char *path = s->o.cli->svg;
	FILE *f;
	int ret;

	if (!s->svg)
		return 0;
	f = fopen(path, "w");
	if (!f) {
		fprintf(s->o.err, "oomwatch: --svg %s: %s\n", path,
			strerror(errno));
		return OW_EXIT_SETUP;
	}
	ret = ow_svg_write(s->svg, f, s->have_header ? &s->hdr : NULL);
	if (fclose(f))
		ret = -1;
	if (ret) {
		fprintf(s->o.err, "oomwatch: --svg %s: %s\n", path,
			strerror(errno ? errno : EIO));
		return OW_EXIT_SETUP;
	}
	if (ow_svg_dropped(s->svg))
		fprintf(s->o.err, "oomwatch: --svg %s: %lu events not drawn "
			"(more than %d)\n", path, ow_svg_dropped(s->svg),
			OW_SVG_MAX_EVENTS);
	return 0;
}

static void print_summary(struct ow_session *s)
{
	const struct ow_cli *cli = s->o.cli;
	FILE *f = s->journal_on ? ow_journal_stream(&s->journal) : s->o.out;

	if (cli->json) {
		ow_stats_write_json(s->o.out, s->version, &s->stats,
				    &s->checker);
		return;
	}
	if (s->timeline && !s->journal_on)
		fputc('\n', f);
	ow_stats_print(f, &s->stats, &s->checker);
	if (s->timeline && s->out.kept_hidden)
		fprintf(f, "  (%lu swap_token_kept passes not printed "
			"in the timeline)\n", s->out.kept_hidden);
	if (s->journal_on)
		ow_journal_note(&s->journal, "summary", LOG_INFO);
}

static void journal_notes(struct ow_session *s)
{
	const struct ow_journal *j = &s->journal;

	if (!s->journal_on)
		return;
	if (j->failed)
		fprintf(s->o.err, "oomwatch: --journal: %lu of %lu entries not "
			"sent: %s\n", j->failed, j->failed + j->sent,
			strerror(-j->last_error));
	if (j->truncated)
		fprintf(s->o.err, "oomwatch: --journal: %lu entries lost "
			"fields that did not fit\n", j->truncated);
}

static const char *plural(unsigned long n)
{
	return n == 1 ? "" : "s";
}

/*
 * The memcg path table is bounded (a live walk must stop somewhere): what
 * it could not keep is said on stderr and fails --assert, never left to
 * look like a recording that names no such path.
 */
static void memcg_table_full(struct ow_session *s)
{
	unsigned long n = s->paths.dropped;
	char what[200];

	if (!n)
		return;
	snprintf(what, sizeof(what), "the memcg path table is full (%d ids): "
		 "%lu memcg %s not kept: -c cannot place the requests, takes "
		 "and kills of those memcgs", OW_MEMCG_MAX_PATHS, n,
		 s->o.live ? (n == 1 ? "id" : "ids") :
			     (n == 1 ? "line" : "lines"));
	/* Elsewhere the checker's violation goes to stderr by itself. */
	if (s->timeline)
		fprintf(s->o.err, "oomwatch: %s\n", what);
	ow_checker_table_full(&s->checker, what);
}

/* What -c could not decide on a replay, and why. */
static void cgroup_notes(struct ow_session *s)
{
	const struct ow_cgroup_set *set = s->o.cgroup;
	unsigned long n = s->filter.requests_unattributed;

	if (n && s->version < 2)
		fprintf(s->o.err, "oomwatch: --cgroup: %lu OOM request%s not "
			"shown: a version 1 recording does not say which memcg "
			"a requester was in\n", n, plural(n));
	else if (n)
		fprintf(s->o.err, "oomwatch: --cgroup: %lu OOM request%s not "
			"shown: the recording does not say which memcg %s in "
			"(memcg_id 0)\n", n, plural(n),
			n == 1 ? "its requester was" : "their requesters were");
	n = s->filter.takes_unattributed;
	if (n)
		fprintf(s->o.err, "oomwatch: --cgroup: %lu thrash take%s not "
			"shown: the recording does not say which memcg %s in "
			"(memcg_id 0)\n", n, plural(n),
			n == 1 ? "its task was" : "their tasks were");
	n = s->filter.requests_no_path;
	if (n)
		fprintf(s->o.err, "oomwatch: --cgroup %s: %lu OOM request%s not "
			"shown: the recording names no cgroup path for %s "
			"memcg\n", set->path, n, plural(n),
			n == 1 ? "its" : "their");
	n = s->filter.takes_no_path;
	if (n)
		fprintf(s->o.err, "oomwatch: --cgroup %s: %lu thrash take%s not "
			"shown: the recording names no cgroup path for %s "
			"memcg\n", set->path, n, plural(n),
			n == 1 ? "its" : "their");
	/* A full table may have dropped the very lines that would match. */
	if (set && set->recorded && set->path[0] && !s->paths.dropped &&
	    !ow_memcg_paths_any_under(&s->paths, set->path))
		fprintf(s->o.err, "oomwatch: --cgroup %s: the recording names "
			"no memcg at or below that path (on a replay a path is "
			"the recording's, from the traced machine's cgroup2 "
			"root, as in /job)\n", set->path);
}

int ow_session_finish(struct ow_session *s, unsigned long long now_ns)
{
	const struct ow_cli *cli = s->o.cli;
	unsigned long violations;
	int ret = OW_EXIT_OK, io, metrics_io = 0;

	if (now_ns < s->last_ts)
		now_ns = s->last_ts;
	/*
	 * Before the end judges open deadlines by now_ns, which a replay
	 * cannot know: the metrics are the event stream's alone.
	 */
	s->metrics_failed = false;
	if (s->metrics_open)
		metrics_io = write_metrics(s);
	memcg_table_full(s);
	/* -c chooses what is printed only: said, not a violation. */
	if (s->o.cgroup && s->o.cgroup->truncated)
		fprintf(s->o.err, "oomwatch: --cgroup %s: more than %d cgroups "
			"at or below it: only the first %d were matched\n",
			s->o.cgroup->path, OW_CGROUP_MAX_IDS,
			OW_CGROUP_MAX_IDS);
	ow_checker_finish(&s->checker, now_ns);
	print_summary(s);
	journal_notes(s);
	fflush(s->o.out);
	if (!s->o.live)
		cgroup_notes(s);
	io = close_record(s);
	if (!io)
		io = write_svg(s);
	if (!io)
		io = metrics_io;
	violations = ow_checker_violations(&s->checker, 0);
	if (cli->assert_mode && (violations || s->lost)) {
		fprintf(s->o.err, "oomwatch: --assert: %lu invariant "
			"violation%s, %llu events lost\n", violations,
			violations == 1 ? "" : "s", s->lost);
		ret = OW_EXIT_VIOLATION;
	}
	return ret ? ret : io;
}

void ow_session_flush(struct ow_session *s)
{
	fflush(s->o.out);
	if (s->record)
		fflush(s->record);
}

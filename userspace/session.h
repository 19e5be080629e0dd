/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: one run, live or replayed: every event goes through here in
 * seq order, to the checker, the statistics, the recording (--record),
 * the picture (--svg) and, if the -p/-c filter lets it, the output (the
 * human timeline, or JSON lines with -j).  Live and replay differ only in
 * where events come from, so a replay reaches the verdicts the live run
 * reached.
 *
 * Where things go:
 *   stdout   the timeline, or JSON lines (header first, summary last)
 *   stderr   diagnostics; violations too, unless the timeline shows them
 *            inline (then they are "!!" lines in it)
 *
 * JSON lines (-j, --record) are written in the version of the source:
 * live, OOMWATCH_FORMAT_VERSION; a replay, its recording's.  From version
 * 2 a memcg line names each memcg id an event names (an oom_request's
 * requester, an oom_thrash_take's taker, a mark_victim's victim), and the
 * ids of its ancestors,
 * before that event: a replay passes on the recording's memcg lines, a
 * live run resolves ids under cgroup_root (cgroup.h), keeping what it
 * found and what it did not, so that an id costs one walk of the tree
 * at most.  The timeline names memcgs by those paths, and -c on a
 * replay matches them (filter.h).
 */
#ifndef OW_SESSION_H
#define OW_SESSION_H

#include <stdbool.h>
#include <stdio.h>
#include "cgroup.h"
#include "cli.h"
#include "filter.h"
#include "journal.h"
#include "trace.h"

/* The memcg of a running task (live only); false when unknown. */
typedef bool (*ow_memcg_fn)(void *ctx, __u32 pid, __u64 *memcg_id);

struct ow_session_opts {
	const struct ow_cli *cli;
	FILE *out;
	FILE *err;
	bool live;
	long long wall_offset_ns;	/* live: CLOCK_REALTIME - MONOTONIC */
	ow_memcg_fn memcg_of;		/* NULL: requests' memcg unknown */
	void *memcg_ctx;
	struct ow_cgroup_set *cgroup;	/* -c resolved, or NULL */
	const char *cgroup_root;	/* live: resolve memcg paths here */
	bool cgroup_root_cgroup2;	/* ids by file handle (cgroup.c) */
	ow_journal_send_fn journal_send;	/* --journal: the sender */
	void *journal_ctx;
};

struct ow_session;

/* NULL when out of memory (message on err). */
struct ow_session *ow_session_new(const struct ow_session_opts *opts);

/*
 * Open --record now, so that a live run can fail on it before it loads
 * anything into the kernel.  ow_session_start() does it otherwise.
 * Returns an enum ow_exit.
 */
int ow_session_open_record(struct ow_session *s);

/*
 * --metrics FILE (metrics.h): the first write, now, for the same reason
 * as ow_session_open_record(), which it follows; ow_session_start() does
 * it otherwise.  Returns an enum ow_exit (FILE not writable, or the
 * --record or --svg file under another name: OW_EXIT_SETUP).
 */
int ow_session_open_metrics(struct ow_session *s);

/*
 * Live, once per poll: writes --metrics FILE when --metrics-interval
 * has passed since the last write (now_ns: CLOCK_MONOTONIC).  A failed
 * write is said once and tried again at the next interval; the last one,
 * at ow_session_finish(), decides the exit status.
 */
void ow_session_metrics_tick(struct ow_session *s, unsigned long long now_ns);

/*
 * Before the first event: the configuration the checker holds the run
 * to (h NULL: a recording without a header, configuration unknown), and
 * the format version of the source, which the JSON lines are written in.
 * Writes the headers.  Returns an enum ow_exit.
 */
int ow_session_start(struct ow_session *s, const struct ow_header *h,
		     unsigned int version);

void ow_session_event(struct ow_session *s, const struct oomwatch_event *ev);

/* A memcg line of the recording: kept, and passed on. */
void ow_session_memcg(struct ow_session *s, __u64 id, const char *path);

/* The memcg paths the run has named or looked for (for the tests). */
const struct ow_memcg_paths *ow_session_memcg_paths(const struct ow_session *s);

/* Events the ring buffer dropped (cpu -1: summed over CPUs). */
void ow_session_lost(struct ow_session *s, int cpu, long long count);
/* Context records the BPF side shed: counted and passed on, no rule broken. */
void ow_session_shed(struct ow_session *s, long long count);

/*
 * End of the run at now_ns (raised to the last event's time): open
 * deadlines are judged, the summary is printed and recorded, the picture
 * drawn, the metrics written (before the end is judged: see metrics.h).
 * Returns OW_EXIT_VIOLATION under --assert when anything broke or was
 * lost, OW_EXIT_SETUP when --record, --svg or --metrics could not be
 * written, else OW_EXIT_OK.
 */
int ow_session_finish(struct ow_session *s, unsigned long long now_ns);

/*
 * SIGHUP: if --record's FILE is still the file being written, rotate it
 * (FILE.1 ...; with --record-keep's count); if it was moved away, start
 * FILE anew.  Either way the new file begins with the header and the
 * memcg lines so far, and replays on its own.  Returns an enum ow_exit.
 */
int ow_session_reopen_record(struct ow_session *s);

/* Push out what is buffered (live: once per poll). */
void ow_session_flush(struct ow_session *s);
unsigned long long ow_session_events(const struct ow_session *s);
void ow_session_free(struct ow_session *s);

#endif /* OW_SESSION_H */

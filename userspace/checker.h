/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: the checker of the ten invariants (docs/invariants.md), fed one
 * event at a time.
 *
 * Pure C: no I/O, no libbpf; its tables grow with malloc (a failure is
 * reported as a record_whole violation, never a silent gap).  The same
 * code runs live in oomwatch and on a recording on the host.  Events must
 * be fed in seq order; time is the events' own ts_ns, never the wall
 * clock.  Requests, grants, victims and recovery are the episode model's
 * (episodes.h), which the statistics, the filter and the timeline read
 * too.
 *
 * Invariants (ids are stable, they appear in messages and summaries):
 *
 *  1 no_kill_without_grant  arbiter on: every global kill has a permit
 *                           (episodes.h): the killer's own
 *                           oom_thrash_take in the same out_of_memory()
 *                           call, its own oom_fallback, or the oom_grant
 *                           since the previous global kill, if a request
 *                           recorded could own it and no alloc_ok veto
 *                           spent it; a take permits nothing with
 *                           vm.oom_arbiter_thrash 0 in the header.  Every
 *                           grant's evidence satisfies the rule
 *                           (unreclaimable_ms >= timeout, low_reclaimed
 *                           == 0, 1..MAX zones each with free <= min,
 *                           looping >= 1), and its unreclaimable_ms is no
 *                           longer than the recorded timeline allows, and
 *                           on a node with nothing recorded reaches back
 *                           before the first event.  Further members of
 *                           one memory.oom.group kill share its grant.
 *  2 one_kill_per_episode   arbiter on: no grant while a previous
 *                           grant's victims (the kill that used its
 *                           permit, every member of a memory.oom.group
 *                           kill) live and its node has not recovered.
 *                           An oom_veto alloc_ok on the grant's node
 *                           means its owner did not kill: the grant is
 *                           spent without a victim (no other veto comes
 *                           from the owner).  Per node: recovery on one
 *                           node ends nothing on another.
 *  3 liveness               every oom_request is resolved within
 *                           timeout + fallback + slack.  Resolutions: an
 *                           oom_grant on the request's node (the grant
 *                           names the oldest waiter but settles every
 *                           request waiting on that node: one takes it,
 *                           the others get oom_veto episode_open; a grant
 *                           on another node settles nothing here), an
 *                           oom_veto or oom_fallback naming it (any
 *                           reason), the requester's kill or exit, its
 *                           own oom_thrash_take (it calls out_of_memory()
 *                           itself), and an unreclaimable_clear by
 *                           progress or freed pages on its node (memory
 *                           recovered).
 *  4 token_yields           token on: no global kill in an episode with a
 *                           swap_token_kept of nr_folios > 0 and no
 *                           swap_token_bypass on its node, per node.  An
 *                           episode begins after a kill, and again on a
 *                           node when it becomes unreclaimable: the OOM
 *                           decision rests on what reclaim did from then
 *                           on.  A
 *                           holder that lost the token (release, or a
 *                           grab by another process) after the kept
 *                           pass protects nothing any more.
 *  5 timer_works            arbiter on, timeout > 0: while requests wait
 *                           on its node, an unreclaimable_set is cleared
 *                           within timeout + kswapd period + slack from
 *                           the set or the first later request (judged
 *                           when they stop waiting too), and never by
 *                           the timer before timeout - slack, both from
 *                           the recorded timestamps; a clear's
 *                           duration_ms must agree with them within
 *                           OW_JIFFY_TOLERANCE_MS.  A clear whose set
 *                           came before the recording can only be early:
 *                           its duration_ms below timeout - slack.
 *  6 record_whole           seq +1 each time, ts_ns monotonic per CPU, no
 *                           lost events.
 *  7 thrash_timer           thrash rule on, its timeout known: an
 *                           oom_thrash_grant claims thrashing_ms >=
 *                           timeout, and the record agrees: from the
 *                           node's thrashing_set, or its previous thrash
 *                           grant if later (a grant restarts the clock),
 *                           at least timeout - OW_JIFFY_TOLERANCE_MS
 *                           passed, and thrashing_ms is within
 *                           OW_JIFFY_TOLERANCE_MS of it.  A
 *                           thrashing_clear's duration_ms is within
 *                           OW_JIFFY_TOLERANCE_MS of its recorded set.  A
 *                           node whose clock started before the
 *                           recording is judged by its claim, which must
 *                           reach back before the first event.
 *  8 thrash_rule            thrash rule on: an oom_thrash_grant only while
 *                           its node thrashes (not after its
 *                           thrashing_clear with no set since; a node
 *                           with no recorded set or clear is trusted),
 *                           only when swap cannot help (swap_total 0, or
 *                           swap_free * 32 < swap_total), never while
 *                           a victim of any OOM lives (from its
 *                           mark_victim to its exit or reaping), and (a
 *                           format 4 grant) on a last window that
 *                           thrashed: at most 2 s, near <= faulted <=
 *                           refaulted, near > reclaimed / 4, both at
 *                           least half of 4 MB a second.
 *  9 one_take_per_grant     thrash rule on: at most one thrash grant
 *                           outstanding per node (no second before a take
 *                           on the node or its thrashing_clear), and
 *                           every oom_thrash_take takes an outstanding
 *                           grant on its node (a node with no recorded
 *                           thrash event is trusted once: its grant may
 *                           predate the recording).
 * 10 verdicts_name_waiters  arbiter on: an oom_grant or oom_defer names
 *                           a request on its node's waiters: one
 *                           recorded there and not ended (settled ones
 *                           stay listed until their own end), or one
 *                           that may predate the recording (no request
 *                           of that pid recorded, within the liveness
 *                           bound of the first event).
 *
 * A kill is "global" unless its constraint is MEMCG or SYSRQ: UNKNOWN (the
 * observer missed the out_of_memory() entry) is treated as global, so that
 * a gap in what we saw cannot hide a kill.  Episodes run from one global
 * kill (all members of a memory.oom.group kill) to the next.
 */
#ifndef OW_CHECKER_H
#define OW_CHECKER_H

#include <stdbool.h>
#include "episodes.h"
#include "trace.h"

enum ow_invariant {
	OW_INV_NO_KILL_WITHOUT_GRANT = 1,
	OW_INV_ONE_KILL_PER_EPISODE = 2,
	OW_INV_LIVENESS = 3,
	OW_INV_TOKEN_YIELDS = 4,
	OW_INV_TIMER_WORKS = 5,
	OW_INV_RECORD_WHOLE = 6,
	OW_INV_THRASH_TIMER = 7,
	OW_INV_THRASH_RULE = 8,
	OW_INV_ONE_TAKE_PER_GRANT = 9,
	OW_INV_VERDICTS_NAME_WAITERS = 10,
};

#define OW_NR_INVARIANTS	10
#define OW_NO_SEQ		(~0ULL)	/* violation tied to no one event */
#define OW_MSG_MAX		512

/*
 * How far a duration the kernel measured in jiffies (a clear's duration_ms,
 * a grant's unreclaimable_ms or thrashing_ms) may stray from the recorded
 * timestamps: it
 * counts whole ticks, so it is off by up to one tick at each end of the
 * interval; two ticks at HZ=100, the coarsest CONFIG_HZ, are 20 ms.
 */
#define OW_JIFFY_TOLERANCE_MS	20
/* The kernel's thrash window (OOM_THRASH_WINDOW_MS). */
#define OW_THRASH_WINDOW_MS	1000

/* A window over two: reclaim paused, never thrashing (the kernel's rule). */
static inline bool ow_thrash_window_paused(unsigned int window_ms)
{
	return window_ms > 2 * OW_THRASH_WINDOW_MS;
}

/* "no_kill_without_grant" etc.; NULL for an id out of range. */
const char *ow_invariant_name(int inv);

/*
 * The thrash rule's swap condition: no swap, or swap_free * 32 <
 * swap_total (less than 1/32 of it free), computed without overflow.
 */
bool ow_swap_cannot_help(__u64 free, __u64 total);

struct ow_violation {
	int inv;			/* enum ow_invariant */
	const char *name;		/* ow_invariant_name(inv) */
	unsigned long long seq;		/* of the offending event, or OW_NO_SEQ */
	unsigned long long ts_ns;	/* of the offending event, or 0 */
	/* One line, no newline: "liveness: oom_request seq 5 at ..." */
	char msg[OW_MSG_MAX];
};

typedef void (*ow_violation_fn)(void *ctx, const struct ow_violation *v);

struct ow_check_opts {
	unsigned int slack_ms;		/* timer jitter absorbed, default 250 */
	unsigned int kswapd_period_ms;	/* header's kswapd_period_ms, 1000 */
	ow_violation_fn report;		/* may be NULL: violations counted */
	void *ctx;			/* passed to report */
	/*
	 * The run's episode model, fed by the caller before each event
	 * reaches the checker; NULL: the checker keeps and feeds its own.
	 */
	struct ow_episodes *episodes;
};

/* Defaults: slack 250 ms, kswapd period 1000 ms, no callback. */
void ow_check_opts_default(struct ow_check_opts *opts);

/* The newest event seen on one CPU (record_whole). */
struct ow_check_cpu {
	__u32 cpu;
	unsigned long long ts_ns;
	unsigned long long seq;
};

/* A deadline the checker waits for: a request's, or a node's. */
struct ow_check_due {
	unsigned long long deadline;
	unsigned long long seq;		/* the request's, or the node's set */
	unsigned long long since;	/* the node's wait_ts */
	size_t node;			/* index in the model's nodes */
	__u32 pid;			/* the request's */
};

/* Soonest deadline first: every event costs log(open), not open. */
struct ow_check_heap {
	struct ow_check_due *v;
	size_t nr;
	size_t cap;
};

/* A node's swap token passes since the last kill (token_yields). */
struct ow_check_token {
	__s32 nid;
	bool kept;
	unsigned long long kept_seq;
	unsigned long long kept_folios;
	__u32 kept_holder;		/* tgid the kept pass protected */
	bool bypassed;
};

/* Opaque in spirit: read it through the functions below. */
struct ow_checker {
	struct ow_config cfg;
	struct ow_check_opts opts;
	bool enabled[OW_NR_INVARIANTS + 1];
	unsigned long nr_violations[OW_NR_INVARIANTS + 1];	/* [0]: all */
	bool finished;
	unsigned long long events;
	struct ow_ep_ref ep;		/* requests, grants, victims, nodes */
	unsigned long nomem_seen;	/* model and tables: reported so far */
	unsigned long nomem;		/* this checker's own tables */

	/* record_whole */
	bool seq_started;
	unsigned long long last_seq;
	struct ow_check_cpu *cpu;	/* sorted by cpu */
	size_t nr_cpu;
	size_t cap_cpu;
	unsigned long long lost;
	unsigned long long max_ts;

	/* liveness */
	unsigned long long liveness_ns;	/* timeout + fallback + slack */
	unsigned int pending;		/* open, not late, at finish */
	struct ow_check_heap req_due;	/* waiting requests' deadlines */

	/* token_yields: the nodes with a pass since the last kill */
	struct ow_check_token *token;
	size_t nr_token;
	size_t cap_token;

	/* timer_works */
	unsigned long long timer_ns;	/* timeout + kswapd period + slack */
	struct ow_check_heap node_due;	/* waited-on nodes' deadlines */
};

/*
 * cfg: the recording's (or this kernel's) sysctls; OW_CONFIG_UNKNOWN (or
 * any negative timeout) switches off what depends on them; cfg NULL: all
 * unknown.  opts NULL: ow_check_opts_default().  ow_checker_free() frees
 * what it grew; init again only after it.
 */
void ow_checker_init(struct ow_checker *c, const struct ow_config *cfg,
		     const struct ow_check_opts *opts);
void ow_checker_feed(struct ow_checker *c, const struct oomwatch_event *ev);
/* Events dropped before user space saw them (a lost record). */
void ow_checker_lost(struct ow_checker *c, unsigned long long count);
/*
 * A table of the caller's that cannot grow dropped what (one line, e.g.
 * "the memcg path table is full (65536 ids): 3 memcg lines not kept"):
 * a record_whole violation, so that no limit hides a check silently.
 */
void ow_checker_table_full(struct ow_checker *c, const char *what);
/*
 * End of the recording at now_ns (the last event's ts_ns when replaying;
 * an earlier value is raised to it): open requests and unreclaimable
 * states past their deadline are violations, younger ones are pending.
 * Feeding after finish is ignored.
 */
void ow_checker_finish(struct ow_checker *c, unsigned long long now_ns);
void ow_checker_free(struct ow_checker *c);

/* Violations of one invariant, or of all with inv == 0. */
unsigned long ow_checker_violations(const struct ow_checker *c, int inv);
/* Was the invariant checked at all with this configuration? */
bool ow_checker_enabled(const struct ow_checker *c, int inv);
/* Requests still open and within their bound at finish. */
unsigned int ow_checker_pending(const struct ow_checker *c);

#endif /* OW_CHECKER_H */

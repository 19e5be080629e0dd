/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: the invariant checker of DESIGN.md, fed one event at a time.
 *
 * Pure C: no I/O, no allocation, no libbpf.  The same code runs live in
 * oomwatch and on a recording on the host.  Events must be fed in seq
 * order; time is the events' own ts_ns, never the wall clock.
 *
 * Invariants (ids are stable, they appear in messages and summaries):
 *
 *  1 no_kill_without_grant  arbiter on: every global kill follows an
 *                           oom_grant or oom_fallback since the previous
 *                           global kill; every grant's evidence satisfies
 *                           the rule (unreclaimable_ms >= timeout,
 *                           low_reclaimed == 0, 1..MAX zones each with
 *                           free <= min, looping >= 1).
 *  2 one_kill_per_episode   arbiter on: no grant while the previous
 *                           grant's victim (the next global kill after it)
 *                           lives and memory has not recovered.  An
 *                           oom_veto other than episode_open on the
 *                           grant's node (or naming its pid) means the
 *                           grant's taker did not kill: the grant is
 *                           spent without a victim.
 *  3 liveness               every oom_request is resolved within
 *                           timeout + fallback + slack.  Resolutions: an
 *                           oom_grant on the request's node (the grant
 *                           names the oldest waiter but settles every
 *                           request waiting on that node: one takes it,
 *                           the others get oom_veto episode_open), an
 *                           oom_veto or oom_fallback naming it (any
 *                           reason), the requester's kill or exit, and
 *                           an unreclaimable_clear by progress or freed
 *                           pages (memory recovered).
 *  4 token_yields           token on: no global kill in an episode with a
 *                           swap_token_kept of nr_folios > 0 and no
 *                           swap_token_bypass.  An episode begins after
 *                           a kill, and again when the kept pass's node
 *                           becomes unreclaimable: the OOM decision
 *                           rests on what reclaim did from then on.  A
 *                           holder that lost the token (release, or a
 *                           grab by another process) after the kept
 *                           pass protects nothing any more.
 *  5 timer_works            arbiter on, timeout > 0: an unreclaimable_set
 *                           is cleared within timeout + kswapd period +
 *                           slack, and not by the timer before timeout -
 *                           slack.
 *  6 record_whole           seq +1 each time, ts_ns monotonic per CPU, no
 *                           lost events.
 *
 * A kill is "global" unless its constraint is MEMCG or SYSRQ: UNKNOWN (the
 * observer missed the out_of_memory() entry) is treated as global, so that
 * a gap in what we saw cannot hide a kill.  Episodes run from one global
 * kill to the next.
 */
#ifndef OW_CHECKER_H
#define OW_CHECKER_H

#include <stdbool.h>
#include "trace.h"

enum ow_invariant {
	OW_INV_NO_KILL_WITHOUT_GRANT = 1,
	OW_INV_ONE_KILL_PER_EPISODE = 2,
	OW_INV_LIVENESS = 3,
	OW_INV_TOKEN_YIELDS = 4,
	OW_INV_TIMER_WORKS = 5,
	OW_INV_RECORD_WHOLE = 6,
};

#define OW_NR_INVARIANTS	6
#define OW_NO_SEQ		(~0ULL)	/* violation tied to no one event */
#define OW_MSG_MAX		512

#define OW_CHECK_MAX_REQUESTS	256	/* open oom_requests tracked at once */
#define OW_CHECK_MAX_NODES	64	/* nids 0..63 are checked */
#define OW_CHECK_MAX_CPUS	512	/* cpus 0..511 are checked */

/* "no_kill_without_grant" etc.; NULL for an id out of range. */
const char *ow_invariant_name(int inv);

/* A kill that opens an OOM episode and needs a grant (see above). */
bool ow_kill_is_global(const struct oomwatch_event *ev);

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
};

/* Defaults: slack 250 ms, kswapd period 1000 ms, no callback. */
void ow_check_opts_default(struct ow_check_opts *opts);

struct ow_open_request {
	__u32 pid;
	__s32 nid;			/* the node whose grant settles it */
	char comm[OOMWATCH_COMM_LEN];
	unsigned long long seq;
	unsigned long long ts_ns;
	unsigned long long deadline_ns;
};

struct ow_node_state {
	bool set;			/* unreclaimable, not cleared yet */
	bool late;			/* already reported as not cleared */
	unsigned long long seq;
	unsigned long long ts_ns;
	unsigned long long deadline_ns;
};

/* Opaque in spirit: read it through the functions below. */
struct ow_checker {
	struct ow_config cfg;
	struct ow_check_opts opts;
	bool enabled[OW_NR_INVARIANTS + 1];
	unsigned long nr_violations[OW_NR_INVARIANTS + 1];	/* [0]: all */
	bool finished;
	unsigned long long events;

	/* record_whole */
	bool seq_started;
	unsigned long long last_seq;
	bool cpu_seen[OW_CHECK_MAX_CPUS];
	unsigned long long cpu_ts[OW_CHECK_MAX_CPUS];
	unsigned long long cpu_seq[OW_CHECK_MAX_CPUS];
	unsigned long long lost;
	unsigned long long max_ts;

	/* no_kill_without_grant */
	bool permit;			/* grant or fallback since last kill */

	/* one_kill_per_episode */
	int ep;				/* EP_* in checker.c */
	unsigned long long ep_grant_seq;
	__u32 ep_grant_pid;
	__s32 ep_grant_nid;
	__u32 ep_victim;
	char ep_victim_comm[OOMWATCH_COMM_LEN];

	/* liveness */
	unsigned long long liveness_ns;	/* timeout + fallback + slack */
	struct ow_open_request req[OW_CHECK_MAX_REQUESTS];
	unsigned int nr_req;
	unsigned long untracked_requests;	/* table was full */
	unsigned int pending;		/* open, not late, at finish */

	/* token_yields */
	bool kept;
	unsigned long long kept_seq;
	unsigned long long kept_folios;
	__u32 kept_holder;		/* tgid the kept pass protected */
	int kept_nid;
	bool bypassed;

	/* timer_works */
	unsigned long long timer_ns;	/* timeout + kswapd period + slack */
	struct ow_node_state node[OW_CHECK_MAX_NODES];
};

/*
 * cfg: the recording's (or this kernel's) sysctls; OW_CONFIG_UNKNOWN (or
 * any negative timeout) switches off what depends on them; cfg NULL: all
 * unknown.  opts NULL: ow_check_opts_default().
 */
void ow_checker_init(struct ow_checker *c, const struct ow_config *cfg,
		     const struct ow_check_opts *opts);
void ow_checker_feed(struct ow_checker *c, const struct oomwatch_event *ev);
/* Events dropped before user space saw them (a lost record). */
void ow_checker_lost(struct ow_checker *c, unsigned long long count);
/*
 * End of the recording at now_ns (the last event's ts_ns when replaying;
 * an earlier value is raised to it): open requests and unreclaimable
 * states past their deadline are violations, younger ones are pending.
 * Feeding after finish is ignored.
 */
void ow_checker_finish(struct ow_checker *c, unsigned long long now_ns);

/* Violations of one invariant, or of all with inv == 0. */
unsigned long ow_checker_violations(const struct ow_checker *c, int inv);
/* Was the invariant checked at all with this configuration? */
bool ow_checker_enabled(const struct ow_checker *c, int inv);
/* Requests still open and within their bound at finish. */
unsigned int ow_checker_pending(const struct ow_checker *c);

#endif /* OW_CHECKER_H */

/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: which events -p and -c let through to the printed output.
 *
 * The filter decides what is shown, never what is checked: the session
 * feeds every event to the checker, the statistics, --record and --svg.
 * That is why it is applied in user space, not in BPF: a kill hidden from
 * the checker would make the next grant look like a second one.
 *
 *  -p PID   events whose current task is PID, or that name PID in any
 *           role (requester, thrash taker, victim, token holder,
 *           reclaimer, reaped or exiting task); an oom_grant when PID
 *           waits on its node (the grant settles every waiter there); and
 *           every node's unreclaimable_set/clear, thrashing_set/clear and
 *           oom_thrash_grant, the context of every request and take (a
 *           thrash grant names no task: whoever fails next takes it).
 *  -c SET   of the kills, OOM requests and thrash takes, only those of
 *           tasks in SET: mark_victim when the victim's memcg_id is in
 *           SET; oom_request and oom_thrash_take when the requester's or
 *           taker's memcg is (the event's memcg_id from trace format 2;
 *           in a version 1 recording a request's is unknown, so with -c
 *           such a replay shows no requests, and counts each one it
 *           hides); oom_defer, oom_veto and oom_fallback follow the
 *           request they answer; an oom_grant when it settles a shown
 *           request.  Every other event passes -c.
 *
 *           Live, SET is the ids of a directory of this machine and those
 *           below it.  On a replay (a recorded set, cgroup.h), it is what
 *           the recording's memcg lines say up to the event: the memcgs
 *           named at or below a path, or an id and those named below its
 *           path.  A request whose memcg the recording names no path for
 *           cannot be matched to a path: it is hidden and counted apart.
 *
 * Which requests a verdict or a grant answers is the episode model's
 * (episodes.h), the same answer the checker and the statistics use.
 *
 * With both, an event must pass both.
 */
#ifndef OW_FILTER_H
#define OW_FILTER_H

#include <stdbool.h>
#include "cgroup.h"
#include "episodes.h"
#include "trace.h"

struct ow_filter {
	__u32 tgid;			/* 0: -p not given */
	struct ow_cgroup_set *set;	/* NULL: -c not given */
	const struct ow_memcg_paths *paths;	/* a recorded set's paths */
	bool can_refresh;		/* rescan set on a miss (live) */
	struct ow_ep_ref ep;		/* requests: OW_MARK_SHOWN is ours */
	unsigned long requests_unattributed;	/* -c: requests, memcg unknown */
	unsigned long requests_no_path;	/* -c by path: memcg has no path */
	unsigned long takes_unattributed;	/* -c: thrash takes, the same */
	unsigned long takes_no_path;
};

/*
 * shared: the run's episode model, fed before each event reaches the
 * filter; NULL: the filter keeps and feeds its own.  paths: the memcg
 * paths the recording named so far, read when set is recorded (may be
 * NULL otherwise).
 */
void ow_filter_init(struct ow_filter *f, __u32 tgid, struct ow_cgroup_set *set,
		    const struct ow_memcg_paths *paths, bool can_refresh,
		    struct ow_episodes *shared);
void ow_filter_free(struct ow_filter *f);
bool ow_filter_active(const struct ow_filter *f);

/* Decide for one event, in seq order.  who: for request-type events. */
bool ow_filter_event(struct ow_filter *f, const struct oomwatch_event *ev,
		     const struct ow_requester *who);

#endif /* OW_FILTER_H */

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
 *           role (requester, victim, token holder, reclaimer, reaped or
 *           exiting task); an oom_grant when PID waits on its node (the
 *           grant settles every waiter there); and every node's
 *           unreclaimable_set/clear, the context of every request.
 *  -c SET   mark_victim when the victim's memcg_id is in SET; oom_request,
 *           oom_defer, oom_veto and oom_fallback when the requester's memcg
 *           is (known only live, through the resolver: a recording does
 *           not carry it, so with -c a replay shows no requests); an
 *           oom_grant when a matching request waits on its node.  Other
 *           events pass -c.
 *
 * With both, an event must pass both.
 */
#ifndef OW_FILTER_H
#define OW_FILTER_H

#include <stdbool.h>
#include "cgroup.h"
#include "trace.h"

#define OW_FILTER_MAX_REQUESTS	256

/* The memcg of the task an OOM request event is about, when known. */
struct ow_requester {
	bool known;
	__u64 memcg_id;
};

struct ow_filter {
	__u32 tgid;			/* 0: -p not given */
	struct ow_cgroup_set *set;	/* NULL: -c not given */
	bool can_refresh;		/* rescan set on a miss (live) */
	struct {
		__u32 pid;
		__s32 nid;
		bool shown;		/* its events pass the filter */
	} req[OW_FILTER_MAX_REQUESTS];
	unsigned int nr_req;
	unsigned long requests_unattributed;	/* -c, memcg unknown */
};

void ow_filter_init(struct ow_filter *f, __u32 tgid, struct ow_cgroup_set *set,
		    bool can_refresh);
bool ow_filter_active(const struct ow_filter *f);

/* Decide for one event, in seq order.  who: for request-type events. */
bool ow_filter_event(struct ow_filter *f, const struct oomwatch_event *ev,
		     const struct ow_requester *who);

#endif /* OW_FILTER_H */

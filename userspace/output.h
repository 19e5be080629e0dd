/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: the human timeline.
 *
 * One line per decision, each with its reason chain, and the state
 * changes between them:
 *
 *   REQUEST        a task asks for an OOM kill: who (comm[pid], memcg:
 *                  "memcg /path (id)" when the run named the id's cgroup
 *                  path, "memcg id", or "memcg ?" when it is unknown, as
 *                  in a version 1 recording), node, order, gfp
 *   DEFER          kswapd says "not yet", and which condition fails
 *   VETO           a request ends without a kill, and why
 *   GRANT          kswapd allows a kill: whom it names, how many waiting
 *                  requests it settles, and what kswapd saw: unreclaimable
 *                  for how long, each low zone's free vs min, looping
 *                  tasks, pages reclaimed in the last full scan
 *   FALLBACK       a request leaves the arbiter for the stock path, why
 *   KILL           the victim: RSS, total_vm, oom_score_adj, memcg, and
 *                  what allowed it (the GRANT or FALLBACK, or for a stock
 *                  kill what the allocator saw in reclaim_retry_zone), and
 *                  what the swap token shielded in that episode
 *   REAPED, EXIT   the victim's memory reaped, the victim gone
 *   UNRECLAIMABLE, RECLAIMABLE   node transitions, with the clear's reason
 *   THRASHING, NOT THRASHING     the thrash rule's node transitions: the
 *                  window's refaults and reclaimed pages, how long it
 *                  thrashed, a grant the clear dropped
 *   THRASH GRANT   kswapd allows a kill on a thrashing node, with what it
 *                  saw: thrashing for how long (timeout), the last
 *                  window, swap free of total, each low zone's free vs
 *                  high
 *   THRASH TAKE    an allocating task takes the node's thrash grant: who
 *                  (as REQUEST), which grant, order, gfp; it calls
 *                  out_of_memory() itself, so a KILL names it as what
 *                  allowed the kill
 *   TOKEN, KEPT, BYPASS          swap token moves; the first pass that
 *                  the token shields reclaim from in each episode (later
 *                  ones are counted in the summary, not printed)
 *   !!             an invariant violation, as the checker words it
 *
 * kswapd wake/sleep, direct reclaim, wake_reaper and reclaim_retry_zone
 * are not printed: they are evidence for the lines above, and are in the
 * JSON output and the summary's counts.
 *
 * All state is updated from every event, shown or not, so a filtered
 * timeline still quotes the whole evidence.  Requests, what a grant
 * settles, what allowed a kill and which kills are one memory.oom.group
 * OOM come from the episode model (episodes.h), as for the checker.
 */
#ifndef OW_OUTPUT_H
#define OW_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include "checker.h"
#include "filter.h"
#include "trace.h"

enum ow_clock {
	OW_CLOCK_NONE,		/* only the event's own seconds */
	OW_CLOCK_WALL,		/* -T live: HH:MM:SS.mmm local time first */
	OW_CLOCK_RELATIVE,	/* -T replay: +seconds since the first event */
};

struct ow_out_opts {
	FILE *f;
	enum ow_clock clock;
	long long wall_offset_ns;	/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	struct ow_config cfg;		/* for the wording of timeouts */
	const struct ow_memcg_paths *paths;	/* memcg paths, or NULL */
};

#define OW_OUT_MAX_RETRY	16
#define OW_OUT_MAX_VICTIMS	32

/* The allocator's view of one zone, from oom:reclaim_retry_zone. */
struct ow_out_retry {
	__s32 nid;
	__s32 zone_idx;
	__u32 pid;
	char comm[OOMWATCH_COMM_LEN];
	__u64 reclaimable;
	__u64 available;
	__u64 min_wmark;
	__s32 loops;
	__u32 wmark_check;
};

struct ow_out_victim {
	__u32 pid;
	char comm[OOMWATCH_COMM_LEN];
	unsigned long long ts_ns;
};

struct ow_out {
	struct ow_out_opts o;
	bool started;
	unsigned long long t0;
	unsigned long long last_ts;

	struct ow_ep_ref ep;		/* requests, grants, permits */

	/* Since the last global kill. */
	struct ow_out_retry retry[OW_OUT_MAX_RETRY];
	unsigned int nr_retry;
	unsigned long long kept_folios;	/* largest single pass */
	bool kept_shown;
	unsigned long bypasses;
	unsigned long long shed;	/* context records not written */

	__u32 holder;			/* swap token, 0: nobody */
	char holder_comm[OOMWATCH_COMM_LEN];
	unsigned long kept_hidden;	/* passes not printed */

	struct ow_out_victim victim[OW_OUT_MAX_VICTIMS];	/* ring */
	unsigned int nr_victim;
};

/*
 * shared: the run's episode model, fed before each event reaches the
 * timeline; NULL: it keeps and feeds its own.
 */
void ow_out_init(struct ow_out *o, const struct ow_out_opts *opts,
		 struct ow_episodes *shared);
void ow_out_free(struct ow_out *o);
/* The column titles. */
void ow_out_columns(struct ow_out *o);
/* who: the requester's memcg for request-type events (may be NULL). */
void ow_out_event(struct ow_out *o, const struct oomwatch_event *ev,
		  const struct ow_requester *who, bool show);
void ow_out_violation(struct ow_out *o, const struct ow_violation *v);
/* Context records the BPF side shed (a "shed" line, or its counter). */
void ow_out_shed(struct ow_out *o, unsigned long long count);

#endif /* OW_OUTPUT_H */

/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: summary statistics of a recording or a live run.
 *
 * Counts per event type, OOM episodes (global kills, as the checker
 * defines them), and two latency series in nanoseconds:
 *
 *  request_to_verdict    oom_request to what ends the wait, as the
 *                        episode model (episodes.h) says for every view:
 *                        an oom_grant on the request's node (whichever
 *                        pid it names: a grant settles every request
 *                        waiting there), an oom_veto or oom_fallback
 *                        naming the pid, its node's recovery, the
 *                        requester's kill or exit, its own thrash
 *                        take.  oom_defer is no
 *                        verdict: the task keeps waiting.  A task asking
 *                        again while it waits keeps its first request's
 *                        clock;
 *  unreclaimable_to_kill per node, from the first unreclaimable_set since
 *                        the previous global kill (a clear by progress or
 *                        freed pages starts over; one by the timer does
 *                        not, the node is still hopeless) to the next
 *                        global kill.
 *
 * An OOM episode is a global kill; the further members of one
 * memory.oom.group kill are the same episode.
 *
 * Per node the thrash rule's work, as the episode model counts it:
 * thrashing_sets, the time thrashing (set to clear, from the recorded
 * timestamps; a spell still open counts up to the last event), thrash
 * grants and takes.
 *
 * Samples are kept in growable arrays (malloc); when memory runs out a
 * sample is dropped and counted, never the program.
 */
#ifndef OW_STATS_H
#define OW_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "checker.h"

/* Nodes the summary line lists in "thrashing" (it says how many there are). */
#define OW_STATS_THRASH_NODES	8

struct ow_samples {
	unsigned long long *v;
	size_t n;
	size_t cap;
};

/* min, median and p95 by nearest rank (1-based rank ceil(p/100 * n)). */
struct ow_pct {
	size_t n;
	unsigned long long min;
	unsigned long long median;
	unsigned long long p95;
	unsigned long long max;
};

/*
 * Sorts v[0..n) in place and fills *out; n == 0 gives all zeroes.
 * Returns 0, or -1 when n == 0 (nothing to describe).
 */
int ow_percentiles(unsigned long long *v, size_t n, struct ow_pct *out);

struct ow_stats {
	unsigned long long events;
	unsigned long long count[OW_NR_TYPES];	/* [0]: types out of range */
	unsigned long long episodes;
	unsigned long long lost;
	unsigned long long shed;	/* context records not written */
	unsigned long long dropped_samples;	/* malloc failed */

	struct ow_samples request_to_verdict;
	struct ow_samples unreclaimable_to_kill;

	struct ow_ep_ref ep;		/* requests, kills, spells, thrashing */
	unsigned long long last_ts;	/* of the latest event */
};

/*
 * shared: the run's episode model, fed before each event reaches the
 * statistics; NULL: they keep and feed their own.
 */
void ow_stats_init(struct ow_stats *s, struct ow_episodes *shared);
void ow_stats_feed(struct ow_stats *s, const struct oomwatch_event *ev);
void ow_stats_lost(struct ow_stats *s, unsigned long long count);
void ow_stats_shed(struct ow_stats *s, unsigned long long count);
void ow_stats_free(struct ow_stats *s);

/*
 * The human summary, several lines, and the JSON "summary" line:
 *   {"v":3,"type":"summary","events":N,"lost":N,"shed":N,"episodes":N,
 *    "counts":{"mark_victim":N,...every type...},
 *    "request_to_verdict_ns":{"n":N,"min":N,"median":N,"p95":N,"max":N},
 *    "unreclaimable_to_kill_ns":{...},
 *    "thrashing":[{"nid":N,"sets":N,"thrashing_ms":N,"grants":N,
 *                  "takes":N},...],"thrashing_nodes":N,"dropped_samples":N,
 *    "pending_requests":N,"violations_total":N,
 *    "violations":{"no_kill_without_grant":N,...},
 *    "checked":["liveness",...]}
 * c may be NULL (no checker ran): the checker's keys are left out.  Both
 * sort the samples in place.  write_json writes "v":version, the version
 * of the lines before it, and returns 0 or -1 with errno.
 */
void ow_stats_print(FILE *f, struct ow_stats *s, const struct ow_checker *c);
int ow_stats_write_json(FILE *f, unsigned int version, struct ow_stats *s,
			const struct ow_checker *c);

#endif /* OW_STATS_H */

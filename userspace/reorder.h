/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: puts live events back into seq order.
 *
 * The BPF side takes an event's seq after reserving its ring buffer slot,
 * and the ring buffer hands records out in reservation order: two CPUs
 * racing can deliver seq 8 before seq 7.  The checker wants seq order (a
 * swap would be "out of order", a real gap "events lost"), so live events
 * wait here until the one expected next has come.  A seq that never comes
 * (its reservation failed: the drop counter has it) is given up on after
 * wait_ms, and the record shows the gap, as it should.
 *
 * Pure: time is passed in, nothing is allocated after init.
 */
#ifndef OW_REORDER_H
#define OW_REORDER_H

#include <stdbool.h>
#include "trace.h"

#define OW_REORDER_MAX	4096	/* events held at most */

struct ow_reorder_slot {
	struct oomwatch_event ev;
	unsigned long long arrived_ms;
};

struct ow_reorder {
	unsigned long long next;	/* the seq expected next */
	unsigned int wait_ms;
	unsigned int n;
	unsigned long long gaps;	/* seqs given up on */
	struct ow_reorder_slot heap[OW_REORDER_MAX];	/* min-heap by seq */
};

/* first: the seq of the first event (0: the BPF counter starts there). */
void ow_reorder_init(struct ow_reorder *r, unsigned long long first,
		     unsigned int wait_ms);
bool ow_reorder_full(const struct ow_reorder *r);
/* Refused (false) only when full: pop with force first. */
bool ow_reorder_push(struct ow_reorder *r, const struct oomwatch_event *ev,
		     unsigned long long now_ms);
/*
 * 1 and the next event in *out when one may go: the expected seq (or an
 * older one: a duplicate), or the lowest held one after wait_ms or when
 * force is set (end of the run, or full); else 0.
 */
int ow_reorder_pop(struct ow_reorder *r, unsigned long long now_ms, bool force,
		   struct oomwatch_event *out);

#endif /* OW_REORDER_H */

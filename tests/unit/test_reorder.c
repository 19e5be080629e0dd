// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The live reorder window: in-order events pass at once, a swapped pair
 * comes out sorted, a seq that never arrives is given up on after the
 * wait (and counted), force drains, duplicates and old seqs pass through
 * for the checker to judge.
 */
#include <stdlib.h>
#include <string.h>
#include "reorder.h"

#include "tap.h"

static struct ow_reorder r;

static void push(unsigned long long seq, unsigned long long now)
{
	struct oomwatch_event ev = { .seq = seq, .type = OW_KSWAPD_WAKE };

	ow_reorder_push(&r, &ev, now);
}

/* Pops everything ready at now into out[]; returns how many. */
static int drain(unsigned long long now, bool force, unsigned long long *out)
{
	struct oomwatch_event ev;
	int n = 0;

	while (ow_reorder_pop(&r, now, force, &ev))
		out[n++] = ev.seq;
	return n;
}

static bool seqs(const unsigned long long *got, int n,
		 const unsigned long long *want, int m)
{
	if (n != m) {
		tap_diag("got %d events, want %d", n, m);
		return false;
	}
	for (int i = 0; i < n; i++)
		if (got[i] != want[i]) {
			tap_diag("at %d: got seq %llu, want %llu", i, got[i],
				 want[i]);
			return false;
		}
	return true;
}

int main(void)
{
	unsigned long long out[OW_REORDER_MAX + 8];
	int n;

	ow_reorder_init(&r, 0, 250);
	push(0, 0);
	push(1, 0);
	n = drain(0, false, out);
	tap_ok(seqs(out, n, (unsigned long long[]){ 0, 1 }, 2),
	       "reorder: in-order events pass at once");

	push(3, 1);
	n = drain(1, false, out);
	tap_ok(n == 0, "reorder: seq 3 waits for seq 2");
	push(2, 2);
	n = drain(2, false, out);
	tap_ok(seqs(out, n, (unsigned long long[]){ 2, 3 }, 2),
	       "reorder: a swapped pair comes out sorted");

	push(6, 20);
	push(5, 10);
	n = drain(200, false, out);
	tap_ok(n == 0, "reorder: a gap is waited on for wait_ms");
	n = drain(260, false, out);
	tap_ok(seqs(out, n, (unsigned long long[]){ 5, 6 }, 2) && r.gaps == 1,
	       "reorder: after wait_ms the gap is given up on and counted");

	push(4, 300);		/* the late one: older than expected */
	push(7, 300);
	n = drain(300, false, out);
	tap_ok(seqs(out, n, (unsigned long long[]){ 4, 7 }, 2),
	       "reorder: an old seq passes at once, for the checker to judge");

	push(9, 400);
	push(11, 400);
	n = drain(400, true, out);
	tap_ok(seqs(out, n, (unsigned long long[]){ 9, 11 }, 2) && r.gaps == 3,
	       "reorder: force drains across gaps");

	for (unsigned long long s = 0; s < OW_REORDER_MAX; s++)
		push(100 + s, 500);
	tap_ok(ow_reorder_full(&r) && !ow_reorder_push(&r, &(struct
	       oomwatch_event){ .seq = 1 }, 500),
	       "reorder: a full window refuses, the caller pops with force");
	n = drain(500, true, out);
	tap_ok(n == OW_REORDER_MAX && out[0] == 100 &&
	       out[n - 1] == 100 + OW_REORDER_MAX - 1 && !r.n,
	       "reorder: %d events drained in order", n);
	return tap_done();
}

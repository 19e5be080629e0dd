// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: the reorder window; reorder.h says why it exists.
 */
#include <string.h>
#include "reorder.h"

void ow_reorder_init(struct ow_reorder *r, unsigned long long first,
		     unsigned int wait_ms)
{
	r->next = first;
	r->wait_ms = wait_ms;
	r->n = 0;
	r->gaps = 0;
}

bool ow_reorder_full(const struct ow_reorder *r)
{
	return r->n == OW_REORDER_MAX;
}

static bool before(const struct ow_reorder_slot *a,
		   const struct ow_reorder_slot *b)
{
	return a->ev.seq < b->ev.seq;
}

static void swap(struct ow_reorder_slot *a, struct ow_reorder_slot *b)
{
	struct ow_reorder_slot t = *a;

	*a = *b;
	*b = t;
}

bool ow_reorder_push(struct ow_reorder *r, const struct oomwatch_event *ev,
		     unsigned long long now_ms)
{
	unsigned int i;

	if (ow_reorder_full(r))
		return false;
	i = r->n++;
	r->heap[i].ev = *ev;
	r->heap[i].arrived_ms = now_ms;
	while (i && before(&r->heap[i], &r->heap[(i - 1) / 2])) {
		swap(&r->heap[i], &r->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return true;
}

static void take_min(struct ow_reorder *r, struct oomwatch_event *out)
{
	unsigned int i = 0;

	*out = r->heap[0].ev;
	r->heap[0] = r->heap[--r->n];
	for (;;) {
		unsigned int l = 2 * i + 1, m = i;

		if (l < r->n && before(&r->heap[l], &r->heap[m]))
			m = l;
		if (l + 1 < r->n && before(&r->heap[l + 1], &r->heap[m]))
			m = l + 1;
		if (m == i)
			break;
		swap(&r->heap[i], &r->heap[m]);
		i = m;
	}
}

int ow_reorder_pop(struct ow_reorder *r, unsigned long long now_ms, bool force,
		   struct oomwatch_event *out)
{
	const struct ow_reorder_slot *head;

	if (!r->n)
		return 0;
	head = &r->heap[0];
	if (head->ev.seq > r->next && !force &&
	    now_ms < head->arrived_ms + r->wait_ms)
		return 0;
	if (head->ev.seq > r->next)
		r->gaps += head->ev.seq - r->next;
	take_min(r, out);
	if (out->seq >= r->next)
		r->next = out->seq + 1;
	return 1;
}

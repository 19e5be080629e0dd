// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: the model of OOM episodes every view reads; episodes.h says
 * what it follows and why it is one.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "episodes.h"

bool ow_kill_is_global(const struct oomwatch_event *ev)
{
	return ev->type == OW_MARK_VICTIM &&
	       ev->victim.constraint != OW_CONSTRAINT_MEMCG &&
	       ev->victim.constraint != OW_CONSTRAINT_SYSRQ;
}

/*
 * Room for need items in *v (cap of them now): the array itself, or NULL
 * when memory ran out (then *v is left as it was).
 */
static void *grow(void *v, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 8;

	if (need <= *cap)
		return v;
	while (n < need && n <= SIZE_MAX / 2)
		n *= 2;
	if (n < need || n > SIZE_MAX / size)
		return NULL;
	v = realloc(v, n * size);
	if (v)
		*cap = n;
	return v;
}

/* Appends x to the array *v of *nr; false when out of memory. */
static bool push_index(struct ow_episodes *m, size_t **v, size_t *nr,
		       size_t *cap, size_t x)
{
	size_t *p = grow(*v, cap, *nr + 1, sizeof(*p));

	if (!p) {
		m->nomem++;
		return false;
	}
	*v = p;
	p[(*nr)++] = x;
	return true;
}

/* ---------------------------------------------------------------- maps */

/*
 * Linear probing, deletion by shifting back the entries after it, so
 * that a lookup stops at the first empty slot and no tombstones pile up.
 */
struct ow_ep_slot {
	__u32 key;
	bool used;
	size_t val;
};

static size_t map_home(const struct ow_ep_map *t, __u32 key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & (t->cap - 1);
}

static struct ow_ep_slot *map_find(const struct ow_ep_map *t, __u32 key)
{
	if (!t->cap)
		return NULL;
	for (size_t i = map_home(t, key);; i = (i + 1) & (t->cap - 1)) {
		if (!t->slot[i].used)
			return NULL;
		if (t->slot[i].key == key)
			return &t->slot[i];
	}
}

static bool map_get(const struct ow_ep_map *t, __u32 key, size_t *val)
{
	const struct ow_ep_slot *e = map_find(t, key);

	if (e && val)
		*val = e->val;
	return e != NULL;
}

static void map_insert(struct ow_ep_map *t, __u32 key, size_t val)
{
	size_t i = map_home(t, key);

	while (t->slot[i].used)
		i = (i + 1) & (t->cap - 1);
	t->slot[i] = (struct ow_ep_slot){ key, true, val };
	t->nr++;
}

/* Kept at most half full: doubles, or fails when memory runs out. */
static bool map_room(struct ow_ep_map *t)
{
	struct ow_ep_map big;

	if ((t->nr + 1) * 2 <= t->cap)
		return true;
	big.cap = t->cap ? t->cap * 2 : 64;
	big.nr = 0;
	big.slot = big.cap <= SIZE_MAX / sizeof(*big.slot) ?
		   calloc(big.cap, sizeof(*big.slot)) : NULL;
	if (!big.slot)
		return false;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slot[i].used)
			map_insert(&big, t->slot[i].key, t->slot[i].val);
	free(t->slot);
	*t = big;
	return true;
}

/* Sets key to val; false (and nomem counted) when out of memory. */
static bool map_set(struct ow_episodes *m, struct ow_ep_map *t, __u32 key,
		    size_t val)
{
	struct ow_ep_slot *e = map_find(t, key);

	if (e) {
		e->val = val;
		return true;
	}
	if (!map_room(t)) {
		m->nomem++;
		return false;
	}
	map_insert(t, key, val);
	return true;
}

static void map_del(struct ow_ep_map *t, __u32 key)
{
	struct ow_ep_slot *e = map_find(t, key);
	size_t i, j;

	if (!e)
		return;
	i = e - t->slot;
	t->slot[i].used = false;
	t->nr--;
	/* Shift back every entry that would not be found past the hole. */
	for (j = (i + 1) & (t->cap - 1); t->slot[j].used;
	     j = (j + 1) & (t->cap - 1)) {
		size_t home = map_home(t, t->slot[j].key);

		if (((j - home) & (t->cap - 1)) >= ((j - i) & (t->cap - 1))) {
			t->slot[i] = t->slot[j];
			t->slot[j].used = false;
			i = j;
		}
	}
}

static void map_free(struct ow_ep_map *t)
{
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* ------------------------------------------------------------- set-up */

void ow_episodes_init(struct ow_episodes *m)
{
	memset(m, 0, sizeof(*m));
	m->free_req = OW_EP_NIL;
}

void ow_episodes_free(struct ow_episodes *m)
{
	for (size_t i = 0; i < m->nr_node; i++)
		free(m->node[i].victim);
	free(m->node);
	free(m->req);
	free(m->alive);
	free(m->fallback);
	free(m->open_ep);
	free(m->spell);
	map_free(&m->req_of);
	map_free(&m->ended);
	map_free(&m->killed);
	map_free(&m->node_of);
	map_free(&m->fallback_of);
	free(m->step.change);
	free(m->step.spell_ts);
	free(m->step.wait_began);
	free(m->step.touched);
	ow_episodes_init(m);
}

/* ------------------------------------------------------------- lookups */

struct ow_ep_request *ow_episodes_request(struct ow_episodes *m, __u32 pid)
{
	size_t i;

	return map_get(&m->req_of, pid, &i) ? &m->req[i] : NULL;
}

const struct ow_ep_change *ow_episodes_change(const struct ow_episodes *m,
					      __u32 pid)
{
	for (size_t i = m->step.nr_change; i-- > 0;)
		if (m->step.change[i].r.pid == pid)
			return &m->step.change[i];
	return NULL;
}

struct ow_ep_node *ow_episodes_node(struct ow_episodes *m, __s32 nid)
{
	size_t i;

	return map_get(&m->node_of, (__u32)nid, &i) ? &m->node[i] : NULL;
}

unsigned int ow_episodes_waiting_on(const struct ow_episodes *m, __s32 nid)
{
	size_t i;

	return map_get(&m->node_of, (__u32)nid, &i) ?
	       m->node[i].nr_waiting : 0;
}

static const struct ow_episodes *sort_model;

static int by_nid(const void *a, const void *b)
{
	__s32 x = sort_model->node[*(const size_t *)a].nid;
	__s32 y = sort_model->node[*(const size_t *)b].nid;

	return (x > y) - (x < y);
}

size_t *ow_episodes_nodes_by_nid(const struct ow_episodes *m)
{
	size_t *idx;

	if (!m->nr_node)
		return NULL;
	idx = malloc(m->nr_node * sizeof(*idx));
	if (!idx)
		return NULL;
	for (size_t i = 0; i < m->nr_node; i++)
		idx[i] = i;
	sort_model = m;
	qsort(idx, m->nr_node, sizeof(*idx), by_nid);
	sort_model = NULL;
	return idx;
}

/* The thrash clock restarts at the last mark_victim, of any OOM. */
static void clock_from_victim(const struct ow_episodes *m,
			      struct ow_ep_thrash *th)
{
	th->clock = OW_TH_CLOCK_KILL;
	th->clock_seq = m->victim_seq;
	th->clock_ts = m->victim_ts;
}

/* The node's index, made when first named; false when out of memory. */
static bool node_index(struct ow_episodes *m, __s32 nid, size_t *i)
{
	struct ow_ep_node *v;

	if (map_get(&m->node_of, (__u32)nid, i))
		return true;
	v = grow(m->node, &m->cap_node, m->nr_node + 1, sizeof(*v));
	if (!v) {
		m->nomem++;
		return false;
	}
	m->node = v;
	if (!map_set(m, &m->node_of, (__u32)nid, m->nr_node))
		return false;
	*i = m->nr_node++;
	v = &m->node[*i];
	memset(v, 0, sizeof(*v));
	v->nid = nid;
	v->req_head = v->req_tail = OW_EP_NIL;
	/* A node first named now may have thrashed since before the kill. */
	if (m->victim_seen)
		clock_from_victim(m, &v->th);
	return true;
}

/* The node, made when first named; NULL when out of memory. */
static struct ow_ep_node *node_get(struct ow_episodes *m, __s32 nid)
{
	size_t i;

	return node_index(m, nid, &i) ? &m->node[i] : NULL;
}

/* Its waiting or unreclaimable state changes: note_waits() looks again. */
static void touch(struct ow_episodes *m, struct ow_ep_node *n)
{
	struct ow_ep_step *st = &m->step;

	if (n->dirty)
		return;
	if (push_index(m, &st->touched, &st->nr_touched, &st->cap_touched,
		       n - m->node))
		n->dirty = true;
}

/* ------------------------------------------------------------ requests */

static void note_change(struct ow_episodes *m, const struct ow_ep_request *r,
			enum ow_req_end why, bool ended, bool dropped)
{
	struct ow_ep_step *st = &m->step;
	struct ow_ep_change *v;

	v = grow(st->change, &st->cap_change, st->nr_change + 1, sizeof(*v));
	if (!v) {
		m->nomem++;
		return;
	}
	st->change = v;
	v[st->nr_change].r = *r;
	v[st->nr_change].why = why;
	v[st->nr_change].ended = ended;
	v[st->nr_change].dropped = dropped;
	st->nr_change++;
}

/*
 * The record goes.  A task that asks again gets a new one; any other end
 * is remembered by pid, so that a verdict naming it later is known stale;
 * but a waiter that is killed stays on the kernel's list until it wakes
 * and traces its fallback (dying): until then a verdict may name it.
 */
static void drop_req(struct ow_episodes *m, size_t i, enum ow_req_end why)
{
	struct ow_ep_request *r = &m->req[i];
	struct ow_ep_node *n = &m->node[r->node];

	note_change(m, r, why, !r->settled, true);
	if (r->prev != OW_EP_NIL)
		m->req[r->prev].next = r->next;
	else
		n->req_head = r->next;
	if (r->next != OW_EP_NIL)
		m->req[r->next].prev = r->prev;
	else
		n->req_tail = r->prev;
	n->nr_req--;
	if (!r->settled) {
		n->nr_waiting--;
		touch(m, n);
	}
	map_del(&m->req_of, r->pid);
	if (why == OW_END_KILLED)
		map_set(m, &m->killed, r->pid, (__u32)r->nid);
	else if (why != OW_END_REPLACED && why != OW_END_FORGOTTEN)
		map_set(m, &m->ended, r->pid, 0);
	r->used = false;
	r->next = m->free_req;
	m->free_req = i;
}

static void end_pid(struct ow_episodes *m, __u32 pid, enum ow_req_end why)
{
	size_t i;

	/* A killed waiter's own verdict, or its exit, takes it off the list. */
	if (why != OW_END_KILLED && map_get(&m->killed, pid, NULL)) {
		map_del(&m->killed, pid);
		map_set(m, &m->ended, pid, 0);
	}
	if (map_get(&m->req_of, pid, &i))
		drop_req(m, i, why);
}

/* It stops waiting; the record stays for the lines that name it. */
static void settle(struct ow_episodes *m, size_t i, enum ow_req_end why)
{
	struct ow_ep_request *r = &m->req[i];

	if (r->settled)
		return;
	note_change(m, r, why, true, false);
	r->settled = true;
	m->node[r->node].nr_waiting--;
	touch(m, &m->node[r->node]);
}

/* A free slot for a record; false when out of memory. */
static bool req_slot(struct ow_episodes *m, size_t *i)
{
	struct ow_ep_request *v;

	if (m->free_req != OW_EP_NIL) {
		*i = m->free_req;
		m->free_req = m->req[*i].next;
		return true;
	}
	v = grow(m->req, &m->cap_req, m->nr_req + 1, sizeof(*v));
	if (!v) {
		m->nomem++;
		return false;
	}
	m->req = v;
	*i = m->nr_req++;
	return true;
}

/* ----------------------------------------------------- fallback permits */

/* Takes pid's fallback permit into *p; false when it has none. */
static bool take_fallback(struct ow_episodes *m, __u32 pid,
			  struct ow_ep_permit *p)
{
	size_t i, last = m->nr_fallback - 1;

	if (!map_get(&m->fallback_of, pid, &i))
		return false;
	*p = m->fallback[i];
	map_del(&m->fallback_of, pid);
	if (i != last) {
		m->fallback[i] = m->fallback[last];
		map_set(m, &m->fallback_of, m->fallback[i].pid, i);
	}
	m->nr_fallback--;
	return true;
}

static void drop_fallback(struct ow_episodes *m, __u32 pid)
{
	struct ow_ep_permit p;

	take_fallback(m, pid, &p);
}

static void give_fallback(struct ow_episodes *m, const struct oomwatch_event *ev)
{
	struct ow_ep_permit *v;
	size_t i;

	if (!map_get(&m->fallback_of, ev->request.pid, &i)) {
		v = grow(m->fallback, &m->cap_fallback, m->nr_fallback + 1,
			 sizeof(*v));
		if (!v) {
			m->nomem++;
			return;
		}
		m->fallback = v;
		if (!map_set(m, &m->fallback_of, ev->request.pid,
			     m->nr_fallback))
			return;
		i = m->nr_fallback++;
	}
	m->fallback[i] = (struct ow_ep_permit){ OW_OOM_FALLBACK, ev->seq,
						ev->ts_ns, ev->request.nid,
						ev->request.pid };
}

/* A task asking again while it waits keeps its first request's clock. */
static void on_request(struct ow_episodes *m, const struct oomwatch_event *ev,
		       const struct ow_requester *who)
{
	struct ow_ep_request *v;
	struct ow_ep_node *n;
	size_t i, ni;

	/* A new allocation's OOM: its last one's fallback is spent. */
	drop_fallback(m, ev->request.pid);
	if (map_get(&m->req_of, ev->request.pid, &i)) {
		if (!m->req[i].settled)
			return;
		drop_req(m, i, OW_END_REPLACED);
	}
	map_del(&m->ended, ev->request.pid);
	map_del(&m->killed, ev->request.pid);
	m->step.new_request = true;
	if (!node_index(m, ev->request.nid, &ni) || !req_slot(m, &i))
		return;
	if (!map_set(m, &m->req_of, ev->request.pid, i)) {
		m->req[i].used = false;
		m->req[i].next = m->free_req;
		m->free_req = i;
		return;
	}
	n = &m->node[ni];
	v = &m->req[i];
	memset(v, 0, sizeof(*v));
	v->pid = ev->request.pid;
	v->nid = ev->request.nid;
	memcpy(v->comm, ev->request.comm, sizeof(v->comm));
	v->seq = ev->seq;
	v->ts_ns = ev->ts_ns;
	if (who)
		v->who = *who;
	v->used = true;
	v->node = ni;
	v->prev = n->req_tail;
	v->next = OW_EP_NIL;
	if (n->req_tail != OW_EP_NIL)
		m->req[n->req_tail].next = i;
	else
		n->req_head = i;
	n->req_tail = i;
	n->nr_req++;
	n->nr_waiting++;
	touch(m, n);
}

/*
 * Whether pid is on nid's waiters as far as the record can tell: a
 * request there (waiting, or settled and not yet gone: the kernel keeps
 * it listed until it wakes), one elsewhere, one that ended, or none
 * recorded at all.
 */
static enum ow_ep_named named(struct ow_episodes *m, __u32 pid, __s32 nid)
{
	const struct ow_ep_request *r;
	size_t on;

	if (!pid)
		return OW_NAMED_NOBODY;
	if (map_get(&m->killed, pid, &on) && (__s32)on == nid)
		return OW_NAMED_WAITER;
	r = ow_episodes_request(m, pid);
	if (r && r->nid == nid)
		return OW_NAMED_WAITER;
	if (r) {
		m->step.elsewhere = *r;
		return OW_NAMED_ELSEWHERE;
	}
	return map_get(&m->ended, pid, NULL) ? OW_NAMED_ENDED :
	       OW_NAMED_UNSEEN;
}

static void on_defer(struct ow_episodes *m, const struct oomwatch_event *ev)
{
	m->step.named = named(m, ev->request.pid, ev->request.nid);
}

/* ------------------------------------------------------------ episodes */

static void set_ep(struct ow_episodes *m, struct ow_ep_node *n,
		   enum ow_ep_state ep)
{
	size_t i = n - m->node;

	if ((n->ep == OW_EP_NONE) == (ep == OW_EP_NONE)) {
		n->ep = ep;
		return;
	}
	if (ep != OW_EP_NONE) {
		if (!push_index(m, &m->open_ep, &m->nr_open_ep,
				&m->cap_open_ep, i))
			return;
		n->ep_pos = m->nr_open_ep - 1;
	} else {
		size_t last = m->open_ep[--m->nr_open_ep];

		m->open_ep[n->ep_pos] = last;
		m->node[last].ep_pos = n->ep_pos;
	}
	n->ep = ep;
}

static void end_episode(struct ow_episodes *m, struct ow_ep_node *n)
{
	set_ep(m, n, OW_EP_NONE);
	n->nr_victim = 0;
}

/* Appends the victim of ev to *v (*nr of them); false when out of memory. */
static bool push_victim(struct ow_episodes *m, struct ow_ep_victim **v,
			size_t *nr, size_t *cap, const struct oomwatch_event *ev,
			unsigned long long oom)
{
	struct ow_ep_victim *p = grow(*v, cap, *nr + 1, sizeof(*p));

	if (!p) {
		m->nomem++;
		return false;
	}
	*v = p;
	p[*nr].pid = ev->victim.pid;
	memcpy(p[*nr].comm, ev->victim.comm, sizeof(p->comm));
	p[*nr].seq = ev->seq;
	p[*nr].oom = oom;
	(*nr)++;
	return true;
}

static void add_victim(struct ow_episodes *m, struct ow_ep_node *n,
		       const struct oomwatch_event *ev, unsigned long long oom)
{
	if (push_victim(m, &n->victim, &n->nr_victim, &n->cap_victim, ev,
			oom))
		set_ep(m, n, OW_EP_VICTIM);
}

/* Drops every victim pid or tgid names from v; the order is not kept. */
static void drop_victim(struct ow_ep_victim *v, size_t *nr, __u32 pid,
			__u32 tgid)
{
	size_t k = 0;

	while (k < *nr) {
		if (v[k].pid == pid || v[k].pid == tgid)
			v[k] = v[--*nr];
		else
			k++;
	}
}

/* The episode a grant on nid breaks into: nid's own, else the lowest. */
static const struct ow_ep_node *open_episode(const struct ow_episodes *m,
					     __s32 nid)
{
	const struct ow_ep_node *any = NULL;

	for (size_t i = 0; i < m->nr_open_ep; i++) {
		const struct ow_ep_node *n = &m->node[m->open_ep[i]];

		if (n->nid == nid)
			return n;
		if (!any || n->nid < any->nid)
			any = n;
	}
	return any;
}

/*
 * The longest the record lets the node have been unreclaimable at ts:
 * since the first set after its last recovery (the kernel quotes less:
 * the time up to the timer clear while the rescan it forced is pending,
 * or since the latest set), or nothing since a recovery with no set
 * after it.  A node nothing was recorded of was set before the first
 * event, if at all: at least that long ago.  A timer clear of a set
 * before the recording leaves it unknown.
 */
static void evidence(const struct ow_episodes *m, const struct ow_ep_node *n,
		     unsigned long long ts, struct ow_ep_evidence *e)
{
	memset(e, 0, sizeof(*e));
	if (!n || (!n->since && !n->recovered)) {
		e->basis = OW_BASIS_BEFORE;
		e->min_ns = ts > m->first_ts ? ts - m->first_ts : 0;
		e->since_seq = m->first_seq;
		e->since_ts = m->first_ts;
		return;
	}
	if (!n->since_known && n->since)
		return;
	if (n->since) {
		e->basis = OW_BASIS_SET;
		e->max_ns = ts > n->since_ts ? ts - n->since_ts : 0;
		e->since_seq = n->since_seq;
		e->since_ts = n->since_ts;
	} else {
		e->basis = OW_BASIS_RECOVERED;
		e->since_seq = n->recovered_seq;
		e->since_ts = n->recovered_ts;
	}
}

/*
 * A grant settles every request waiting on its node (kswapd wakes its
 * own node's waiters only); a record an earlier grant settled and nothing
 * ended is gone.  Whoever leaves the wait first owns the grant: with no
 * request recorded on the node, and a named pid the record knows is not
 * there, nobody can, and the grant permits no kill.
 */
static void on_grant(struct ow_episodes *m, const struct oomwatch_event *ev)
{
	const struct ow_ep_node *open = open_episode(m, ev->grant.nid);
	struct ow_ep_step *st = &m->step;
	struct ow_ep_node *n;
	size_t i, ni;

	if (open) {
		st->blocked = true;
		st->open = *open;
		st->open.victim = NULL;
		if (open->nr_victim)
			st->first = open->victim[0];
	}
	st->named = named(m, ev->grant.pid, ev->grant.nid);
	n = ow_episodes_node(m, ev->grant.nid);
	evidence(m, n, ev->ts_ns, &st->evidence);
	st->unowned = (!n || !n->nr_req) && st->named != OW_NAMED_UNSEEN &&
		      st->named != OW_NAMED_WAITER;
	if (!node_index(m, ev->grant.nid, &ni))
		return;
	n = &m->node[ni];
	for (i = n->req_head; i != OW_EP_NIL;) {
		size_t next = m->req[i].next;

		if (m->req[i].settled)
			drop_req(m, i, OW_END_FORGOTTEN);
		else
			settle(m, i, OW_END_GRANT);
		i = next;
	}
	m->group_open = false;
	if (st->unowned)
		return;
	n = &m->node[ni];
	n->nr_victim = 0;
	set_ep(m, n, OW_EP_GRANTED);
	n->grant_type = OW_OOM_GRANT;
	n->grant_seq = ev->seq;
	n->grant_ts = ev->ts_ns;
	n->grant_pid = ev->grant.pid;
	m->permit = (struct ow_ep_permit){ OW_OOM_GRANT, ev->seq, ev->ts_ns,
					   ev->grant.nid, ev->grant.pid };
}

static void on_fallback(struct ow_episodes *m, const struct oomwatch_event *ev)
{
	end_pid(m, ev->request.pid, OW_END_VERDICT);
	give_fallback(m, ev);
	m->group_open = false;
}

/*
 * Every veto ends its request's wait.  Only alloc_ok says something of a
 * grant: its owner's last check found memory, and it kills nobody.  The
 * owner is whoever left the wait on the grant's node first; any other
 * veto there (episode_open, recovered, above_min) comes from a request
 * that found the grant already owned (arbiter_leave()).
 */
static void on_veto(struct ow_episodes *m, const struct oomwatch_event *ev)
{
	struct ow_ep_node *n;

	/*
	 * A no_victim veto is the taker's own event after a thrash take
	 * found nobody to kill: step_begin() already ended the take's
	 * permit, and the taker has no request waiting.
	 */
	end_pid(m, ev->request.pid, OW_END_VERDICT);
	if (ev->request.reason != OW_VETO_ALLOC_OK)
		return;
	n = ow_episodes_node(m, ev->request.nid);
	if (!n || n->ep != OW_EP_GRANTED || n->grant_type != OW_OOM_GRANT)
		return;
	end_episode(m, n);
	if (m->permit.type == OW_OOM_GRANT && m->permit.seq == n->grant_seq)
		m->permit = (struct ow_ep_permit){ 0 };
}

/*
 * Still the group's out_of_memory() call: one of its victims lives, or
 * the last was marked a moment ago (OW_GROUP_GAP_NS).  A kill after its
 * victims are all gone, and long after, is a new OOM.
 */
static bool group_alive(const struct ow_episodes *m,
			const struct oomwatch_event *ev)
{
	if (ev->ts_ns <= m->group_last_ts ||
	    ev->ts_ns - m->group_last_ts <= OW_GROUP_GAP_NS)
		return true;
	for (size_t i = 0; i < m->nr_alive; i++)
		if (m->alive[i].oom == m->group_seq)
			return true;
	return false;
}

/* A further member of the last global kill's memory.oom.group. */
static void on_group_member(struct ow_episodes *m,
			    const struct oomwatch_event *ev)
{
	struct ow_ep_node *n;

	m->step.kill_group = true;
	m->step.group_seq = m->group_seq;
	m->step.permit = m->group_permit;
	if (!m->group_in_episode)
		return;
	/*
	 * Only into an episode still open: once the node recovered, or
	 * the first members exited, the OOM's episode is over and a late
	 * member must not reopen it.
	 */
	n = ow_episodes_node(m, m->group_nid);
	if (n && n->ep == OW_EP_VICTIM)
		add_victim(m, n, ev, m->group_seq);
}

static void end_spells(struct ow_episodes *m)
{
	struct ow_ep_step *st = &m->step;

	for (size_t i = 0; i < m->nr_spell; i++) {
		struct ow_ep_node *n = &m->node[m->spell[i]];
		unsigned long long *v;

		n->in_spell = false;
		if (!n->spell)
			continue;
		n->spell = false;
		v = grow(st->spell_ts, &st->cap_spell, st->nr_spell + 1,
			 sizeof(*v));
		if (!v) {
			m->nomem++;
			continue;
		}
		st->spell_ts = v;
		v[st->nr_spell++] = n->spell_ts;
	}
	m->nr_spell = 0;
}

/*
 * The node whose episode a new OOM's victims join: the take's own node
 * when a take allowed it (the episode opens with the kill), the grant's
 * node while that grant's episode waits for its victim; a fallback's
 * kill (the stock path) and a kill with no permit join none.
 */
static struct ow_ep_node *episode_node(struct ow_episodes *m,
				       const struct ow_ep_permit *p)
{
	struct ow_ep_node *n;

	if (p->type == OW_OOM_GRANT) {
		n = ow_episodes_node(m, p->nid);
		return n && n->ep == OW_EP_GRANTED && n->grant_seq == p->seq ?
		       n : NULL;
	}
	if (p->type != OW_THRASH_TAKE)
		return NULL;
	n = node_get(m, p->nid);
	if (n) {
		n->grant_type = OW_THRASH_TAKE;
		n->grant_seq = p->seq;
		n->grant_ts = p->ts_ns;
	}
	return n;
}

/*
 * What allows the kill of ev: the killer's own take in this OOM call,
 * else its own fallback, else the grant (used up).
 */
static struct ow_ep_permit use_permit(struct ow_episodes *m,
				      const struct oomwatch_event *ev)
{
	struct ow_ep_permit use = { 0 };

	if (m->take.type && m->take.pid == ev->pid) {
		use = m->take;
		m->take = (struct ow_ep_permit){ 0 };
	} else if (!take_fallback(m, ev->pid, &use)) {
		use = m->permit;
		m->permit = (struct ow_ep_permit){ 0 };
	}
	return use;
}

/*
 * A victim was marked, by any OOM: the kernel restarts the thrash clock
 * of every node that may be thrashing and drops its untaken grant, so
 * that no grant rests on evidence from before the kill.
 */
static void restart_thrash_clocks(struct ow_episodes *m,
				  const struct oomwatch_event *ev)
{
	m->victim_seen = true;
	m->victim_seq = ev->seq;
	m->victim_ts = ev->ts_ns;
	for (size_t i = 0; i < m->nr_node; i++) {
		struct ow_ep_thrash *th = &m->node[i].th;

		if (th->state == OW_TH_OFF)
			continue;
		clock_from_victim(m, th);
		th->granted = false;
	}
}

static void on_kill(struct ow_episodes *m, const struct oomwatch_event *ev)
{
	struct ow_ep_permit use;
	unsigned int took;
	struct ow_ep_node *n;
	size_t i;
	bool member;

	/* A requester that is itself killed waits no more. */
	end_pid(m, ev->victim.pid, OW_END_KILLED);
	restart_thrash_clocks(m, ev);
	/* oom_lock: another task's kill is another out_of_memory() call. */
	if (m->take.type && m->take.pid != ev->pid)
		m->take = (struct ow_ep_permit){ 0 };
	member = m->group_open && ev->pid == m->killer &&
		 ow_kill_is_global(ev) && group_alive(m, ev);
	/* Any victim, of any OOM, holds back the thrash rule while alive. */
	push_victim(m, &m->alive, &m->nr_alive, &m->cap_alive, ev,
		    member ? m->group_seq : ev->seq);
	if (!ow_kill_is_global(ev)) {
		/* ... and is an OOM call of its own: the group is over. */
		m->group_open = false;
		drop_fallback(m, ev->victim.pid);
		return;
	}
	m->step.kill_global = true;
	if (member) {
		m->group_last_ts = ev->ts_ns;
		on_group_member(m, ev);
		drop_fallback(m, ev->victim.pid);
		return;
	}
	use = use_permit(m, ev);
	/* Its allocation is traced again before it may kill again. */
	drop_fallback(m, ev->victim.pid);
	took = use.type;
	m->step.permit = use;
	m->episodes++;
	end_spells(m);
	/* The killer took the grant: its settled request has ended too. */
	if ((took == OW_OOM_GRANT || took == OW_THRASH_TAKE) &&
	    map_get(&m->req_of, ev->pid, &i) && m->req[i].settled)
		drop_req(m, i, took == OW_OOM_GRANT ? OW_END_GRANT :
			 OW_END_TAKE);
	n = episode_node(m, &use);
	if (n && took == OW_THRASH_TAKE)
		n->grant_pid = ev->pid;
	m->group_in_episode = n != NULL;
	m->group_nid = n ? n->nid : -1;
	if (n)
		add_victim(m, n, ev, ev->seq);
	m->group_open = true;
	m->killer = ev->pid;
	m->group_seq = ev->seq;
	m->group_last_ts = ev->ts_ns;
	m->group_permit = use;
}

/* A victim exited or was reaped: its episode ends with its last victim. */
static void on_victim_gone(struct ow_episodes *m, __u32 pid, __u32 tgid)
{
	drop_victim(m->alive, &m->nr_alive, pid, tgid);
	for (size_t k = m->nr_open_ep; k-- > 0;) {
		struct ow_ep_node *n = &m->node[m->open_ep[k]];

		drop_victim(n->victim, &n->nr_victim, pid, tgid);
		if (n->ep == OW_EP_VICTIM && !n->nr_victim)
			end_episode(m, n);
	}
}

/* ---------------------------------------------------------- thrashing */

/* The node of a thrash event, its state before the event in the step. */
static struct ow_ep_node *thrash_node(struct ow_episodes *m, __s32 nid)
{
	struct ow_ep_node *n = node_get(m, nid);

	if (n)
		m->step.thrash = n->th;
	return n;
}

/*
 * The node thrashes since the start of the window the set judged: the
 * kernel traces the set when that window closes, window_ms later, and
 * counts thrashing_ms and a clear's duration_ms from the window's start.
 * A second set without a clear: thrashing since the first.
 */
static void on_thrashing_set(struct ow_episodes *m,
			     const struct oomwatch_event *ev)
{
	struct ow_ep_node *n = thrash_node(m, ev->thrash.nid);
	unsigned long long window_ns = ev->thrash.window_ms * 1000000ULL;
	unsigned long long start;

	if (!n)
		return;
	n->th.seen = true;
	if (n->th.state == OW_TH_ON)
		return;
	start = ev->ts_ns > window_ns ? ev->ts_ns - window_ns : 0;
	n->th.state = OW_TH_ON;
	n->th.state_seq = ev->seq;
	n->th.state_ts = start;
	n->th.clock = OW_TH_CLOCK_SET;
	n->th.clock_seq = ev->seq;
	n->th.clock_ts = start;
	n->th_sets++;
}

/* The node calmed down, or the rule was switched: its grant is dropped. */
static void on_thrashing_clear(struct ow_episodes *m,
			       const struct oomwatch_event *ev)
{
	struct ow_ep_node *n = thrash_node(m, ev->thrash.nid);

	if (!n)
		return;
	if (n->th.state == OW_TH_ON && ev->ts_ns > n->th.state_ts)
		n->th_ns += ev->ts_ns - n->th.state_ts;
	n->th.seen = true;
	n->th.state = OW_TH_OFF;
	n->th.state_seq = ev->seq;
	n->th.state_ts = ev->ts_ns;
	n->th.clock = OW_TH_CLOCK_NONE;
	n->th.granted = false;
}

/*
 * A grant restarts the node's clock and is outstanding until a take on
 * the node; whether the rule allowed it is the checker's to judge, from
 * the state the step keeps and the first victim alive.
 */
static void on_thrash_grant(struct ow_episodes *m,
			    const struct oomwatch_event *ev)
{
	struct ow_ep_node *n = thrash_node(m, ev->thrash_grant.nid);

	if (m->nr_alive) {
		m->step.victim_alive = true;
		m->step.alive = m->alive[0];
	}
	if (!n)
		return;
	n->th.seen = true;
	n->th.clock = OW_TH_CLOCK_GRANT;
	n->th.clock_seq = ev->seq;
	n->th.clock_ts = ev->ts_ns;
	n->th.granted = true;
	n->th.grant_seq = ev->seq;
	n->th.grant_ts = ev->ts_ns;
	n->th_grants++;
}

/*
 * The taker calls out_of_memory() itself, at once and under oom_lock:
 * the kills of that call need no other permit, and a request of its own
 * no longer waits.  A take of no outstanding grant is still a permit: the
 * checker reports the take, not the kill.  The node is known from here
 * on: a grant from before the recording explains one take, not two.
 */
static void on_thrash_take(struct ow_episodes *m,
			   const struct oomwatch_event *ev)
{
	struct ow_ep_node *n = thrash_node(m, ev->take.nid);
	size_t i;

	if (n) {
		n->th.seen = true;
		n->th.granted = false;
		n->th_takes++;
	}
	if (map_get(&m->req_of, ev->take.pid, &i))
		settle(m, i, OW_END_TAKE);
	m->take = (struct ow_ep_permit){ OW_THRASH_TAKE, ev->seq, ev->ts_ns,
					 ev->take.nid, ev->take.pid };
	m->group_open = false;
}

/* --------------------------------------------------------------- nodes */

static bool is_recovery(const struct oomwatch_event *ev)
{
	return ev->unrecl.reason == OW_CLEAR_PROGRESS ||
	       ev->unrecl.reason == OW_CLEAR_FREED;
}

/* A second set without a clear: the state began at the first. */
static void on_set(struct ow_episodes *m, const struct oomwatch_event *ev)
{
	struct ow_ep_node *n = node_get(m, ev->unrecl.nid);

	m->step.set_new = !n || !n->set;
	if (!n || n->set)
		return;
	touch(m, n);
	n->set = true;
	n->marks = 0;
	n->wait_ended = false;
	n->set_seq = ev->seq;
	n->set_ts = ev->ts_ns;
	if (!n->spell) {
		n->spell = true;
		n->spell_ts = ev->ts_ns;
	}
	if (!n->in_spell &&
	    push_index(m, &m->spell, &m->nr_spell, &m->cap_spell, n - m->node))
		n->in_spell = true;
	if (!n->since) {
		n->since = true;
		n->since_known = true;
		n->since_seq = ev->seq;
		n->since_ts = ev->ts_ns;
	}
}

/*
 * Memory came back on the node: its waiters retry, its episode and the
 * evidence gathered for a kill there are over.  Other nodes are not
 * touched: their requests wait on their own kswapd.
 */
static void recover(struct ow_episodes *m, struct ow_ep_node *n,
		    const struct oomwatch_event *ev)
{
	n->recovered = true;
	n->recovered_seq = ev->seq;
	n->recovered_ts = ev->ts_ns;
	n->since = false;
	n->spell = false;
	end_episode(m, n);
	for (size_t i = n->req_head; i != OW_EP_NIL; i = m->req[i].next)
		settle(m, i, OW_END_RECOVERED);
}

static void on_clear(struct ow_episodes *m, const struct oomwatch_event *ev)
{
	struct ow_ep_node *n = node_get(m, ev->unrecl.nid);

	if (!n)
		return;
	if (n->set) {
		m->step.cleared = true;
		m->step.before = *n;
		m->step.before.victim = NULL;
		n->set = false;
		touch(m, n);
	}
	if (is_recovery(ev)) {
		recover(m, n, ev);
	} else if (!n->since) {
		/* Cleared, not recovered: it was hopeless before we looked. */
		n->since = true;
		n->since_known = false;
	}
}

/* -------------------------------------------------------------- driver */

static void step_begin(struct ow_episodes *m, const struct oomwatch_event *ev)
{
	struct ow_ep_step *st = &m->step;

	st->ev = ev;
	st->nr_change = 0;
	st->nr_spell = 0;
	st->nr_wait_began = 0;
	st->nr_touched = 0;
	st->new_request = false;
	st->kill_global = false;
	st->kill_group = false;
	st->group_seq = 0;
	memset(&st->permit, 0, sizeof(st->permit));
	st->named = OW_NAMED_WAITER;
	st->unowned = false;
	st->blocked = false;
	memset(&st->evidence, 0, sizeof(st->evidence));
	st->set_new = false;
	st->cleared = false;
	memset(&st->thrash, 0, sizeof(st->thrash));
	st->victim_alive = false;
	if (!m->started) {
		m->started = true;
		m->first_seq = ev->seq;
		m->first_ts = ev->ts_ns;
	}
	/*
	 * The killer doing anything of its own but killing (or having the
	 * reaper woken, which can fire in its context) has left that
	 * out_of_memory() call: its next kill is a new OOM, and a take's
	 * permit is over.
	 */
	if (ev->type == OW_MARK_VICTIM || ev->type == OW_WAKE_REAPER)
		return;
	if (m->group_open && ev->pid == m->killer)
		m->group_open = false;
	if (m->take.type && ev->pid == m->take.pid)
		m->take = (struct ow_ep_permit){ 0 };
}

/*
 * After every event, on the nodes it touched: which unreclaimable nodes
 * have requests waiting, since when, and whose wait just ended.
 */
static void note_waits(struct ow_episodes *m, unsigned long long now)
{
	struct ow_ep_step *st = &m->step;

	for (size_t k = 0; k < st->nr_touched; k++) {
		struct ow_ep_node *n = &m->node[st->touched[k]];

		n->dirty = false;
		if (!n->set || !n->nr_waiting) {
			if (n->set && n->waited) {
				n->wait_ended = true;
				n->wait_end_ts = now;
			}
			n->waited = false;
		} else if (!n->waited) {
			n->waited = true;
			n->wait_ts = now;
			n->wait_ended = false;
			push_index(m, &st->wait_began, &st->nr_wait_began,
				   &st->cap_wait_began, st->touched[k]);
		}
	}
}

void ow_episodes_feed(struct ow_episodes *m, const struct oomwatch_event *ev,
		      const struct ow_requester *who)
{
	step_begin(m, ev);
	switch (ev->type) {
	case OW_OOM_REQUEST:
		on_request(m, ev, who);
		break;
	case OW_OOM_DEFER:
		on_defer(m, ev);
		break;
	case OW_OOM_GRANT:
		on_grant(m, ev);
		break;
	case OW_OOM_FALLBACK:
		on_fallback(m, ev);
		break;
	case OW_OOM_VETO:
		on_veto(m, ev);
		break;
	case OW_MARK_VICTIM:
		on_kill(m, ev);
		break;
	case OW_TASK_EXIT:
		drop_fallback(m, ev->exit.pid);
		end_pid(m, ev->exit.pid, OW_END_EXIT);
		if (ev->exit.tgid != ev->exit.pid)
			end_pid(m, ev->exit.tgid, OW_END_EXIT);
		on_victim_gone(m, ev->exit.pid, ev->exit.tgid);
		break;
	case OW_FINISH_REAPING:
		on_victim_gone(m, ev->reaper.pid, ev->reaper.pid);
		break;
	case OW_UNRECLAIMABLE_SET:
		on_set(m, ev);
		break;
	case OW_UNRECLAIMABLE_CLEAR:
		on_clear(m, ev);
		break;
	case OW_THRASHING_SET:
		on_thrashing_set(m, ev);
		break;
	case OW_THRASHING_CLEAR:
		on_thrashing_clear(m, ev);
		break;
	case OW_THRASH_GRANT:
		on_thrash_grant(m, ev);
		break;
	case OW_THRASH_TAKE:
		on_thrash_take(m, ev);
		break;
	default:
		break;
	}
	note_waits(m, ev->ts_ns);
}

/* ---------------------------------------------------------- references */

void ow_ep_ref_init(struct ow_ep_ref *r, struct ow_episodes *shared)
{
	r->shared = shared;
	ow_episodes_init(&r->own);
}

void ow_ep_ref_feed(struct ow_ep_ref *r, const struct oomwatch_event *ev,
		    const struct ow_requester *who)
{
	if (!r->shared)
		ow_episodes_feed(&r->own, ev, who);
}

void ow_ep_ref_free(struct ow_ep_ref *r)
{
	ow_episodes_free(&r->own);
}

bool ow_episodes_quiet(const struct ow_episodes *m)
{
	if (m->nr_open_ep || m->nr_alive || m->nr_fallback || m->group_open ||
	    m->permit.type || m->take.type)
		return false;
	for (size_t i = 0; i < m->nr_node; i++) {
		const struct ow_ep_node *n = &m->node[i];

		if (n->nr_req || n->set || n->since || n->ep != OW_EP_NONE ||
		    n->th.state == OW_TH_ON || n->th.granted)
			return false;
	}
	return true;
}

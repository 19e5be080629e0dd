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

void ow_episodes_init(struct ow_episodes *m)
{
	memset(m, 0, sizeof(*m));
}

void ow_episodes_free(struct ow_episodes *m)
{
	for (size_t i = 0; i < m->nr_node; i++)
		free(m->node[i].victim);
	free(m->node);
	free(m->req);
	free(m->alive);
	free(m->fallback);
	free(m->step.change);
	free(m->step.spell_ts);
	ow_episodes_init(m);
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

/* ------------------------------------------------------------- lookups */

static int find_req(const struct ow_episodes *m, __u32 pid)
{
	for (size_t i = 0; i < m->nr_req; i++)
		if (m->req[i].pid == pid)
			return i;
	return -1;
}

struct ow_ep_request *ow_episodes_request(struct ow_episodes *m, __u32 pid)
{
	int i = find_req(m, pid);

	return i < 0 ? NULL : &m->req[i];
}

unsigned int ow_episodes_waiting_on(const struct ow_episodes *m, __s32 nid)
{
	unsigned int n = 0;

	for (size_t i = 0; i < m->nr_req; i++)
		n += m->req[i].nid == nid && !m->req[i].settled;
	return n;
}

const struct ow_ep_change *ow_episodes_change(const struct ow_episodes *m,
					      __u32 pid)
{
	for (size_t i = m->step.nr_change; i-- > 0;)
		if (m->step.change[i].r.pid == pid)
			return &m->step.change[i];
	return NULL;
}

/* Index of nid in the sorted table, or where it would go. */
static size_t node_pos(const struct ow_episodes *m, __s32 nid, bool *found)
{
	size_t lo = 0, hi = m->nr_node;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->node[mid].nid < nid)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < m->nr_node && m->node[lo].nid == nid;
	return lo;
}

struct ow_ep_node *ow_episodes_node(struct ow_episodes *m, __s32 nid)
{
	bool found;
	size_t i = node_pos(m, nid, &found);

	return found ? &m->node[i] : NULL;
}

/* The node, made when first named; NULL when out of memory. */
static struct ow_ep_node *node_get(struct ow_episodes *m, __s32 nid)
{
	struct ow_ep_node *v;
	bool found;
	size_t i = node_pos(m, nid, &found);

	if (found)
		return &m->node[i];
	v = grow(m->node, &m->cap_node, m->nr_node + 1, sizeof(*v));
	if (!v) {
		m->nomem++;
		return NULL;
	}
	m->node = v;
	memmove(&v[i + 1], &v[i], (m->nr_node - i) * sizeof(*v));
	memset(&v[i], 0, sizeof(*v));
	v[i].nid = nid;
	m->nr_node++;
	return &v[i];
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

/* Keeps the table in request order, so views report in that order. */
static void drop_req(struct ow_episodes *m, size_t i, enum ow_req_end why)
{
	note_change(m, &m->req[i], why, !m->req[i].settled, true);
	memmove(&m->req[i], &m->req[i + 1],
		(m->nr_req - i - 1) * sizeof(m->req[0]));
	m->nr_req--;
}

static void end_pid(struct ow_episodes *m, __u32 pid, enum ow_req_end why)
{
	int i = find_req(m, pid);

	if (i >= 0)
		drop_req(m, i, why);
}

/* It stops waiting; the record stays for the lines that name it. */
static void settle(struct ow_episodes *m, size_t i, enum ow_req_end why)
{
	if (m->req[i].settled)
		return;
	note_change(m, &m->req[i], why, true, false);
	m->req[i].settled = true;
}

/* ----------------------------------------------------- fallback permits */

static int find_fallback(const struct ow_episodes *m, __u32 pid)
{
	for (size_t i = 0; i < m->nr_fallback; i++)
		if (m->fallback[i].pid == pid)
			return i;
	return -1;
}

/* Takes pid's fallback permit into *p; false when it has none. */
static bool take_fallback(struct ow_episodes *m, __u32 pid,
			  struct ow_ep_permit *p)
{
	int i = find_fallback(m, pid);

	if (i < 0)
		return false;
	*p = m->fallback[i];
	m->fallback[i] = m->fallback[--m->nr_fallback];
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
	int i = find_fallback(m, ev->request.pid);

	if (i < 0) {
		v = grow(m->fallback, &m->cap_fallback, m->nr_fallback + 1,
			 sizeof(*v));
		if (!v) {
			m->nomem++;
			return;
		}
		m->fallback = v;
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
	int i = find_req(m, ev->request.pid);

	/* A new allocation's OOM: its last one's fallback is spent. */
	drop_fallback(m, ev->request.pid);
	if (i >= 0 && !m->req[i].settled)
		return;
	if (i >= 0)
		drop_req(m, i, OW_END_REPLACED);
	m->step.new_request = true;
	v = grow(m->req, &m->cap_req, m->nr_req + 1, sizeof(*v));
	if (!v) {
		m->nomem++;
		return;
	}
	m->req = v;
	v = &m->req[m->nr_req++];
	memset(v, 0, sizeof(*v));
	v->pid = ev->request.pid;
	v->nid = ev->request.nid;
	memcpy(v->comm, ev->request.comm, sizeof(v->comm));
	v->seq = ev->seq;
	v->ts_ns = ev->ts_ns;
	if (who)
		v->who = *who;
}

/* ------------------------------------------------------------ episodes */

static void end_episode(struct ow_ep_node *n)
{
	n->ep = OW_EP_NONE;
	n->nr_victim = 0;
}

/* Appends the victim of ev to *v (*nr of them); false when out of memory. */
static bool push_victim(struct ow_episodes *m, struct ow_ep_victim **v,
			size_t *nr, size_t *cap, const struct oomwatch_event *ev)
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
	(*nr)++;
	return true;
}

static void add_victim(struct ow_episodes *m, struct ow_ep_node *n,
		       const struct oomwatch_event *ev)
{
	if (push_victim(m, &n->victim, &n->nr_victim, &n->cap_victim, ev))
		n->ep = OW_EP_VICTIM;
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

/* The episode a grant on nid breaks into: nid's own first, else any. */
static const struct ow_ep_node *open_episode(const struct ow_episodes *m,
					     __s32 nid)
{
	const struct ow_ep_node *any = NULL;

	for (size_t i = 0; i < m->nr_node; i++) {
		const struct ow_ep_node *n = &m->node[i];

		if (n->ep == OW_EP_NONE)
			continue;
		if (n->nid == nid)
			return n;
		if (!any)
			any = n;
	}
	return any;
}

/*
 * The longest the record lets the node have been unreclaimable at ts:
 * since the first set after its last recovery (the kernel quotes less:
 * the time up to the timer clear while the rescan it forced is pending,
 * or since the latest set), or nothing since a recovery with no set
 * after it.  A history that began before the recording is unknown.
 */
static void evidence(const struct ow_ep_node *n, unsigned long long ts,
		     struct ow_ep_evidence *e)
{
	memset(e, 0, sizeof(*e));
	if (!n || (n->since && !n->since_known) ||
	    (!n->since && !n->recovered))
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
 * A grant settles every request waiting on its node and the one it
 * names; a record an earlier grant settled and nothing ended is gone.
 */
static void on_grant(struct ow_episodes *m, const struct oomwatch_event *ev)
{
	const struct ow_ep_node *open = open_episode(m, ev->grant.nid);
	struct ow_ep_step *st = &m->step;
	struct ow_ep_node *n;
	size_t i = 0;

	if (open) {
		st->blocked = true;
		st->open = *open;
		st->open.victim = NULL;
		if (open->nr_victim)
			st->first = open->victim[0];
	}
	evidence(ow_episodes_node(m, ev->grant.nid), ev->ts_ns, &st->evidence);
	while (i < m->nr_req) {
		struct ow_ep_request *r = &m->req[i];

		if (r->nid != ev->grant.nid && r->pid != ev->grant.pid) {
			i++;
		} else if (r->settled) {
			drop_req(m, i, OW_END_FORGOTTEN);
		} else {
			settle(m, i, OW_END_GRANT);
			i++;
		}
	}
	n = node_get(m, ev->grant.nid);
	if (n) {
		end_episode(n);
		n->ep = OW_EP_GRANTED;
		n->grant_type = OW_OOM_GRANT;
		n->grant_seq = ev->seq;
		n->grant_ts = ev->ts_ns;
		n->grant_pid = ev->grant.pid;
	}
	m->permit = (struct ow_ep_permit){ OW_OOM_GRANT, ev->seq, ev->ts_ns,
					   ev->grant.nid, ev->grant.pid };
	m->group_open = false;
}

static void on_fallback(struct ow_episodes *m, const struct oomwatch_event *ev)
{
	end_pid(m, ev->request.pid, OW_END_VERDICT);
	give_fallback(m, ev);
	m->group_open = false;
}

/*
 * Every veto ends its request's wait.  episode_open only says another
 * waiter took the grant, which may still kill; any other veto on a
 * granted node, or naming its grant's pid (alloc_ok: the taker's last
 * attempt succeeded; recovered: reclaim made progress), means that grant
 * kills nobody.
 */
static void on_veto(struct ow_episodes *m, const struct oomwatch_event *ev)
{
	/*
	 * A thrash take whose out_of_memory() found nobody to kill: its
	 * permit is spent, and no request of the taker's is concerned.
	 */
	if (ev->request.reason == OW_THRASH_NO_VICTIM) {
		if (m->permit.type == OW_THRASH_TAKE &&
		    m->permit.pid == ev->request.pid)
			m->permit = (struct ow_ep_permit){ 0 };
		return;
	}
	end_pid(m, ev->request.pid, OW_END_VERDICT);
	if (ev->request.reason == OW_RULE_EPISODE_OPEN)
		return;
	for (size_t i = 0; i < m->nr_node; i++) {
		struct ow_ep_node *n = &m->node[i];

		if (n->ep == OW_EP_GRANTED && (n->nid == ev->request.nid ||
					       n->grant_pid == ev->request.pid))
			end_episode(n);
	}
}

/* The granted node whose grant is the latest: the one this kill used. */
static struct ow_ep_node *granted_node(struct ow_episodes *m)
{
	struct ow_ep_node *best = NULL;

	for (size_t i = 0; i < m->nr_node; i++)
		if (m->node[i].ep == OW_EP_GRANTED &&
		    (!best || m->node[i].grant_seq > best->grant_seq))
			best = &m->node[i];
	return best;
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
	n = node_get(m, m->group_nid);
	if (n && n->ep == OW_EP_VICTIM)
		add_victim(m, n, ev);
}

static void end_spells(struct ow_episodes *m)
{
	struct ow_ep_step *st = &m->step;

	for (size_t i = 0; i < m->nr_node; i++) {
		unsigned long long *v;

		if (!m->node[i].spell)
			continue;
		m->node[i].spell = false;
		v = grow(st->spell_ts, &st->cap_spell, st->nr_spell + 1,
			 sizeof(*v));
		if (!v) {
			m->nomem++;
			continue;
		}
		st->spell_ts = v;
		v[st->nr_spell++] = m->node[i].spell_ts;
	}
}

/*
 * The node whose episode a new OOM's victims join: the thrash take's own
 * node when a take allowed it (the episode opens with the kill), else
 * the node granted last.
 */
static struct ow_ep_node *episode_node(struct ow_episodes *m,
				       const struct ow_ep_permit *p)
{
	struct ow_ep_node *n;

	if (p->type != OW_THRASH_TAKE)
		return granted_node(m);
	n = node_get(m, p->nid);
	if (n) {
		n->grant_type = OW_THRASH_TAKE;
		n->grant_seq = p->seq;
		n->grant_ts = p->ts_ns;
	}
	return n;
}

static void on_kill(struct ow_episodes *m, const struct oomwatch_event *ev)
{
	struct ow_ep_permit use;
	unsigned int took;
	struct ow_ep_node *n;
	int i;

	/* A requester that is itself killed waits no more. */
	end_pid(m, ev->victim.pid, OW_END_KILLED);
	/* Any victim, of any OOM, holds back the thrash rule while alive. */
	push_victim(m, &m->alive, &m->nr_alive, &m->cap_alive, ev);
	if (!ow_kill_is_global(ev))
		return;
	m->step.kill_global = true;
	if (m->group_open && ev->pid == m->killer) {
		on_group_member(m, ev);
		return;
	}
	/* The killer's own fallback first: a grant stays for its owner. */
	if (!take_fallback(m, ev->pid, &use)) {
		use = m->permit;
		m->permit = (struct ow_ep_permit){ 0 };
	}
	took = use.type;
	m->step.permit = use;
	m->episodes++;
	end_spells(m);
	/* The killer took the grant: its settled request has ended too. */
	i = find_req(m, ev->pid);
	if ((took == OW_OOM_GRANT || took == OW_THRASH_TAKE) && i >= 0 &&
	    m->req[i].settled)
		drop_req(m, i, took == OW_OOM_GRANT ? OW_END_GRANT :
			 OW_END_TAKE);
	n = episode_node(m, &use);
	if (n && took == OW_THRASH_TAKE)
		n->grant_pid = ev->pid;
	m->group_in_episode = n != NULL;
	m->group_nid = n ? n->nid : -1;
	if (n)
		add_victim(m, n, ev);
	m->group_open = true;
	m->killer = ev->pid;
	m->group_seq = ev->seq;
	m->group_permit = use;
}

/* A victim exited or was reaped: its episode ends with its last victim. */
static void on_victim_gone(struct ow_episodes *m, __u32 pid, __u32 tgid)
{
	drop_victim(m->alive, &m->nr_alive, pid, tgid);
	for (size_t i = 0; i < m->nr_node; i++) {
		struct ow_ep_node *n = &m->node[i];

		drop_victim(n->victim, &n->nr_victim, pid, tgid);
		if (n->ep == OW_EP_VICTIM && !n->nr_victim)
			end_episode(n);
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
 * The taker calls out_of_memory() itself: its kill needs no other permit,
 * and a request of its own no longer waits.  A take of no outstanding
 * grant is still a permit: the checker reports the take, not the kill.
 */
static void on_thrash_take(struct ow_episodes *m,
			   const struct oomwatch_event *ev)
{
	struct ow_ep_node *n = thrash_node(m, ev->take.nid);
	int i = find_req(m, ev->take.pid);

	if (n) {
		n->th.granted = false;
		n->th_takes++;
	}
	if (i >= 0)
		settle(m, i, OW_END_TAKE);
	m->permit = (struct ow_ep_permit){ OW_THRASH_TAKE, ev->seq, ev->ts_ns,
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
	n->set = true;
	n->marks = 0;
	n->wait_ended = false;
	n->set_seq = ev->seq;
	n->set_ts = ev->ts_ns;
	if (!n->spell) {
		n->spell = true;
		n->spell_ts = ev->ts_ns;
	}
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
	end_episode(n);
	for (size_t i = 0; i < m->nr_req; i++)
		if (m->req[i].nid == n->nid)
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
	st->new_request = false;
	st->kill_global = false;
	st->kill_group = false;
	st->group_seq = 0;
	memset(&st->permit, 0, sizeof(st->permit));
	st->blocked = false;
	memset(&st->evidence, 0, sizeof(st->evidence));
	st->set_new = false;
	st->cleared = false;
	memset(&st->thrash, 0, sizeof(st->thrash));
	st->victim_alive = false;
	/*
	 * The killer doing anything of its own but killing (or having the
	 * reaper woken, which can fire in its context) has left that
	 * out_of_memory() call: its next kill is a new OOM.
	 */
	if (m->group_open && ev->pid == m->killer &&
	    ev->type != OW_MARK_VICTIM && ev->type != OW_WAKE_REAPER)
		m->group_open = false;
}

/* After every event: which unreclaimable nodes have requests waiting. */
static void note_waits(struct ow_episodes *m, unsigned long long now)
{
	for (size_t i = 0; i < m->nr_node; i++) {
		struct ow_ep_node *n = &m->node[i];

		if (!n->set || !ow_episodes_waiting_on(m, n->nid)) {
			if (n->set && n->waited) {
				n->wait_ended = true;
				n->wait_end_ts = now;
			}
			n->waited = false;
		} else if (!n->waited) {
			n->waited = true;
			n->wait_ts = now;
			n->wait_ended = false;
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

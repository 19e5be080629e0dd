/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: one model of the OOM episodes of a run, per node, fed once
 * per event and read by every view (the checker, the statistics, the
 * -p/-c filter and the timeline), so that they all answer "which
 * requests did this settle?" and "is this the same OOM?" the same way.
 *
 * What it follows (the kernel series, patches 0005 and 0006, is the
 * reference where a rule needs one):
 *
 *  requests   an oom_request opens a wait (a task asking again while it
 *             waits keeps its first one).  The wait ends at an oom_grant
 *             on its node (the grant settles every waiter there: kswapd
 *             wakes its own node's waiters only, and names the oldest of
 *             them, so a grant on another node settles nothing here,
 *             whatever pid it names), an oom_veto or oom_fallback naming
 *             it, the requester's kill or exit, its own thrash take, and
 *             an unreclaimable_clear by progress or freed pages on its
 *             node (memory recovered).  A request a grant or a recovery
 *             settled is kept, no longer waiting, until its own end
 *             (veto, fallback, kill, exit, a new request by the task,
 *             the node's next grant): the kernel keeps it on the node's
 *             waiters until it wakes, so verdicts can still name it (a
 *             waiter that is killed, too, until its fallback).  A
 *             request that ended is remembered by its pid (until the
 *             task asks again): a verdict naming it is stale.
 *  verdicts   an oom_grant or oom_defer names the oldest request on the
 *             kernel's waiters list of its node: the step says whether
 *             the record agrees (named).  A pid the recording never
 *             showed asking may have asked before it began.
 *  nodes      per node id (any s32): whether it is unreclaimable, since
 *             which recorded unreclaimable_set, and since which set after
 *             the last recovery (a timer clear only forces a rescan): the
 *             timeline a grant's evidence and a clear's duration_ms are
 *             held to.  A node whose state began before the recording
 *             has an unknown history: its claims are trusted as far as
 *             they reach back before the first recorded event.
 *  episodes   per node: a grant opens one (granted, no victim yet); the
 *             kill that uses the grant's permit is its victim; it ends
 *             when every victim of it is gone (exit or reaped), the
 *             grant's owner vetoes alloc_ok (its last check found memory:
 *             the grant kills nobody; no other veto can come from the
 *             owner, which is whoever leaves the wait first, see
 *             arbiter_leave()), or the node recovers.  Recovery on one
 *             node ends nothing on another.  A kill after a thrash take
 *             joins the episode of the take's node (a take that kills
 *             nobody opens none: the kernel says nothing then).  A
 *             fallback's kill joins none: it is the stock path's.
 *  kills      a global kill (ow_kill_is_global()) needs a permit: the
 *             thrash take of the killer itself, in the same
 *             out_of_memory() call (the taker calls it at once, under
 *             oom_lock: the killer's own event of any other kind, or
 *             another task's kill, ends it); else the killer's own
 *             fallback since its last kill (a task on the stock path
 *             kills for itself; the kernel traces a fallback before each
 *             of its kills, and its next request or its being marked a
 *             victim ends the permit); else the grant since the previous
 *             global kill that used one, if anybody could own it (a
 *             request on its node, waiting or settled, or a named pid
 *             that may predate the recording).  With memory.oom.group
 *             the kernel kills every member of the group in one
 *             out_of_memory() call, one mark_victim each: a global kill
 *             raised by the same task as the previous one, with no event
 *             of that task's own, no other kill (oom_lock), no grant, no
 *             fallback, and a victim of that OOM still alive (or the
 *             last marked within OW_GROUP_GAP_NS), is a further member
 *             of that OOM: the same episode, the same permit.
 *  victims    every victim of any OOM (memcg and sysrq too), alive from
 *             its mark_victim to its exit or reaping: the kernel's thrash
 *             rule grants nothing while one is.
 *  thrashing  per node, the thrash rule: thrashing from a thrashing_set
 *             to its thrashing_clear (nothing recorded: unknown, and the
 *             node's claims are trusted); the clock a thrash grant is
 *             timed by, from the set, the node's last thrash grant or
 *             the last mark_victim of any OOM (a kill restarts every
 *             node's), whichever is later; the node's one outstanding
 *             grant, which a thrash take on the node ends, and its clear
 *             or any mark_victim drops.  A
 *             take also settles its task's own request, if it waits: the
 *             task calls out_of_memory() itself.  A take makes its node
 *             known: a grant from before the recording explains one
 *             take, not two.
 *
 * Every table grows (malloc), and is indexed (pids and node ids hashed,
 * a node's requests on its own list), so that an event costs the same
 * with 20000 requests waiting or 20000 nodes known; when memory runs out
 * an item is not kept and counted in nomem, which the checker reports as
 * a violation: a limit never hides one silently.
 *
 * After each ow_episodes_feed(), step says what the event did; views read
 * it and the tables, and change nothing but their own bits in marks.
 */
#ifndef OW_EPISODES_H
#define OW_EPISODES_H

#include <stdbool.h>
#include <stddef.h>
#include "trace.h"

/* The memcg of the task an OOM request event is about, when known. */
struct ow_requester {
	bool known;
	__u64 memcg_id;
};

/* A kill that opens an OOM episode and needs a grant (see above). */
bool ow_kill_is_global(const struct oomwatch_event *ev);

/* Bits of marks owned by the views. */
#define OW_MARK_LATE	0x1u	/* checker: reported past its bound */
#define OW_MARK_SHOWN	0x2u	/* filter: its events pass -p/-c */

struct ow_ep_request {
	__u32 pid;
	__s32 nid;
	char comm[OOMWATCH_COMM_LEN];
	unsigned long long seq;
	unsigned long long ts_ns;	/* of the first request of the wait */
	struct ow_requester who;
	bool settled;			/* no longer waiting, kept for names */
	unsigned int marks;

	/* the model's own: a slot of m->req, on its node's list */
	bool used;			/* a record; false: a free slot */
	size_t node;			/* index of its node in m->node */
	size_t prev, next;		/* on the node's list, OW_EP_NIL ends */
};

#define OW_EP_NIL	((size_t)-1)

/* An open-addressing table of u32 keys (pids, node ids) to size_t. */
struct ow_ep_map {
	struct ow_ep_slot *slot;
	size_t cap;			/* 0 or a power of two */
	size_t nr;
};

/* Why a request stopped waiting, or its record went. */
enum ow_req_end {
	OW_END_GRANT,		/* a grant on its node, or the kill using it */
	OW_END_VERDICT,		/* a veto or fallback naming it */
	OW_END_KILLED,		/* the requester was killed */
	OW_END_EXIT,		/* the requester exited */
	OW_END_RECOVERED,	/* its node recovered */
	OW_END_REPLACED,	/* a settled record: the task asked again */
	OW_END_FORGOTTEN,	/* a settled record: its node's next grant */
	OW_END_TAKE,		/* the requester took a thrash grant */
};

/* One request the event touched, as it was before. */
struct ow_ep_change {
	struct ow_ep_request r;
	enum ow_req_end why;
	bool ended;		/* it was waiting and is not any more */
	bool dropped;		/* its record is gone */
};

/* Episode states of a node. */
enum ow_ep_state {
	OW_EP_NONE,		/* no grant pending: the next one is fine */
	OW_EP_GRANTED,		/* granted, its victim not chosen yet */
	OW_EP_VICTIM,		/* its victims chosen, one still alive */
};

struct ow_ep_victim {
	__u32 pid;
	char comm[OOMWATCH_COMM_LEN];
	unsigned long long seq;		/* its mark_victim */
	unsigned long long oom;		/* its OOM's first mark_victim seq */
};

/* A node's thrashing, as recorded. */
enum ow_th_state {
	OW_TH_UNKNOWN,		/* no set or clear recorded: may be thrashing */
	OW_TH_ON,		/* a thrashing_set, not cleared */
	OW_TH_OFF,		/* a thrashing_clear, no set since */
};

/* What started the clock the node's next thrash grant is timed by. */
enum ow_th_clock {
	OW_TH_CLOCK_NONE,	/* not in the record */
	OW_TH_CLOCK_SET,	/* the thrashing_set */
	OW_TH_CLOCK_GRANT,	/* the node's last oom_thrash_grant */
	OW_TH_CLOCK_KILL,	/* the last mark_victim, of any OOM */
};

/* A node's thrash rule state; the step keeps it as it was before. */
struct ow_ep_thrash {
	bool seen;			/* a thrash event of the node recorded */
	enum ow_th_state state;
	unsigned long long state_seq;	/* the set or clear that made it so */
	unsigned long long state_ts;
	enum ow_th_clock clock;
	unsigned long long clock_seq;
	unsigned long long clock_ts;
	bool granted;			/* a grant neither taken nor dropped */
	unsigned long long grant_seq;
	unsigned long long grant_ts;
};

struct ow_ep_node {
	__s32 nid;
	unsigned int marks;		/* OW_MARK_LATE: this set, reported */

	/* unreclaimable, as recorded */
	bool set;			/* a recorded set, not cleared yet */
	unsigned long long set_seq;
	unsigned long long set_ts;
	/*
	 * Unreclaimable since the first set after the last recovery: a
	 * timer clear only forces a rescan, the node stays hopeless.  Not
	 * known when that set came before the recording.
	 */
	bool since;
	bool since_known;
	unsigned long long since_seq;
	unsigned long long since_ts;
	/*
	 * Set while requests wait on the node, since when: the kernel's
	 * timeout rescans a hopeless node only for waiting requests (with
	 * nobody waiting it leaves the node alone, as stock 6.1 does).
	 */
	bool waited;
	unsigned long long wait_ts;
	/*
	 * The wait ended (its last request settled) while the node stayed
	 * set, and when: a timer that never fired while they waited is
	 * judged at that moment, even if nothing happened in between.
	 */
	bool wait_ended;
	unsigned long long wait_end_ts;
	/* the last recovery, if any (the history starts there) */
	bool recovered;
	unsigned long long recovered_seq;
	unsigned long long recovered_ts;
	/* first set since the last global kill or recovery (statistics) */
	bool spell;
	unsigned long long spell_ts;

	/* the episode */
	enum ow_ep_state ep;
	unsigned int grant_type;	/* OW_OOM_GRANT, or OW_THRASH_TAKE */
	unsigned long long grant_seq;	/* of that event */
	unsigned long long grant_ts;
	__u32 grant_pid;
	struct ow_ep_victim *victim;	/* alive */
	size_t nr_victim;
	size_t cap_victim;

	/* the thrash rule, and what it did on the node (statistics) */
	struct ow_ep_thrash th;
	unsigned long th_sets;
	unsigned long th_grants;
	unsigned long th_takes;
	unsigned long long th_ns;	/* thrashing, set to clear, summed */

	/* the model's own indexes */
	size_t req_head, req_tail;	/* its requests, in request order */
	size_t nr_req;			/* records on the node */
	size_t nr_waiting;		/* of them waiting */
	size_t ep_pos;			/* in m->open_ep while ep != NONE */
	bool in_spell;			/* on m->spell */
	bool dirty;			/* on step.touched this event */
};

/* What allowed a global kill. */
struct ow_ep_permit {
	unsigned int type;		/* OW_OOM_GRANT, OW_OOM_FALLBACK,
					 * OW_THRASH_TAKE, 0 */
	unsigned long long seq;
	unsigned long long ts_ns;
	__s32 nid;
	__u32 pid;			/* the task it names */
};

/* What the record says of a node's unreclaimable time at a grant. */
enum ow_ep_basis {
	OW_BASIS_UNKNOWN,	/* a timer clear of a set before the recording */
	OW_BASIS_BEFORE,	/* nothing recorded: set before the recording,
				 * so at least min_ns ago */
	OW_BASIS_RECOVERED,	/* it recovered at since_seq, no set since */
	OW_BASIS_SET,		/* unreclaimable since the set since_seq */
};

struct ow_ep_evidence {
	enum ow_ep_basis basis;
	unsigned long long max_ns;	/* the longest the record supports */
	unsigned long long min_ns;	/* BEFORE: the shortest */
	unsigned long long since_seq;
	unsigned long long since_ts;
};

/* Whether the pid a grant or defer names is on its node's waiters. */
enum ow_ep_named {
	OW_NAMED_WAITER,	/* a request (waiting or settled) on the node */
	OW_NAMED_UNSEEN,	/* no request of it recorded: maybe before */
	OW_NAMED_ENDED,		/* its request ended before this verdict */
	OW_NAMED_ELSEWHERE,	/* its request is on another node */
	OW_NAMED_NOBODY,	/* pid 0 */
};

struct ow_ep_step {
	const struct oomwatch_event *ev;
	struct ow_ep_change *change;	/* requests touched, in table order */
	size_t nr_change;
	size_t cap_change;
	bool new_request;		/* oom_request: a wait began */

	/* mark_victim */
	bool kill_global;
	bool kill_group;		/* a further member of the last OOM */
	unsigned long long group_seq;	/* its first member */
	struct ow_ep_permit permit;	/* what allowed it */
	unsigned long long *spell_ts;	/* unreclaimable spells it ended */
	size_t nr_spell;
	size_t cap_spell;

	/* oom_grant, oom_defer: the pid named, as the record has it */
	enum ow_ep_named named;
	struct ow_ep_request elsewhere;	/* ELSEWHERE: its request */
	/* oom_grant: nobody recorded could own it: it permits nothing */
	bool unowned;
	bool blocked;			/* an episode was open: this copy */
	struct ow_ep_node open;		/* (victim: the first alive, in first) */
	struct ow_ep_victim first;
	struct ow_ep_evidence evidence;

	/* unreclaimable_set: the node was not set */
	bool set_new;
	/* unreclaimable_clear of a recorded set: the node before it */
	bool cleared;
	struct ow_ep_node before;

	/* thrash events: the node's thrash state before the event */
	struct ow_ep_thrash thrash;
	/* nodes whose requests began waiting while unreclaimable */
	size_t *wait_began;		/* indexes in m->node */
	size_t nr_wait_began;
	size_t cap_wait_began;
	/* nodes whose waiting or unreclaimable state this event touched */
	size_t *touched;
	size_t nr_touched;
	size_t cap_touched;
	/* oom_thrash_grant: an OOM victim was alive (the first one) */
	bool victim_alive;
	struct ow_ep_victim alive;
};

struct ow_episodes {
	/* slots [0, nr_req): records where used; free ones chained */
	struct ow_ep_request *req;
	size_t nr_req;
	size_t cap_req;
	size_t free_req;		/* first free slot, OW_EP_NIL: none */
	struct ow_ep_map req_of;	/* pid -> slot */
	struct ow_ep_map ended;		/* pids whose request ended */
	struct ow_ep_map killed;	/* pid -> nid: killed while waiting,
					 * listed until its verdict */
	struct ow_ep_node *node;	/* in the order first named */
	size_t nr_node;
	size_t cap_node;
	struct ow_ep_map node_of;	/* nid -> index */
	size_t *open_ep;		/* nodes with an episode open */
	size_t nr_open_ep;
	size_t cap_open_ep;
	size_t *spell;			/* nodes with a spell, maybe ended */
	size_t nr_spell;
	size_t cap_spell;

	bool started;
	unsigned long long first_seq;	/* the recording's first event */
	unsigned long long first_ts;

	struct ow_ep_permit permit;	/* the grant since the last kill */
	struct ow_ep_permit take;	/* the thrash take, in its OOM call */
	struct ow_ep_permit *fallback;	/* per task: its fallback, unused */
	size_t nr_fallback;
	size_t cap_fallback;
	struct ow_ep_map fallback_of;	/* pid -> index */
	unsigned long long episodes;	/* global kills, a group counted once */

	/* the last global kill, while a further member may follow */
	bool group_open;
	__u32 killer;
	unsigned long long group_seq;
	unsigned long long group_last_ts;	/* its latest member's */
	struct ow_ep_permit group_permit;
	__s32 group_nid;		/* episode its victims joined, or -1 */
	bool group_in_episode;

	/* the last mark_victim, of any OOM: every thrash clock restarts */
	bool victim_seen;
	unsigned long long victim_seq;
	unsigned long long victim_ts;

	struct ow_ep_victim *alive;	/* victims of any OOM, not gone */
	size_t nr_alive;
	size_t cap_alive;

	unsigned long nomem;		/* items not kept: out of memory */
	struct ow_ep_step step;
};

/*
 * How long after a member of a memory.oom.group kill the next may come
 * although every member so far is gone: the kernel marks them in one
 * loop, but prints a line to the console for each, and a small member
 * may exit on another CPU before the next is marked.
 */
#define OW_GROUP_GAP_NS	1000000000ULL

void ow_episodes_init(struct ow_episodes *m);
/* who: the requester's memcg for request-type events (may be NULL). */
void ow_episodes_feed(struct ow_episodes *m, const struct oomwatch_event *ev,
		      const struct ow_requester *who);
void ow_episodes_free(struct ow_episodes *m);

/*
 * Nothing in flight: no request kept, no episode or memory.oom.group
 * kill open, no grant, take or fallback unspent, no victim alive, no node
 * unreclaimable (since its last recovery) or thrashing.  A recording that
 * begins here (a rotated file) is judged as the whole run would judge
 * what follows.  Costs a pass over the nodes.
 */
bool ow_episodes_quiet(const struct ow_episodes *m);

/* The record of pid (waiting or settled), or NULL. */
struct ow_ep_request *ow_episodes_request(struct ow_episodes *m, __u32 pid);
/* The node, or NULL when nothing about it was recorded. */
struct ow_ep_node *ow_episodes_node(struct ow_episodes *m, __s32 nid);
/*
 * The indexes of the nodes in m->node, by nid: an array of m->nr_node
 * the caller frees, or NULL (no node, or out of memory).
 */
size_t *ow_episodes_nodes_by_nid(const struct ow_episodes *m);
/* Requests waiting on nid. */
unsigned int ow_episodes_waiting_on(const struct ow_episodes *m, __s32 nid);
/* The change the last event made to pid's request, or NULL. */
const struct ow_ep_change *ow_episodes_change(const struct ow_episodes *m,
					      __u32 pid);

/*
 * A view's hold on the model: the session's (shared, fed by it before the
 * view sees the event) or, for a view used on its own, one of its own that
 * the view feeds itself.
 */
struct ow_ep_ref {
	struct ow_episodes *shared;	/* NULL: own */
	struct ow_episodes own;
};

static inline struct ow_episodes *ow_ep_of(struct ow_ep_ref *r)
{
	return r->shared ? r->shared : &r->own;
}

void ow_ep_ref_init(struct ow_ep_ref *r, struct ow_episodes *shared);
void ow_ep_ref_feed(struct ow_ep_ref *r, const struct oomwatch_event *ev,
		    const struct ow_requester *who);
void ow_ep_ref_free(struct ow_ep_ref *r);

#endif /* OW_EPISODES_H */

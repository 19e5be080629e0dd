// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: the invariant checker; checker.h states the rules.
 *
 * Requests, grants, victims and node states are the episode model's
 * (episodes.h): the checker holds what the model says against the rules.
 * Time bounds (liveness, timer_works) are checked at every new event's
 * timestamp: a verdict that comes too late is reported as late rather
 * than taken as a resolution, and a state that is never resolved is
 * reported as soon as the record shows time has passed, not only at the
 * end.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>		/* vsnprintf: the only stdio used */
#include <stdlib.h>
#include <string.h>
#include "checker.h"

#define PRINTF(f, a)	__attribute__((format(printf, f, a)))
#define NS_PER_MS	1000000ULL
#define TOLERANCE_NS	(OW_JIFFY_TOLERANCE_MS * NS_PER_MS)

static const char *const inv_names[OW_NR_INVARIANTS + 1] = {
	[OW_INV_NO_KILL_WITHOUT_GRANT]	= "no_kill_without_grant",
	[OW_INV_ONE_KILL_PER_EPISODE]	= "one_kill_per_episode",
	[OW_INV_LIVENESS]		= "liveness",
	[OW_INV_TOKEN_YIELDS]		= "token_yields",
	[OW_INV_TIMER_WORKS]		= "timer_works",
	[OW_INV_RECORD_WHOLE]		= "record_whole",
	[OW_INV_THRASH_TIMER]		= "thrash_timer",
	[OW_INV_THRASH_RULE]		= "thrash_rule",
	[OW_INV_ONE_TAKE_PER_GRANT]	= "one_take_per_grant",
	[OW_INV_VERDICTS_NAME_WAITERS]	= "verdicts_name_waiters",
};

const char *ow_invariant_name(int inv)
{
	return inv >= 1 && inv <= OW_NR_INVARIANTS ? inv_names[inv] : NULL;
}

void ow_check_opts_default(struct ow_check_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->slack_ms = 250;
	opts->kswapd_period_ms = 1000;
}

/* ------------------------------------------------------------ messages */

/* Returned by value: lives until the end of the printf that uses it. */
struct text {
	char s[72];
};
_Static_assert(sizeof(struct text) >= OW_COMM_PRINTABLE_SIZE, "comm_text");

static struct text ts_fmt(unsigned long long ns, bool nano)
{
	struct text t;

	if (nano)
		snprintf(t.s, sizeof(t.s), "%llu.%09llus", ns / 1000000000ULL,
			 ns % 1000000000ULL);
	else
		snprintf(t.s, sizeof(t.s), "%llu.%06llus", ns / 1000000000ULL,
			 ns % 1000000000ULL / 1000);
	return t;
}

static struct text ts_text(unsigned long long ns)
{
	return ts_fmt(ns, false);
}

/*
 * Two times a message compares: to the ns when the us would print them
 * alike ("seq 60 at 5.926826s is earlier than seq 59 at 5.926826s").
 */
static bool need_ns(unsigned long long a, unsigned long long b)
{
	return a != b && a / 1000 == b / 1000;
}

/* A duration in ms with its us: "1000.000". */
static struct text ms_text(unsigned long long ns)
{
	struct text t;

	snprintf(t.s, sizeof(t.s), "%llu.%03llu", ns / NS_PER_MS,
		 ns % NS_PER_MS / 1000);
	return t;
}

/* comm can hold any byte: keep messages one printable line. */
static struct text comm_text(const char *comm)
{
	struct text t;

	ow_comm_printable(t.s, sizeof(t.s), comm);
	return t;
}

static const char *tname(unsigned int type)
{
	const char *n = ow_event_type_name(type);

	return n ? n : "event of unknown type";
}

PRINTF(5, 6)
static void violation(struct ow_checker *c, int inv, unsigned long long seq,
		      unsigned long long ts_ns, const char *fmt, ...)
{
	struct ow_violation v;
	va_list ap;
	int n;

	v.inv = inv;
	v.name = inv_names[inv];
	v.seq = seq;
	v.ts_ns = ts_ns;
	n = snprintf(v.msg, sizeof(v.msg), "%s: ", v.name);
	va_start(ap, fmt);
	vsnprintf(v.msg + n, sizeof(v.msg) - n, fmt, ap);
	va_end(ap);
	c->nr_violations[inv]++;
	c->nr_violations[0]++;
	if (c->opts.report)
		c->opts.report(c->opts.ctx, &v);
}

/* Appends "; "-separated reasons into a fixed buffer, silently cut. */
PRINTF(3, 4)
static void add_reason(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len && len + 2 < size) {
		strcpy(buf + len, "; ");
		len += 2;
	}
	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

static unsigned long long sat_add(unsigned long long a, unsigned long long b)
{
	return a + b < a ? ~0ULL : a + b;
}

/*
 * A duration the kernel claims against the one the record shows: more
 * than a jiffy apart at either end (TOLERANCE_NS) either way.
 */
static bool disagree(unsigned long long claim, unsigned long long took)
{
	return claim > sat_add(took, TOLERANCE_NS) ||
	       took > sat_add(claim, TOLERANCE_NS);
}

static unsigned long long since(unsigned long long from, unsigned long long to)
{
	return to > from ? to - from : 0;
}

static struct ow_episodes *model(struct ow_checker *c)
{
	return ow_ep_of(&c->ep);
}

/* ------------------------------------------------------------- set-up */

void ow_checker_init(struct ow_checker *c, const struct ow_config *cfg,
		     const struct ow_check_opts *opts)
{
	long long timeout, fallback, slack, period;
	bool arbiter, thrash;

	memset(c, 0, sizeof(*c));
	if (cfg)
		c->cfg = *cfg;
	else
		ow_config_unknown(&c->cfg);
	if (opts)
		c->opts = *opts;
	else
		ow_check_opts_default(&c->opts);
	ow_ep_ref_init(&c->ep, c->opts.episodes);

	arbiter = c->cfg.oom_arbiter == 1;
	timeout = c->cfg.oom_unreclaimable_timeout_ms;
	fallback = c->cfg.oom_arbiter_fallback_ms;
	slack = c->opts.slack_ms;
	period = c->opts.kswapd_period_ms;

	c->enabled[OW_INV_NO_KILL_WITHOUT_GRANT] = arbiter;
	c->enabled[OW_INV_ONE_KILL_PER_EPISODE] = arbiter;
	/* Without both sysctls there is no bound to hold requests to. */
	c->enabled[OW_INV_LIVENESS] = timeout >= 0 && fallback >= 0;
	c->enabled[OW_INV_TOKEN_YIELDS] = c->cfg.swap_token == 1;
	c->enabled[OW_INV_TIMER_WORKS] = arbiter && timeout > 0;
	c->enabled[OW_INV_RECORD_WHOLE] = true;
	/* Older recordings have no thrash sysctls: unknown, not checked. */
	thrash = c->cfg.oom_arbiter_thrash == 1;
	c->enabled[OW_INV_THRASH_TIMER] = thrash &&
					  c->cfg.oom_thrash_timeout_ms >= 0;
	c->enabled[OW_INV_THRASH_RULE] = thrash;
	c->enabled[OW_INV_ONE_TAKE_PER_GRANT] = thrash;
	/* kswapd's verdicts exist with the arbiter on */
	c->enabled[OW_INV_VERDICTS_NAME_WAITERS] = arbiter;

	if (c->enabled[OW_INV_LIVENESS])
		c->liveness_ns = (timeout + fallback + slack) * NS_PER_MS;
	if (c->enabled[OW_INV_TIMER_WORKS])
		c->timer_ns = (timeout + period + slack) * NS_PER_MS;
}

void ow_checker_free(struct ow_checker *c)
{
	free(c->cpu);
	c->cpu = NULL;
	c->nr_cpu = c->cap_cpu = 0;
	free(c->req_due.v);
	free(c->node_due.v);
	free(c->token);
	memset(&c->req_due, 0, sizeof(c->req_due));
	memset(&c->node_due, 0, sizeof(c->node_due));
	c->token = NULL;
	c->nr_token = c->cap_token = 0;
	ow_ep_ref_free(&c->ep);
}

/* ------------------------------------------------------------ deadlines */

static bool due_before(const struct ow_check_due *a,
		       const struct ow_check_due *b)
{
	return a->deadline != b->deadline ? a->deadline < b->deadline :
					    a->seq < b->seq;
}

static void due_push(struct ow_checker *c, struct ow_check_heap *h,
		     const struct ow_check_due *d)
{
	size_t i;

	if (h->nr == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 64;
		struct ow_check_due *v;

		v = cap <= SIZE_MAX / sizeof(*v) ?
		    realloc(h->v, cap * sizeof(*v)) : NULL;
		if (!v) {
			c->nomem++;
			return;
		}
		h->v = v;
		h->cap = cap;
	}
	for (i = h->nr++; i && due_before(d, &h->v[(i - 1) / 2]);
	     i = (i - 1) / 2)
		h->v[i] = h->v[(i - 1) / 2];
	h->v[i] = *d;
}

/* The soonest deadline before now into *d, taken off; false: none. */
static bool due_pop(struct ow_check_heap *h, unsigned long long now,
		    struct ow_check_due *d)
{
	struct ow_check_due last;
	size_t i = 0;

	if (!h->nr || h->v[0].deadline >= now)
		return false;
	*d = h->v[0];
	last = h->v[--h->nr];
	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= h->nr)
			break;
		if (k + 1 < h->nr && due_before(&h->v[k + 1], &h->v[k]))
			k++;
		if (!due_before(&h->v[k], &last))
			break;
		h->v[i] = h->v[k];
		i = k;
	}
	if (h->nr)
		h->v[i] = last;
	return true;
}

/* -------------------------------------------------------- record_whole */

static void check_seq(struct ow_checker *c, const struct oomwatch_event *ev)
{
	unsigned long long last = c->last_seq;

	if (!c->seq_started) {
		c->seq_started = true;
		c->last_seq = ev->seq;
		return;
	}
	if (last != ~0ULL && ev->seq == last + 1) {
		c->last_seq = ev->seq;
		return;
	}
	if (ev->seq > last) {
		violation(c, OW_INV_RECORD_WHOLE, ev->seq, ev->ts_ns,
			  "%s seq %llu at %s follows seq %llu: %llu events missing",
			  tname(ev->type), (unsigned long long)ev->seq,
			  ts_text(ev->ts_ns).s, last,
			  (unsigned long long)ev->seq - last - 1);
		c->last_seq = ev->seq;
	} else {
		violation(c, OW_INV_RECORD_WHOLE, ev->seq, ev->ts_ns,
			  "%s seq %llu at %s after seq %llu: %s",
			  tname(ev->type), (unsigned long long)ev->seq,
			  ts_text(ev->ts_ns).s, last,
			  ev->seq == last ? "duplicate" : "out of order");
	}
}

/* The CPU's entry, made when first seen; NULL when out of memory. */
static struct ow_check_cpu *cpu_entry(struct ow_checker *c, __u32 cpu,
				      bool *fresh)
{
	size_t lo = 0, hi = c->nr_cpu;
	struct ow_check_cpu *v;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->cpu[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	*fresh = lo == c->nr_cpu || c->cpu[lo].cpu != cpu;
	if (!*fresh)
		return &c->cpu[lo];
	if (c->nr_cpu == c->cap_cpu) {
		size_t cap = c->cap_cpu ? c->cap_cpu * 2 : 8;

		v = cap <= SIZE_MAX / sizeof(*v) ?
		    realloc(c->cpu, cap * sizeof(*v)) : NULL;
		if (!v) {
			c->nomem++;
			return NULL;
		}
		c->cpu = v;
		c->cap_cpu = cap;
	}
	memmove(&c->cpu[lo + 1], &c->cpu[lo],
		(c->nr_cpu - lo) * sizeof(c->cpu[0]));
	c->nr_cpu++;
	c->cpu[lo].cpu = cpu;
	return &c->cpu[lo];
}

/*
 * The newest timestamp per CPU is replaced even after a violation, so one
 * stray event yields one violation rather than one per later event.
 */
static void check_cpu_ts(struct ow_checker *c, const struct oomwatch_event *ev)
{
	bool fresh, ns;
	struct ow_check_cpu *e = cpu_entry(c, ev->cpu, &fresh);

	if (!e)
		return;
	ns = need_ns(ev->ts_ns, e->ts_ns);
	if (!fresh && ev->ts_ns < e->ts_ns)
		violation(c, OW_INV_RECORD_WHOLE, ev->seq, ev->ts_ns,
			  "%s seq %llu on cpu %u at %s is earlier than seq %llu at %s on the same cpu",
			  tname(ev->type), (unsigned long long)ev->seq,
			  (unsigned int)ev->cpu, ts_fmt(ev->ts_ns, ns).s,
			  e->seq, ts_fmt(e->ts_ns, ns).s);
	e->ts_ns = ev->ts_ns;
	e->seq = ev->seq;
}

void ow_checker_lost(struct ow_checker *c, unsigned long long count)
{
	if (!count || c->finished)
		return;
	c->lost = sat_add(c->lost, count);
	violation(c, OW_INV_RECORD_WHOLE, OW_NO_SEQ, 0,
		  "%llu events lost: the ring buffer was full", count);
}

void ow_checker_table_full(struct ow_checker *c, const char *what)
{
	if (c->finished)
		return;
	violation(c, OW_INV_RECORD_WHOLE, OW_NO_SEQ, 0,
		  "%s; the checks and filters that need it are incomplete",
		  what);
}

/* A table that could not grow: the checks that needed it are incomplete. */
static void check_nomem(struct ow_checker *c, const struct oomwatch_event *ev)
{
	unsigned long n = model(c)->nomem + c->nomem;

	if (n == c->nomem_seen)
		return;
	violation(c, OW_INV_RECORD_WHOLE, ev ? ev->seq : OW_NO_SEQ,
		  ev ? ev->ts_ns : 0,
		  "out of memory: %lu requests, nodes, victims or cpus not tracked%s%s; the checks that need them are incomplete",
		  n - c->nomem_seen, ev ? " at " : "",
		  ev ? tname(ev->type) : "");
	c->nomem_seen = n;
}

/* ------------------------------------------------------------ liveness */

static void late_request(struct ow_checker *c, const struct ow_ep_request *r,
			 unsigned long long now, const struct oomwatch_event *by)
{
	unsigned long long deadline = sat_add(r->ts_ns, c->liveness_ns);
	bool ns = need_ns(deadline, now);

	if (by)
		violation(c, OW_INV_LIVENESS, r->seq, r->ts_ns,
			  "oom_request seq %llu at %s by pid %u (%s) on node %d not resolved within %llu ms: deadline %s passed at %s seq %llu (%s)",
			  r->seq, ts_text(r->ts_ns).s, r->pid,
			  comm_text(r->comm).s, r->nid,
			  c->liveness_ns / NS_PER_MS, ts_fmt(deadline, ns).s,
			  tname(by->type), (unsigned long long)by->seq,
			  ts_fmt(now, ns).s);
	else
		violation(c, OW_INV_LIVENESS, r->seq, r->ts_ns,
			  "oom_request seq %llu at %s by pid %u (%s) on node %d not resolved within %llu ms: still open at the end (%s)",
			  r->seq, ts_text(r->ts_ns).s, r->pid,
			  comm_text(r->comm).s, r->nid,
			  c->liveness_ns / NS_PER_MS, ts_text(now).s);
}

static bool overdue(const struct ow_checker *c, const struct ow_ep_request *r,
		    unsigned long long now)
{
	return !(r->marks & OW_MARK_LATE) &&
	       now > sat_add(r->ts_ns, c->liveness_ns);
}

/* A new wait: its deadline, in the order deadlines come. */
static void note_request(struct ow_checker *c)
{
	const struct ow_ep_step *st = &model(c)->step;
	const struct ow_ep_request *r;
	struct ow_check_due d = { 0 };

	if (!st->new_request)
		return;
	r = ow_episodes_request(model(c), st->ev->request.pid);
	if (!r || r->seq != st->ev->seq)
		return;
	d.deadline = sat_add(r->ts_ns, c->liveness_ns);
	d.seq = r->seq;
	d.pid = r->pid;
	due_push(c, &c->req_due, &d);
}

/* A verdict after the deadline does not make the wait short enough. */
static void check_ended(struct ow_checker *c, const struct oomwatch_event *ev)
{
	const struct ow_ep_step *st = &model(c)->step;

	for (size_t i = 0; i < st->nr_change; i++) {
		const struct ow_ep_request *r = &st->change[i].r;

		if (st->change[i].ended && overdue(c, r, ev->ts_ns))
			late_request(c, r, ev->ts_ns, ev);
	}
}

/* by: the event whose timestamp shows the deadline passed; NULL at end. */
static void expire_requests(struct ow_checker *c, unsigned long long now,
			    const struct oomwatch_event *by)
{
	struct ow_check_due d;

	while (due_pop(&c->req_due, now, &d)) {
		struct ow_ep_request *r = ow_episodes_request(model(c), d.pid);

		/* gone, or a later wait of the task: its own deadline */
		if (!r || r->seq != d.seq || r->settled ||
		    !overdue(c, r, now))
			continue;
		late_request(c, r, now, by);
		r->marks |= OW_MARK_LATE;
	}
}

/* --------------------------------------------------------- timer_works */

/*
 * The timer owes a clear only while requests wait on the node: from the
 * set, or from the first request after it, whichever is later (a request
 * on a node hopeless for long gets its rescan at once).
 */
static unsigned long long node_deadline(const struct ow_checker *c,
					const struct ow_ep_node *n)
{
	return sat_add(n->wait_ts > n->set_ts ? n->wait_ts : n->set_ts,
		       c->timer_ns);
}

static void late_node(struct ow_checker *c, const struct ow_ep_node *n,
		      unsigned long long now, const struct oomwatch_event *by)
{
	unsigned long long deadline = node_deadline(c, n);
	bool ns = need_ns(deadline, now);

	if (by)
		violation(c, OW_INV_TIMER_WORKS, n->set_seq, n->set_ts,
			  "unreclaimable_set seq %llu at %s on node %d, requests waiting since %s, not cleared within %llu ms: deadline %s passed at %s seq %llu (%s)",
			  n->set_seq, ts_text(n->set_ts).s, n->nid,
			  ts_text(n->wait_ts).s,
			  c->timer_ns / NS_PER_MS, ts_fmt(deadline, ns).s,
			  tname(by->type), (unsigned long long)by->seq,
			  ts_fmt(now, ns).s);
	else
		violation(c, OW_INV_TIMER_WORKS, n->set_seq, n->set_ts,
			  "unreclaimable_set seq %llu at %s on node %d, requests waiting since %s, not cleared within %llu ms: still set at the end (%s)",
			  n->set_seq, ts_text(n->set_ts).s, n->nid,
			  ts_text(n->wait_ts).s,
			  c->timer_ns / NS_PER_MS, ts_text(now).s);
}

/*
 * Requests still wait past the deadline; or their wait ended (the last
 * one settled, by a fallback say) after the deadline had passed, with no
 * event in between to notice it then.
 */
static bool node_overdue(const struct ow_checker *c,
			 const struct ow_ep_node *n, unsigned long long now)
{
	if (n->marks & OW_MARK_LATE)
		return false;
	if (n->waited)
		return now > node_deadline(c, n);
	return n->wait_ended && n->wait_end_ts > node_deadline(c, n);
}

/*
 * The nodes the event touched: a wait that began gets its deadline; one
 * that ended is judged now (nothing later changes the verdict).
 */
static void note_nodes(struct ow_checker *c, const struct oomwatch_event *ev)
{
	struct ow_episodes *m = model(c);
	const struct ow_ep_step *st = &m->step;

	if (!c->enabled[OW_INV_TIMER_WORKS])
		return;
	for (size_t k = 0; k < st->nr_wait_began; k++) {
		const struct ow_ep_node *n = &m->node[st->wait_began[k]];
		struct ow_check_due d = { 0 };

		d.deadline = node_deadline(c, n);
		d.seq = n->set_seq;
		d.since = n->wait_ts;
		d.node = st->wait_began[k];
		due_push(c, &c->node_due, &d);
	}
	for (size_t k = 0; k < st->nr_touched; k++) {
		struct ow_ep_node *n = &m->node[st->touched[k]];

		if (!n->set || !node_overdue(c, n, ev->ts_ns))
			continue;
		late_node(c, n, ev->ts_ns, ev);
		n->marks |= OW_MARK_LATE;
	}
}

static void expire_nodes(struct ow_checker *c, unsigned long long now,
			 const struct oomwatch_event *by)
{
	struct ow_episodes *m = model(c);
	struct ow_check_due d;

	if (!c->enabled[OW_INV_TIMER_WORKS])
		return;
	while (due_pop(&c->node_due, now, &d)) {
		struct ow_ep_node *n = &m->node[d.node];

		/* cleared, set again, or its wait ended or began again */
		if (!n->set || !n->waited || n->set_seq != d.seq ||
		    n->wait_ts != d.since || !node_overdue(c, n, now))
			continue;
		late_node(c, n, now, by);
		n->marks |= OW_MARK_LATE;
	}
}

/*
 * A clear of a recorded set: late, or early, judged from the two
 * timestamps; and its duration_ms must say what they say.  A clear whose
 * set came before the recording can only be judged by its duration_ms.
 */
static void check_clear(struct ow_checker *c, const struct oomwatch_event *ev)
{
	const struct ow_ep_step *st = &model(c)->step;
	long long timeout = c->cfg.oom_unreclaimable_timeout_ms;
	long long slack = c->opts.slack_ms;
	unsigned long long claim = ev->unrecl.duration_ms * NS_PER_MS;
	/* 0 when the slack covers the whole timeout: nothing is early */
	unsigned long long early = timeout > slack ?
		(unsigned long long)(timeout - slack) * NS_PER_MS : 0;
	bool timer = ev->unrecl.reason == OW_CLEAR_TIMEOUT;
	char why[400] = "";

	if (!c->enabled[OW_INV_TIMER_WORKS])
		return;
	if (st->cleared) {
		const struct ow_ep_node *n = &st->before;
		unsigned long long took = since(n->set_ts, ev->ts_ns);

		if (node_overdue(c, n, ev->ts_ns))
			late_node(c, n, ev->ts_ns, ev);
		if (timer && took < early)
			add_reason(why, sizeof(why), "by the timer %s ms after unreclaimable_set seq %llu at %s, before timeout %lld ms - slack %lld ms",
				   ms_text(took).s, n->set_seq,
				   ts_text(n->set_ts).s, timeout, slack);
		if (disagree(claim, took))
			add_reason(why, sizeof(why), "it claims %u ms unreclaimable, the record shows %s ms since unreclaimable_set seq %llu (tolerance %d ms)",
				   ev->unrecl.duration_ms, ms_text(took).s,
				   n->set_seq, OW_JIFFY_TOLERANCE_MS);
	} else {
		/*
		 * Only "too early" can be judged: with nobody waiting the
		 * kernel leaves a hopeless node alone for as long as it
		 * likes, and a request that came before the recording or
		 * in it may get its rescan at once, after any duration.
		 */
		if (timer && claim < early)
			add_reason(why, sizeof(why), "by the timer after %u ms (its claim: the set is not in the record), before timeout %lld ms - slack %lld ms",
				   ev->unrecl.duration_ms, timeout, slack);
	}
	if (why[0])
		violation(c, OW_INV_TIMER_WORKS, ev->seq, ev->ts_ns,
			  "unreclaimable_clear seq %llu at %s on node %d (%s): %s",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->unrecl.nid, ow_clear_reason_name(ev->unrecl.reason),
			  why);
}

/* ------------------------------------------------------- token_yields */

/* The node's passes since the last kill; make: a new entry if none. */
static struct ow_check_token *token_of(struct ow_checker *c, __s32 nid,
				       bool make)
{
	struct ow_check_token *v;

	for (size_t i = 0; i < c->nr_token; i++)
		if (c->token[i].nid == nid)
			return &c->token[i];
	if (!make)
		return NULL;
	if (c->nr_token == c->cap_token) {
		size_t cap = c->cap_token ? c->cap_token * 2 : 8;

		v = cap <= SIZE_MAX / sizeof(*v) ?
		    realloc(c->token, cap * sizeof(*v)) : NULL;
		if (!v) {
			c->nomem++;
			return NULL;
		}
		c->token = v;
		c->cap_token = cap;
	}
	v = &c->token[c->nr_token++];
	memset(v, 0, sizeof(*v));
	v->nid = nid;
	return v;
}

/*
 * The node reclaim gave up on starts the episode afresh.  What the token
 * kept before is not why a kill follows, if reclaim on that node stopped
 * keeping anything from here on; a kept pass that still matters shows up
 * again after the set.  A kept pass on another node stays outstanding:
 * kept passes are per node, a pass on one says nothing of another.
 */
static void token_episode_begins(struct ow_checker *c, int nid)
{
	struct ow_check_token *t = token_of(c, nid, false);

	if (t)
		*t = (struct ow_check_token){ .nid = nid };
}

/*
 * The token left the holder a kept pass protected: its folios age like
 * anybody's again, so that pass is no longer a reason for a kill.
 */
static void on_token_moved(struct ow_checker *c,
			   const struct oomwatch_event *ev)
{
	for (size_t i = 0; i < c->nr_token; i++) {
		struct ow_check_token *t = &c->token[i];

		if (t->kept && (ev->type == OW_TOKEN_RELEASE ?
				ev->token.tgid == t->kept_holder :
				ev->token.tgid != t->kept_holder))
			t->kept = false;
	}
}

static void on_kept(struct ow_checker *c, const struct oomwatch_event *ev)
{
	struct ow_check_token *t;

	if (!ev->token_pass.nr_folios)
		return;
	t = token_of(c, ev->token_pass.nid, true);
	if (!t)
		return;
	t->kept = true;
	t->kept_seq = ev->seq;
	t->kept_folios = ev->token_pass.nr_folios;
	t->kept_holder = ev->token_pass.holder_tgid;
}

static void on_bypass(struct ow_checker *c, const struct oomwatch_event *ev)
{
	struct ow_check_token *t = token_of(c, ev->token_pass.nid, true);

	if (t)
		t->bypassed = true;
}

/* The oldest kept pass no bypass on its node answered, or NULL. */
static const struct ow_check_token *token_unanswered(const struct ow_checker *c)
{
	const struct ow_check_token *first = NULL;

	for (size_t i = 0; i < c->nr_token; i++) {
		const struct ow_check_token *t = &c->token[i];

		if (t->kept && !t->bypassed &&
		    (!first || t->kept_seq < first->kept_seq))
			first = t;
	}
	return first;
}

/* ------------------------------------ no_kill_without_grant, episodes */

/* The grant's unreclaimable_ms against what the record shows. */
static void evidence_vs_record(const struct ow_ep_evidence *e,
			       const struct oomwatch_event *ev, char *why,
			       size_t size)
{
	unsigned long long claim = ev->grant.unreclaimable_ms * NS_PER_MS;

	if (e->basis == OW_BASIS_BEFORE) {
		/* trusted as far as it reaches back before the recording */
		if (sat_add(claim, TOLERANCE_NS) < e->min_ns)
			add_reason(why, size, "claims unreclaimable for %u ms, since %s, inside the recording (from seq %llu at %s), but no unreclaimable_set of the node was recorded",
				   ev->grant.unreclaimable_ms,
				   ts_text(ev->ts_ns - claim).s, e->since_seq,
				   ts_text(e->since_ts).s);
		return;
	}
	if (e->basis == OW_BASIS_UNKNOWN || claim <= sat_add(e->max_ns, TOLERANCE_NS))
		return;
	switch (e->basis) {
	case OW_BASIS_RECOVERED:
		add_reason(why, size, "claims unreclaimable for %u ms, but the node recovered at unreclaimable_clear seq %llu at %s and was not unreclaimable since",
			   ev->grant.unreclaimable_ms, e->since_seq,
			   ts_text(e->since_ts).s);
		break;
	default:
		add_reason(why, size, "claims unreclaimable for %u ms, the record shows %s ms since unreclaimable_set seq %llu at %s",
			   ev->grant.unreclaimable_ms, ms_text(e->max_ns).s,
			   e->since_seq, ts_text(e->since_ts).s);
		break;
	}
}

static void check_evidence(struct ow_checker *c,
			   const struct oomwatch_event *ev)
{
	int timeout = c->cfg.oom_unreclaimable_timeout_ms;
	__u32 nr = ev->grant.nr_zones;
	char why[400] = "";

	if (timeout >= 0 && ev->grant.unreclaimable_ms < (__u32)timeout)
		add_reason(why, sizeof(why), "unreclaimable for %u ms < timeout %d ms",
			   ev->grant.unreclaimable_ms, timeout);
	evidence_vs_record(&model(c)->step.evidence, ev, why, sizeof(why));
	if (ev->grant.low_reclaimed)
		add_reason(why, sizeof(why), "last full scan reclaimed %llu low-zone pages",
			   (unsigned long long)ev->grant.low_reclaimed);
	/* No zones to show is no evidence, not evidence of "all <= min". */
	if (nr == 0 || nr > OOMWATCH_MAX_ZONES)
		add_reason(why, sizeof(why), "nr_zones %u not in 1..%d", nr,
			   OOMWATCH_MAX_ZONES);
	for (__u32 i = 0; i < nr && i < OOMWATCH_MAX_ZONES; i++)
		if (ev->grant.zone[i].free > ev->grant.zone[i].min)
			add_reason(why, sizeof(why), "zone %u free %llu > min %llu",
				   i, (unsigned long long)ev->grant.zone[i].free,
				   (unsigned long long)ev->grant.zone[i].min);
	if (!ev->grant.looping)
		add_reason(why, sizeof(why), "no task looping");
	if (why[0])
		violation(c, OW_INV_NO_KILL_WITHOUT_GRANT, ev->seq, ev->ts_ns,
			  "oom_grant seq %llu at %s for pid %u on node %d breaks the rule: %s",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->grant.pid, ev->grant.nid, why);
}

static void check_episode(struct ow_checker *c, const struct oomwatch_event *ev)
{
	const struct ow_ep_step *st = &model(c)->step;
	const struct ow_ep_node *o = &st->open;
	const char *by = o->grant_type == OW_THRASH_TAKE ? "oom_thrash_take" :
			 "grant";

	if (!st->blocked)
		return;
	if (o->ep == OW_EP_GRANTED)
		violation(c, OW_INV_ONE_KILL_PER_EPISODE, ev->seq, ev->ts_ns,
			  "oom_grant seq %llu at %s for pid %u on node %d while the grant seq %llu for pid %u on node %d has neither killed nor seen memory recover",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->grant.pid, ev->grant.nid, o->grant_seq,
			  o->grant_pid, o->nid);
	else
		violation(c, OW_INV_ONE_KILL_PER_EPISODE, ev->seq, ev->ts_ns,
			  "oom_grant seq %llu at %s for pid %u on node %d while victim pid %u (%s) of the %s seq %llu on node %d lives and that node has not recovered",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->grant.pid, ev->grant.nid, st->first.pid,
			  comm_text(st->first.comm).s, by, o->grant_seq, o->nid);
}

/*
 * A further member of a memory.oom.group kill is the same OOM: its
 * grant, its token history.  Anything else global starts an episode.
 */
static void on_kill(struct ow_checker *c, const struct oomwatch_event *ev)
{
	const struct ow_ep_step *st = &model(c)->step;
	const struct ow_check_token *t = token_unanswered(c);
	const char *comm = ev->victim.comm;

	if (!st->kill_global || st->kill_group)
		return;
	if (c->enabled[OW_INV_NO_KILL_WITHOUT_GRANT] && !st->permit.type)
		violation(c, OW_INV_NO_KILL_WITHOUT_GRANT, ev->seq, ev->ts_ns,
			  "mark_victim seq %llu at %s: pid %u killed pid %u (%s) with no oom_fallback of its own, and no oom_grant or oom_thrash_take since the last kill",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->pid, ev->victim.pid, comm_text(comm).s);
	/* The header says the kernel took no thrash grant: none to use. */
	if (c->enabled[OW_INV_NO_KILL_WITHOUT_GRANT] &&
	    st->permit.type == OW_THRASH_TAKE && !c->cfg.oom_arbiter_thrash)
		violation(c, OW_INV_NO_KILL_WITHOUT_GRANT, ev->seq, ev->ts_ns,
			  "mark_victim seq %llu at %s: pid %u killed pid %u (%s) on the oom_thrash_take seq %llu, but vm.oom_arbiter_thrash is 0 (header): the kernel takes no thrash grant then",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->pid, ev->victim.pid, comm_text(comm).s,
			  st->permit.seq);
	if (c->enabled[OW_INV_TOKEN_YIELDS] && t)
		violation(c, OW_INV_TOKEN_YIELDS, ev->seq, ev->ts_ns,
			  "mark_victim seq %llu at %s killed pid %u (%s) while the swap token protected %llu folios (swap_token_kept seq %llu) and no swap_token_bypass happened in this episode",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->victim.pid, comm_text(comm).s, t->kept_folios,
			  t->kept_seq);
	/* A new episode starts: the token history is spent. */
	c->nr_token = 0;
}

/* ------------------------------------------------------ the thrash rule */

static const char *clock_name(enum ow_th_clock clock)
{
	switch (clock) {
	case OW_TH_CLOCK_SET:
		return "thrashing_set";
	case OW_TH_CLOCK_KILL:
		return "mark_victim";
	default:
		return "oom_thrash_grant";
	}
}

/*
 * thrash_timer on a grant: its claim against the timeout, and the record
 * against both: the time since the node's set, or since its previous
 * grant or the last mark_victim of any OOM when that is later (the kernel
 * restarts the clock at a grant, and every node's at a kill).
 */
static void check_thrash_timer(struct ow_checker *c,
			       const struct oomwatch_event *ev)
{
	const struct ow_ep_thrash *th = &model(c)->step.thrash;
	long long timeout = c->cfg.oom_thrash_timeout_ms;
	__u32 claim = ev->thrash_grant.thrashing_ms;
	unsigned long long claim_ns = claim * NS_PER_MS;
	char why[400] = "";

	if (claim < timeout)
		add_reason(why, sizeof(why), "claims %u ms thrashing < timeout %lld ms",
			   claim, timeout);
	if (th->clock == OW_TH_CLOCK_NONE && th->state == OW_TH_UNKNOWN &&
	    sat_add(claim_ns, TOLERANCE_NS) <
	    since(model(c)->first_ts, ev->ts_ns))
		add_reason(why, sizeof(why), "claims %u ms thrashing, since %s, inside the recording (from seq %llu at %s), but no thrashing_set of the node was recorded",
			   claim, ts_text(ev->ts_ns - claim_ns).s,
			   model(c)->first_seq,
			   ts_text(model(c)->first_ts).s);
	if (th->clock != OW_TH_CLOCK_NONE) {
		unsigned long long took = since(th->clock_ts, ev->ts_ns);

		if (sat_add(took, TOLERANCE_NS) < timeout * NS_PER_MS)
			add_reason(why, sizeof(why), "only %s ms after %s seq %llu at %s, before timeout %lld ms (tolerance %d ms)",
				   ms_text(took).s, clock_name(th->clock),
				   th->clock_seq, ts_text(th->clock_ts).s,
				   timeout, OW_JIFFY_TOLERANCE_MS);
		if (disagree(claim_ns, took))
			add_reason(why, sizeof(why), "it claims %u ms thrashing, the record shows %s ms since %s seq %llu (tolerance %d ms)",
				   claim, ms_text(took).s,
				   clock_name(th->clock), th->clock_seq,
				   OW_JIFFY_TOLERANCE_MS);
	}
	if (why[0])
		violation(c, OW_INV_THRASH_TIMER, ev->seq, ev->ts_ns,
			  "oom_thrash_grant seq %llu at %s on node %d: %s",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->thrash_grant.nid, why);
}

/* A clear's duration_ms against its recorded set, as for unreclaimable. */
static void check_thrash_clear(struct ow_checker *c,
			       const struct oomwatch_event *ev)
{
	const struct ow_ep_thrash *th = &model(c)->step.thrash;
	unsigned long long claim = ev->thrash.duration_ms * NS_PER_MS;
	unsigned long long took;

	if (th->state != OW_TH_ON)
		return;
	took = since(th->state_ts, ev->ts_ns);
	if (disagree(claim, took))
		violation(c, OW_INV_THRASH_TIMER, ev->seq, ev->ts_ns,
			  "thrashing_clear seq %llu at %s on node %d (%s): it claims %u ms thrashing, the record shows %s ms since thrashing_set seq %llu (tolerance %d ms)",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->thrash.nid,
			  ow_thrash_clear_reason_name(ev->thrash.reason),
			  ev->thrash.duration_ms, ms_text(took).s,
			  th->state_seq, OW_JIFFY_TOLERANCE_MS);
}

bool ow_swap_cannot_help(__u64 free, __u64 total)
{
	/* free * 32 < total: free < total / 32, rounded up */
	return !total || free < total / 32 + (total % 32 != 0);
}

/*
 * The grant's last window, as the kernel judged it (format 4 and later:
 * a version 3 grant has window_ms 0 and no such evidence): a node that
 * thrashes stays so while the refaults a kill could end (near, a part of
 * the faulted refaults, themselves a part of all) come to more than a
 * quarter of what reclaim took, and both to half the floor of 4 MB a
 * second or more, in a window of at most 2 s (mm/oom_arbiter.c,
 * oom_arbiter_thrash_window()).  Pages of 4 KiB, as on x86-64.
 */
static void thrash_window_reasons(const struct oomwatch_event *ev, char *why,
				  size_t size)
{
	const unsigned long long floor_per_s = (4ULL << 20) / 4096;
	unsigned long long near = ev->thrash_grant.near;
	unsigned long long reclaimed = ev->thrash_grant.reclaimed;
	__u32 window = ev->thrash_grant.window_ms;
	unsigned long long floor = floor_per_s * window / 1000;

	if (!window)
		return;
	if (ow_thrash_window_paused(window))
		add_reason(why, size, "its last window lasted %u ms (reclaim paused: more than %d ms is never thrashing)",
			   window, 2 * OW_THRASH_WINDOW_MS);
	if (near > ev->thrash_grant.faulted ||
	    ev->thrash_grant.faulted > ev->thrash_grant.refaulted)
		add_reason(why, size, "its counts do not nest: near %llu <= faulted %llu <= refaulted %llu",
			   near, (unsigned long long)ev->thrash_grant.faulted,
			   (unsigned long long)ev->thrash_grant.refaulted);
	if (near * 4 <= reclaimed || near * 2 < floor || reclaimed * 2 < floor)
		add_reason(why, size, "its last window did not thrash: %llu near refaults against %llu pages reclaimed in %u ms (the rule wants near > reclaimed / 4, both >= %llu)",
			   near, reclaimed, window, (floor + 1) / 2);
}

static void check_thrash_rule(struct ow_checker *c,
			      const struct oomwatch_event *ev)
{
	const struct ow_ep_step *st = &model(c)->step;
	const struct ow_ep_thrash *th = &st->thrash;
	__u64 free = ev->thrash_grant.swap_free;
	__u64 total = ev->thrash_grant.swap_total;
	char why[400] = "";

	if (th->state == OW_TH_OFF)
		add_reason(why, sizeof(why), "the node is not thrashing: thrashing_clear seq %llu at %s, no thrashing_set since",
			   th->state_seq, ts_text(th->state_ts).s);
	if (!ow_swap_cannot_help(free, total))
		add_reason(why, sizeof(why), "swap can help: %llu of %llu pages free (the rule wants no swap, or less than 1/32 of it free)",
			   (unsigned long long)free, (unsigned long long)total);
	if (st->victim_alive)
		add_reason(why, sizeof(why), "victim pid %u (%s) of mark_victim seq %llu is alive",
			   st->alive.pid, comm_text(st->alive.comm).s,
			   st->alive.seq);
	thrash_window_reasons(ev, why, sizeof(why));
	if (why[0])
		violation(c, OW_INV_THRASH_RULE, ev->seq, ev->ts_ns,
			  "oom_thrash_grant seq %llu at %s on node %d breaks the thrash rule: %s",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->thrash_grant.nid, why);
}

static void check_second_grant(struct ow_checker *c,
			       const struct oomwatch_event *ev)
{
	const struct ow_ep_thrash *th = &model(c)->step.thrash;

	if (th->granted)
		violation(c, OW_INV_ONE_TAKE_PER_GRANT, ev->seq, ev->ts_ns,
			  "oom_thrash_grant seq %llu at %s on node %d while the thrash grant seq %llu at %s on that node is neither taken nor dropped (by a thrashing_clear or a mark_victim)",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->thrash_grant.nid, th->grant_seq,
			  ts_text(th->grant_ts).s);
}

/* A node nothing thrash-related was recorded of may hold an older grant. */
static void check_take(struct ow_checker *c, const struct oomwatch_event *ev)
{
	const struct ow_ep_thrash *th = &model(c)->step.thrash;

	if (!th->seen || th->granted)
		return;
	violation(c, OW_INV_ONE_TAKE_PER_GRANT, ev->seq, ev->ts_ns,
		  "oom_thrash_take seq %llu at %s by pid %u (%s) on node %d with no thrash grant outstanding on that node",
		  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
		  ev->take.pid, comm_text(ev->take.comm).s, ev->take.nid);
}

static void apply_thrash(struct ow_checker *c, const struct oomwatch_event *ev)
{
	switch (ev->type) {
	case OW_THRASH_GRANT:
		if (c->enabled[OW_INV_THRASH_TIMER])
			check_thrash_timer(c, ev);
		if (c->enabled[OW_INV_THRASH_RULE])
			check_thrash_rule(c, ev);
		if (c->enabled[OW_INV_ONE_TAKE_PER_GRANT])
			check_second_grant(c, ev);
		break;
	case OW_THRASH_TAKE:
		if (c->enabled[OW_INV_ONE_TAKE_PER_GRANT])
			check_take(c, ev);
		break;
	case OW_THRASHING_CLEAR:
		if (c->enabled[OW_INV_THRASH_TIMER])
			check_thrash_clear(c, ev);
		break;
	default:
		break;
	}
}

/* ------------------------------------------------ verdicts_name_waiters */

/*
 * kswapd names the oldest request on its node's waiters list: one the
 * record has there (waiting, or settled and not yet gone), or one that
 * may have begun before the recording, while it could still be waiting.
 */
static void check_named(struct ow_checker *c, const struct oomwatch_event *ev,
			__u32 pid, __s32 nid)
{
	const struct ow_episodes *m = model(c);
	const struct ow_ep_step *st = &m->step;
	char why[200];

	switch (st->named) {
	case OW_NAMED_WAITER:
		return;
	case OW_NAMED_UNSEEN:
		if (!c->enabled[OW_INV_LIVENESS] ||
		    since(m->first_ts, ev->ts_ns) <= c->liveness_ns)
			return;
		snprintf(why, sizeof(why), "no request of it was recorded, and the recording began at seq %llu at %s, longer ago than a request waits (%llu ms)",
			 m->first_seq, ts_text(m->first_ts).s,
			 c->liveness_ns / NS_PER_MS);
		break;
	case OW_NAMED_ENDED:
		snprintf(why, sizeof(why), "its request had ended");
		break;
	case OW_NAMED_ELSEWHERE:
		snprintf(why, sizeof(why), "its oom_request seq %llu waits on node %d",
			 st->elsewhere.seq, st->elsewhere.nid);
		break;
	default:
		snprintf(why, sizeof(why), "pid 0 is no request");
		break;
	}
	violation(c, OW_INV_VERDICTS_NAME_WAITERS, ev->seq, ev->ts_ns,
		  "%s seq %llu at %s on node %d names pid %u, not waiting on that node: %s",
		  tname(ev->type), (unsigned long long)ev->seq,
		  ts_text(ev->ts_ns).s, nid, pid, why);
}

/* -------------------------------------------------------------- driver */

static void apply(struct ow_checker *c, const struct oomwatch_event *ev)
{
	switch (ev->type) {
	case OW_MARK_VICTIM:
		on_kill(c, ev);
		break;
	case OW_OOM_GRANT:
		if (c->enabled[OW_INV_VERDICTS_NAME_WAITERS])
			check_named(c, ev, ev->grant.pid, ev->grant.nid);
		if (c->enabled[OW_INV_NO_KILL_WITHOUT_GRANT])
			check_evidence(c, ev);
		if (c->enabled[OW_INV_ONE_KILL_PER_EPISODE])
			check_episode(c, ev);
		break;
	case OW_OOM_DEFER:
		if (c->enabled[OW_INV_VERDICTS_NAME_WAITERS])
			check_named(c, ev, ev->request.pid, ev->request.nid);
		break;
	case OW_UNRECLAIMABLE_SET:
		if (model(c)->step.set_new)
			token_episode_begins(c, ev->unrecl.nid);
		break;
	case OW_UNRECLAIMABLE_CLEAR:
		check_clear(c, ev);
		break;
	case OW_TOKEN_KEPT:
		on_kept(c, ev);
		break;
	case OW_TOKEN_GRAB:
	case OW_TOKEN_RELEASE:
		on_token_moved(c, ev);
		break;
	case OW_TOKEN_BYPASS:
		on_bypass(c, ev);
		break;
	default:
		apply_thrash(c, ev);
		break;
	}
}

void ow_checker_feed(struct ow_checker *c, const struct oomwatch_event *ev)
{
	if (c->finished)
		return;
	ow_ep_ref_feed(&c->ep, ev, NULL);
	c->events++;
	check_seq(c, ev);
	check_cpu_ts(c, ev);
	if (ev->ts_ns > c->max_ts)
		c->max_ts = ev->ts_ns;
	check_nomem(c, ev);
	if (c->enabled[OW_INV_LIVENESS]) {
		check_ended(c, ev);
		expire_requests(c, ev->ts_ns, ev);
		note_request(c);
	}
	note_nodes(c, ev);
	expire_nodes(c, ev->ts_ns, ev);
	apply(c, ev);
}

void ow_checker_finish(struct ow_checker *c, unsigned long long now_ns)
{
	struct ow_episodes *m = model(c);

	if (c->finished)
		return;
	if (now_ns < c->max_ts)
		now_ns = c->max_ts;
	check_nomem(c, NULL);
	if (c->enabled[OW_INV_LIVENESS]) {
		expire_requests(c, now_ns, NULL);
		for (size_t i = 0; i < m->nr_req; i++)
			c->pending += m->req[i].used && !m->req[i].settled &&
				      !(m->req[i].marks & OW_MARK_LATE);
	}
	expire_nodes(c, now_ns, NULL);
	c->finished = true;
}

unsigned long ow_checker_violations(const struct ow_checker *c, int inv)
{
	return inv >= 0 && inv <= OW_NR_INVARIANTS ? c->nr_violations[inv] : 0;
}

bool ow_checker_enabled(const struct ow_checker *c, int inv)
{
	return inv >= 1 && inv <= OW_NR_INVARIANTS && c->enabled[inv];
}

unsigned int ow_checker_pending(const struct ow_checker *c)
{
	return c->pending;
}

// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: the invariant checker; checker.h states the rules.
 *
 * Each rule is a small state machine moved by ow_checker_feed().  Time
 * bounds (liveness, timer_works) are checked against every new event's
 * timestamp before the event is applied: a verdict that comes too late is
 * reported as late rather than taken as a resolution, and a state that is
 * never resolved is reported as soon as the record shows time has passed,
 * not only at the end.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdarg.h>
#include <stdio.h>		/* vsnprintf: the only stdio used */
#include <string.h>
#include "checker.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PRINTF(f, a)	__attribute__((format(printf, f, a)))
#define NS_PER_MS	1000000ULL

/* one_kill_per_episode: where the latest grant stands. */
enum {
	EP_NONE,	/* no grant pending: the next one is fine */
	EP_GRANTED,	/* granted, its victim not chosen yet */
	EP_VICTIM,	/* its victim chosen and still alive */
};

static const char *const inv_names[OW_NR_INVARIANTS + 1] = {
	[OW_INV_NO_KILL_WITHOUT_GRANT]	= "no_kill_without_grant",
	[OW_INV_ONE_KILL_PER_EPISODE]	= "one_kill_per_episode",
	[OW_INV_LIVENESS]		= "liveness",
	[OW_INV_TOKEN_YIELDS]		= "token_yields",
	[OW_INV_TIMER_WORKS]		= "timer_works",
	[OW_INV_RECORD_WHOLE]		= "record_whole",
};

const char *ow_invariant_name(int inv)
{
	return inv >= 1 && inv <= OW_NR_INVARIANTS ? inv_names[inv] : NULL;
}

bool ow_kill_is_global(const struct oomwatch_event *ev)
{
	return ev->type == OW_MARK_VICTIM &&
	       ev->victim.constraint != OW_CONSTRAINT_MEMCG &&
	       ev->victim.constraint != OW_CONSTRAINT_SYSRQ;
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

static struct text ts_text(unsigned long long ns)
{
	struct text t;

	snprintf(t.s, sizeof(t.s), "%llu.%06llus", ns / 1000000000ULL,
		 ns % 1000000000ULL / 1000);
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

static unsigned long long sat_add(unsigned long long a, unsigned long long b)
{
	return a + b < a ? ~0ULL : a + b;
}

/* ------------------------------------------------------------- set-up */

void ow_checker_init(struct ow_checker *c, const struct ow_config *cfg,
		     const struct ow_check_opts *opts)
{
	long long timeout, fallback, slack, period;
	bool arbiter;

	memset(c, 0, sizeof(*c));
	if (cfg)
		c->cfg = *cfg;
	else
		ow_config_unknown(&c->cfg);
	if (opts)
		c->opts = *opts;
	else
		ow_check_opts_default(&c->opts);

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

	if (c->enabled[OW_INV_LIVENESS])
		c->liveness_ns = (timeout + fallback + slack) * NS_PER_MS;
	if (c->enabled[OW_INV_TIMER_WORKS])
		c->timer_ns = (timeout + period + slack) * NS_PER_MS;
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

/*
 * The newest timestamp per CPU is replaced even after a violation, so one
 * stray event yields one violation rather than one per later event.
 */
static void check_cpu_ts(struct ow_checker *c, const struct oomwatch_event *ev)
{
	unsigned int cpu = ev->cpu;

	if (cpu >= OW_CHECK_MAX_CPUS)
		return;
	if (c->cpu_seen[cpu] && ev->ts_ns < c->cpu_ts[cpu])
		violation(c, OW_INV_RECORD_WHOLE, ev->seq, ev->ts_ns,
			  "%s seq %llu on cpu %u at %s is earlier than seq %llu at %s on the same cpu",
			  tname(ev->type), (unsigned long long)ev->seq, cpu,
			  ts_text(ev->ts_ns).s, c->cpu_seq[cpu],
			  ts_text(c->cpu_ts[cpu]).s);
	c->cpu_seen[cpu] = true;
	c->cpu_ts[cpu] = ev->ts_ns;
	c->cpu_seq[cpu] = ev->seq;
}

void ow_checker_lost(struct ow_checker *c, unsigned long long count)
{
	if (!count || c->finished)
		return;
	c->lost = sat_add(c->lost, count);
	violation(c, OW_INV_RECORD_WHOLE, OW_NO_SEQ, 0,
		  "%llu events lost: the ring buffer was full", count);
}

/* ------------------------------------------------------------ liveness */

static int find_request(const struct ow_checker *c, __u32 pid)
{
	for (unsigned int i = 0; i < c->nr_req; i++)
		if (c->req[i].pid == pid)
			return i;
	return -1;
}

/* Keeps the table in request order, so reports come in that order too. */
static void drop_request(struct ow_checker *c, unsigned int i)
{
	memmove(&c->req[i], &c->req[i + 1],
		(c->nr_req - i - 1) * sizeof(c->req[0]));
	c->nr_req--;
}

static void resolve_request(struct ow_checker *c, __u32 pid)
{
	int i = find_request(c, pid);

	if (i >= 0)
		drop_request(c, i);
}

/*
 * A grant settles every request waiting on its node, not only the one it
 * names: the first waiter to take oom_lock consumes it, the others are
 * told the episode is open (oom_veto episode_open) and stop waiting.
 */
static void resolve_node(struct ow_checker *c, __s32 nid)
{
	unsigned int i = 0;

	while (i < c->nr_req) {
		if (c->req[i].nid == nid)
			drop_request(c, i);
		else
			i++;
	}
}

/*
 * A task that asks again while its first request is open keeps the first
 * deadline: the bound is on how long it waits in all.
 */
static void open_request(struct ow_checker *c, const struct oomwatch_event *ev)
{
	struct ow_open_request *r;

	if (!c->enabled[OW_INV_LIVENESS] || find_request(c, ev->request.pid) >= 0)
		return;
	if (c->nr_req == OW_CHECK_MAX_REQUESTS) {
		c->untracked_requests++;
		return;
	}
	r = &c->req[c->nr_req++];
	r->pid = ev->request.pid;
	r->nid = ev->request.nid;
	memcpy(r->comm, ev->request.comm, sizeof(r->comm));
	r->seq = ev->seq;
	r->ts_ns = ev->ts_ns;
	r->deadline_ns = sat_add(ev->ts_ns, c->liveness_ns);
}

/* by: the event whose timestamp shows the deadline passed; NULL at end. */
static void expire_requests(struct ow_checker *c, unsigned long long now,
			    const struct oomwatch_event *by)
{
	unsigned int i = 0;

	while (i < c->nr_req) {
		const struct ow_open_request *r = &c->req[i];

		if (now <= r->deadline_ns) {
			i++;
			continue;
		}
		if (by)
			violation(c, OW_INV_LIVENESS, r->seq, r->ts_ns,
				  "oom_request seq %llu at %s by pid %u (%s) not resolved within %llu ms: deadline %s passed at %s seq %llu (%s)",
				  r->seq, ts_text(r->ts_ns).s, r->pid,
				  comm_text(r->comm).s,
				  c->liveness_ns / NS_PER_MS,
				  ts_text(r->deadline_ns).s, tname(by->type),
				  (unsigned long long)by->seq,
				  ts_text(by->ts_ns).s);
		else
			violation(c, OW_INV_LIVENESS, r->seq, r->ts_ns,
				  "oom_request seq %llu at %s by pid %u (%s) not resolved within %llu ms: still open at the end (%s)",
				  r->seq, ts_text(r->ts_ns).s, r->pid,
				  comm_text(r->comm).s,
				  c->liveness_ns / NS_PER_MS, ts_text(now).s);
		drop_request(c, i);
	}
}

/* --------------------------------------------------------- timer_works */

static struct ow_node_state *node_of(struct ow_checker *c, __s32 nid)
{
	return nid >= 0 && nid < OW_CHECK_MAX_NODES ? &c->node[nid] : NULL;
}

static void expire_nodes(struct ow_checker *c, unsigned long long now,
			 const struct oomwatch_event *by)
{
	for (int nid = 0; nid < OW_CHECK_MAX_NODES; nid++) {
		struct ow_node_state *n = &c->node[nid];

		if (!n->set || n->late || now <= n->deadline_ns)
			continue;
		n->late = true;
		if (by)
			violation(c, OW_INV_TIMER_WORKS, n->seq, n->ts_ns,
				  "unreclaimable_set seq %llu at %s on node %d not cleared within %llu ms: deadline %s passed at %s seq %llu (%s)",
				  n->seq, ts_text(n->ts_ns).s, nid,
				  c->timer_ns / NS_PER_MS,
				  ts_text(n->deadline_ns).s, tname(by->type),
				  (unsigned long long)by->seq,
				  ts_text(by->ts_ns).s);
		else
			violation(c, OW_INV_TIMER_WORKS, n->seq, n->ts_ns,
				  "unreclaimable_set seq %llu at %s on node %d not cleared within %llu ms: still set at the end (%s)",
				  n->seq, ts_text(n->ts_ns).s, nid,
				  c->timer_ns / NS_PER_MS, ts_text(now).s);
	}
}

/*
 * token_yields: the node reclaim gave up on starts the episode afresh.
 * What the token kept before is not why a kill follows, if reclaim on
 * that node stopped keeping anything from here on; a kept pass that
 * still matters shows up again after the set.  A kept pass on another
 * node stays outstanding.
 */
static void token_episode_begins(struct ow_checker *c, int nid)
{
	if (c->kept && c->kept_nid != nid)
		return;
	c->kept = false;
	c->bypassed = false;
}

static void on_unrecl_set(struct ow_checker *c, const struct oomwatch_event *ev)
{
	struct ow_node_state *n = node_of(c, ev->unrecl.nid);

	if (!n || !n->set)
		token_episode_begins(c, ev->unrecl.nid);

	/* A second set without a clear: the state began at the first. */
	if (!c->enabled[OW_INV_TIMER_WORKS] || !n || n->set)
		return;
	n->set = true;
	n->late = false;
	n->seq = ev->seq;
	n->ts_ns = ev->ts_ns;
	n->deadline_ns = sat_add(ev->ts_ns, c->timer_ns);
}

static bool is_recovery(const struct oomwatch_event *ev)
{
	return ev->unrecl.reason == OW_CLEAR_PROGRESS ||
	       ev->unrecl.reason == OW_CLEAR_FREED;
}

static void on_unrecl_clear(struct ow_checker *c,
			    const struct oomwatch_event *ev)
{
	struct ow_node_state *n = node_of(c, ev->unrecl.nid);
	long long timeout = c->cfg.oom_unreclaimable_timeout_ms;
	long long slack = c->opts.slack_ms;

	if (c->enabled[OW_INV_TIMER_WORKS]) {
		if (ev->unrecl.reason == OW_CLEAR_TIMEOUT &&
		    (long long)ev->unrecl.duration_ms < timeout - slack)
			violation(c, OW_INV_TIMER_WORKS, ev->seq, ev->ts_ns,
				  "unreclaimable_clear seq %llu at %s on node %d by the timer after %u ms, before timeout %lld ms - slack %lld ms",
				  (unsigned long long)ev->seq,
				  ts_text(ev->ts_ns).s, ev->unrecl.nid,
				  ev->unrecl.duration_ms, timeout, slack);
		if (n)
			n->set = false;
	}
	if (is_recovery(ev)) {
		/* Memory came back: waiting tasks and the episode are done. */
		c->nr_req = 0;
		c->ep = EP_NONE;
	}
}

/* ------------------------------------ no_kill_without_grant, episodes */

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

static void check_evidence(struct ow_checker *c,
			   const struct oomwatch_event *ev)
{
	int timeout = c->cfg.oom_unreclaimable_timeout_ms;
	__u32 nr = ev->grant.nr_zones;
	char why[320] = "";

	if (timeout >= 0 && ev->grant.unreclaimable_ms < (__u32)timeout)
		add_reason(why, sizeof(why), "unreclaimable for %u ms < timeout %d ms",
			   ev->grant.unreclaimable_ms, timeout);
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
	if (c->ep == EP_GRANTED)
		violation(c, OW_INV_ONE_KILL_PER_EPISODE, ev->seq, ev->ts_ns,
			  "oom_grant seq %llu at %s for pid %u while the grant seq %llu for pid %u has neither killed nor seen memory recover",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->grant.pid, c->ep_grant_seq, c->ep_grant_pid);
	else if (c->ep == EP_VICTIM)
		violation(c, OW_INV_ONE_KILL_PER_EPISODE, ev->seq, ev->ts_ns,
			  "oom_grant seq %llu at %s for pid %u while victim pid %u (%s) of the grant seq %llu lives and memory has not recovered",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->grant.pid, c->ep_victim,
			  comm_text(c->ep_victim_comm).s, c->ep_grant_seq);
	c->ep = EP_GRANTED;
	c->ep_grant_seq = ev->seq;
	c->ep_grant_pid = ev->grant.pid;
	c->ep_grant_nid = ev->grant.nid;
}

static void on_grant(struct ow_checker *c, const struct oomwatch_event *ev)
{
	resolve_request(c, ev->grant.pid);
	resolve_node(c, ev->grant.nid);
	if (c->enabled[OW_INV_NO_KILL_WITHOUT_GRANT])
		check_evidence(c, ev);
	if (c->enabled[OW_INV_ONE_KILL_PER_EPISODE])
		check_episode(c, ev);
	c->permit = true;
}

/*
 * Every veto ends its request's wait.  episode_open only says another
 * waiter took the grant, which may still kill; any other veto on the
 * grant's node (alloc_ok: the taker's last attempt succeeded; recovered:
 * reclaim made progress) means the pending grant kills nobody.
 */
static void on_veto(struct ow_checker *c, const struct oomwatch_event *ev)
{
	resolve_request(c, ev->request.pid);
	if (ev->request.reason == OW_RULE_EPISODE_OPEN || c->ep != EP_GRANTED)
		return;
	if (ev->request.pid == c->ep_grant_pid ||
	    ev->request.nid == c->ep_grant_nid)
		c->ep = EP_NONE;
}

static void on_kill(struct ow_checker *c, const struct oomwatch_event *ev)
{
	const char *comm = ev->victim.comm;

	/* A requester that is itself killed waits no more. */
	resolve_request(c, ev->victim.pid);
	if (!ow_kill_is_global(ev))
		return;
	if (c->enabled[OW_INV_NO_KILL_WITHOUT_GRANT] && !c->permit)
		violation(c, OW_INV_NO_KILL_WITHOUT_GRANT, ev->seq, ev->ts_ns,
			  "mark_victim seq %llu at %s killed pid %u (%s) with no oom_grant or oom_fallback since the last kill",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->victim.pid, comm_text(comm).s);
	if (c->enabled[OW_INV_TOKEN_YIELDS] && c->kept && !c->bypassed)
		violation(c, OW_INV_TOKEN_YIELDS, ev->seq, ev->ts_ns,
			  "mark_victim seq %llu at %s killed pid %u (%s) while the swap token protected %llu folios (swap_token_kept seq %llu) and no swap_token_bypass happened in this episode",
			  (unsigned long long)ev->seq, ts_text(ev->ts_ns).s,
			  ev->victim.pid, comm_text(comm).s, c->kept_folios,
			  c->kept_seq);
	if (c->ep == EP_GRANTED) {
		c->ep = EP_VICTIM;
		c->ep_victim = ev->victim.pid;
		memcpy(c->ep_victim_comm, comm, sizeof(c->ep_victim_comm));
	}
	/* A new episode starts: permission and token history are spent. */
	c->permit = false;
	c->kept = false;
	c->bypassed = false;
}

/*
 * The token left the holder a kept pass protected: its folios age like
 * anybody's again, so that pass is no longer a reason for a kill.
 */
static void on_token_moved(struct ow_checker *c,
			   const struct oomwatch_event *ev)
{
	if (!c->kept)
		return;
	if (ev->type == OW_TOKEN_RELEASE ? ev->token.tgid == c->kept_holder
					 : ev->token.tgid != c->kept_holder)
		c->kept = false;
}

static void on_victim_gone(struct ow_checker *c, __u32 pid, __u32 tgid)
{
	if (c->ep == EP_VICTIM && (pid == c->ep_victim || tgid == c->ep_victim))
		c->ep = EP_NONE;
}

/* -------------------------------------------------------------- driver */

static void apply(struct ow_checker *c, const struct oomwatch_event *ev)
{
	switch (ev->type) {
	case OW_MARK_VICTIM:
		on_kill(c, ev);
		break;
	case OW_OOM_REQUEST:
		open_request(c, ev);
		break;
	case OW_OOM_GRANT:
		on_grant(c, ev);
		break;
	case OW_OOM_FALLBACK:
		resolve_request(c, ev->request.pid);
		c->permit = true;
		break;
	case OW_OOM_VETO:
		on_veto(c, ev);
		break;
	case OW_UNRECLAIMABLE_SET:
		on_unrecl_set(c, ev);
		break;
	case OW_UNRECLAIMABLE_CLEAR:
		on_unrecl_clear(c, ev);
		break;
	case OW_TOKEN_KEPT:
		if (ev->token_pass.nr_folios) {
			c->kept = true;
			c->kept_seq = ev->seq;
			c->kept_folios = ev->token_pass.nr_folios;
			c->kept_holder = ev->token_pass.holder_tgid;
			c->kept_nid = ev->token_pass.nid;
		}
		break;
	case OW_TOKEN_GRAB:
	case OW_TOKEN_RELEASE:
		on_token_moved(c, ev);
		break;
	case OW_TOKEN_BYPASS:
		c->bypassed = true;
		break;
	case OW_TASK_EXIT:
		resolve_request(c, ev->exit.pid);
		on_victim_gone(c, ev->exit.pid, ev->exit.tgid);
		break;
	case OW_FINISH_REAPING:
		on_victim_gone(c, ev->reaper.pid, ev->reaper.pid);
		break;
	default:
		break;
	}
}

void ow_checker_feed(struct ow_checker *c, const struct oomwatch_event *ev)
{
	if (c->finished)
		return;
	c->events++;
	check_seq(c, ev);
	check_cpu_ts(c, ev);
	if (ev->ts_ns > c->max_ts)
		c->max_ts = ev->ts_ns;
	expire_requests(c, ev->ts_ns, ev);
	expire_nodes(c, ev->ts_ns, ev);
	apply(c, ev);
}

void ow_checker_finish(struct ow_checker *c, unsigned long long now_ns)
{
	if (c->finished)
		return;
	if (now_ns < c->max_ts)
		now_ns = c->max_ts;
	expire_requests(c, now_ns, NULL);
	expire_nodes(c, now_ns, NULL);
	c->pending = c->nr_req;
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

// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: the human timeline; output.h lists its lines.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <string.h>
#include <time.h>
#include "output.h"

#define NS_PER_MS	1000000ULL
#define NS_PER_S	1000000000ULL

void ow_out_init(struct ow_out *o, const struct ow_out_opts *opts,
		 struct ow_episodes *shared)
{
	memset(o, 0, sizeof(*o));
	o->o = *opts;
	ow_ep_ref_init(&o->ep, shared);
}

void ow_out_free(struct ow_out *o)
{
	ow_ep_ref_free(&o->ep);
}

/* ------------------------------------------------------------- words */

/*
 * Returned by value: each lives until the end of the printf that uses
 * it.  Three sizes, so that one can hold the others it is built from.
 */
struct ctext {
	char s[72];		/* an escaped comm (16 bytes, 4 each) */
};

struct ttext {
	char s[96];		/* comm[pid] */
};

/* "memcg PATH (ID)": a path escaped, 4 bytes per byte at most */
struct mtext {
	char s[OW_MEMCG_PATH_MAX * 4 + 48];
};

struct text {
	char s[sizeof(struct ttext) + sizeof(struct mtext)];
};				/* comm[pid] memcg N, and the like */
_Static_assert(sizeof(struct ctext) >= OW_COMM_PRINTABLE_SIZE, "comm_text");

/* comm can hold any byte: the timeline stays one printable line. */
static struct ctext comm_text(const char *comm)
{
	struct ctext t;

	ow_comm_printable(t.s, sizeof(t.s), comm);
	return t;
}

/* "comm[pid]", the way ps and the kernel log name a task */
static struct ttext task(const char *comm, __u32 pid)
{
	struct ttext t;

	snprintf(t.s, sizeof(t.s), "%s[%u]", comm_text(comm).s, pid);
	return t;
}

/*
 * "memcg /job/a (4100)" when the run named the id's path (a memcg line),
 * else "memcg 4100".  A path can hold any byte but '/' and NUL.
 */
static struct mtext memcg_id_text(const struct ow_out *o, __u64 id)
{
	const char *path = o->o.paths ? ow_memcg_path_of(o->o.paths, id) :
			   NULL;
	struct mtext t;
	size_t n;

	if (!path) {
		snprintf(t.s, sizeof(t.s), "memcg %llu", (unsigned long long)id);
		return t;
	}
	n = snprintf(t.s, sizeof(t.s), "memcg ");
	n += ow_bytes_printable(t.s + n, sizeof(t.s) - n, path, strlen(path));
	snprintf(t.s + n, sizeof(t.s) - n, " (%llu)", (unsigned long long)id);
	return t;
}

/* The requester's memcg, "memcg ?" when not known. */
static struct mtext memcg_text(const struct ow_out *o,
			       const struct ow_requester *who)
{
	struct mtext t;

	if (who && who->known)
		return memcg_id_text(o, who->memcg_id);
	snprintf(t.s, sizeof(t.s), "memcg ?");
	return t;
}

static unsigned long long ms_between(unsigned long long from,
				     unsigned long long to)
{
	return to > from ? (to - from) / NS_PER_MS : 0;
}

/*
 * A fallback at once, not past the bound: because of the request's own
 * context, or (the thrash rule on) a node nothing can relieve.
 */
static bool ow_stock_reason(unsigned int r)
{
	return (r >= OW_STOCK_DYING && r <= OW_STOCK_FREEZING) ||
	       r == OW_STOCK_NO_RELIEF;
}

/* The arbiter's rule, condition by condition (oom_defer's reason). */
static const char *rule_text(unsigned int r)
{
	switch (r) {
	case OW_RULE_OK:
		return "the rule holds";
	case OW_RULE_NOT_UNRECLAIMABLE:
		return "the node is not unreclaimable";
	case OW_RULE_TOO_SOON:
		return "unreclaimable for less than the timeout";
	case OW_RULE_NO_FULL_SCAN:
		return "no full scan of the low zones since it became unreclaimable";
	case OW_RULE_PROGRESS:
		return "the last full scan reclaimed low-zone pages";
	case OW_RULE_ABOVE_MIN:
		return "a low zone is above its min watermark";
	case OW_RULE_NOBODY_LOOPING:
		return "no task is looping on an OOM";
	case OW_RULE_EPISODE_OPEN:
		return "a victim of this episode still lives";
	default:
		return "condition not known to this oomwatch";
	}
}

static const char *veto_text(unsigned int r)
{
	switch (r) {
	case OW_RULE_EPISODE_OPEN:
		return "another request on the node took the grant";
	case OW_VETO_ALLOC_OK:
		return "its last allocation attempt succeeded: no kill";
	case OW_VETO_RECOVERED:
		return "reclaim made progress: it retries";
	case OW_VETO_NOT_QUALIFIED:
		return "stock semantics apply";
	case OW_STOCK_DYING:
		return "the task is dying: out_of_memory() gives it the reserves";
	case OW_STOCK_NOFAIL:
		return "__GFP_NOFAIL: stock semantics";
	case OW_STOCK_NOFS:
		return "no __GFP_FS (NOFS/NOIO): stock semantics, no wait";
	case OW_STOCK_DISABLED:
		return "the arbiter was switched off";
	case OW_STOCK_FREEZING:
		return "the system is freezing (suspend): stock semantics, no wait";
	case OW_STOCK_NO_RELIEF:
		return "no swap and no writeback can relieve the node: "
		       "stock semantics, no wait";
	case OW_THRASH_NO_VICTIM:
		return "the thrash kill found no task to kill: the grant is "
		       "dropped, no panic";
	default:
		return rule_text(r);
	}
}

/* ------------------------------------------------------------- lines */

static void prefix(struct ow_out *o, unsigned long long ts, const char *tag)
{
	FILE *f = o->o.f;

	if (o->o.clock == OW_CLOCK_WALL) {
		long long ns = (long long)ts + o->o.wall_offset_ns;
		time_t sec = ns / (long long)NS_PER_S;
		char buf[16] = "??:??:??";
		struct tm tm;

		if (ns >= 0 && localtime_r(&sec, &tm))
			strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
		fprintf(f, "%s.%03lld ", buf,
			ns >= 0 ? ns % (long long)NS_PER_S / 1000000 : 0);
	} else if (o->o.clock == OW_CLOCK_RELATIVE) {
		unsigned long long rel = ts > o->t0 ? ts - o->t0 : 0;

		fprintf(f, "+%6llu.%03llu ", rel / NS_PER_S,
			rel % NS_PER_S / NS_PER_MS);
	}
	fprintf(f, "%6llu.%06llu %-13s ", ts / NS_PER_S,
		ts % NS_PER_S / 1000, tag);
}

void ow_out_columns(struct ow_out *o)
{
	if (o->o.clock == OW_CLOCK_WALL)
		fprintf(o->o.f, "%-12s ", "WALL");
	else if (o->o.clock == OW_CLOCK_RELATIVE)
		fprintf(o->o.f, "%-11s ", "+TIME(s)");
	fprintf(o->o.f, "%-13s %-13s %s\n", "TIME(s)", "EVENT", "DETAILS");
}

/*
 * Stamped with the time it became known (the event just printed), so the
 * timeline stays in order; the message names the event that broke it.
 */
void ow_out_violation(struct ow_out *o, const struct ow_violation *v)
{
	prefix(o, o->last_ts, "!!");
	fprintf(o->o.f, "%s\n", v->msg);
}

/* ---------------------------------------------------------- requests */

static struct ow_episodes *model(struct ow_out *o)
{
	return ow_ep_of(&o->ep);
}

/*
 * The request of pid as the model holds it, or as it was before this
 * event ended it (a veto, a fallback, a kill), or NULL.
 */
static const struct ow_ep_request *find_req(struct ow_out *o, __u32 pid)
{
	const struct ow_ep_request *r = ow_episodes_request(model(o), pid);
	const struct ow_ep_change *ch;

	if (r)
		return r;
	ch = ow_episodes_change(model(o), pid);
	return ch ? &ch->r : NULL;
}

/* Asking again while waiting keeps the first request's clock. */
static void on_request(struct ow_out *o, const struct oomwatch_event *ev,
		       const struct ow_requester *who, bool show)
{
	const char *comm = ev->request.comm;

	if (!show)
		return;
	prefix(o, ev->ts_ns, "REQUEST");
	fprintf(o->o.f, "%s %s asks for an OOM kill: node %d, order %d, "
		"gfp 0x%x; waits for kswapd's verdict (%u waiting on node %d)\n",
		task(comm, ev->request.pid).s, memcg_text(o, who).s,
		ev->request.nid, ev->request.order, ev->request.gfp_flags,
		ow_episodes_waiting_on(model(o), ev->request.nid),
		ev->request.nid);
}

/* "hog[200] memcg 4" from the request table, or what the event says. */
static struct text requester(struct ow_out *o,
			     const struct oomwatch_event *ev, __u32 pid)
{
	const struct ow_ep_request *r = find_req(o, pid);
	struct text t;

	if (r)
		snprintf(t.s, sizeof(t.s), "%s %s", task(r->comm, pid).s,
			 memcg_text(o, &r->who).s);
	else if (ev->type != OW_OOM_GRANT && ev->request.comm[0])
		snprintf(t.s, sizeof(t.s), "%s",
			 task(ev->request.comm, pid).s);
	else if (ev->pid == pid)	/* told in the task's own context */
		snprintf(t.s, sizeof(t.s), "%s", task(ev->comm, pid).s);
	else
		snprintf(t.s, sizeof(t.s), "pid %u", pid);
	return t;
}

/* lead: "waiting " or "after ", followed by how long it has waited. */
static struct text waited(struct ow_out *o, __u32 pid,
			  unsigned long long now, const char *lead)
{
	const struct ow_ep_request *r = find_req(o, pid);
	struct text t;

	if (r)
		snprintf(t.s, sizeof(t.s), "%s%llu ms", lead,
			 ms_between(r->ts_ns, now));
	else
		snprintf(t.s, sizeof(t.s), "request not seen");
	return t;
}

static void on_defer(struct ow_out *o, const struct oomwatch_event *ev,
		     bool show)
{
	unsigned int r = ev->request.reason;

	if (!show)
		return;
	prefix(o, ev->ts_ns, "DEFER");
	fprintf(o->o.f, "node %d, oldest request %s (%s): %s: %s",
		ev->request.nid, requester(o, ev, ev->request.pid).s,
		waited(o, ev->request.pid, ev->ts_ns, "waiting ").s,
		ow_verdict_reason_name(r), rule_text(r));
	if (r == OW_RULE_TOO_SOON &&
	    o->o.cfg.oom_unreclaimable_timeout_ms != OW_CONFIG_UNKNOWN)
		fprintf(o->o.f, " (%d ms)",
			o->o.cfg.oom_unreclaimable_timeout_ms);
	fputc('\n', o->o.f);
}

static void on_veto(struct ow_out *o, const struct oomwatch_event *ev,
		    bool show)
{
	unsigned int r = ev->request.reason;

	if (show) {
		prefix(o, ev->ts_ns, "VETO");
		fprintf(o->o.f, "%s on node %d, %s: %s: %s\n",
			requester(o, ev, ev->request.pid).s, ev->request.nid,
			waited(o, ev->request.pid, ev->ts_ns, "after ").s,
			ow_verdict_reason_name(r), veto_text(r));
	}
}

static void on_fallback(struct ow_out *o, const struct oomwatch_event *ev,
			bool show)
{
	unsigned int r = ev->request.reason;
	int bound = o->o.cfg.oom_arbiter_fallback_ms;

	if (show) {
		prefix(o, ev->ts_ns, "FALLBACK");
		fprintf(o->o.f, "%s on node %d after %u ms: ",
			requester(o, ev, ev->request.pid).s, ev->request.nid,
			ev->request.waited_ms);
		if (r == OW_VETO_NOT_QUALIFIED)
			fprintf(o->o.f, "not_qualified: __GFP_NOFAIL, a dying "
				"task or the arbiter off");
		else if (ow_stock_reason(r))
			fprintf(o->o.f, "%s: %s", ow_verdict_reason_name(r),
				veto_text(r));
		else if (bound != OW_CONFIG_UNKNOWN)
			fprintf(o->o.f, "waited past the bound (%d ms)", bound);
		else
			fprintf(o->o.f, "waited past the bound");
		if (r != OW_VETO_NOT_QUALIFIED && !ow_stock_reason(r) &&
		    r != OW_RULE_OK)
			fprintf(o->o.f, " while %s: %s",
				ow_verdict_reason_name(r), rule_text(r));
		fprintf(o->o.f, " -> stock OOM path\n");
	}
}

/* ------------------------------------------------------------- grant */

static void grant_evidence(struct ow_out *o, const struct oomwatch_event *ev)
{
	int timeout = o->o.cfg.oom_unreclaimable_timeout_ms;
	FILE *f = o->o.f;

	fprintf(f, "kswapd saw: unreclaimable %u ms",
		ev->grant.unreclaimable_ms);
	if (timeout != OW_CONFIG_UNKNOWN)
		fprintf(f, " (timeout %d)%s", timeout,
			timeout >= 0 && ev->grant.unreclaimable_ms <
			(__u32)timeout ? " (!)" : "");
	for (__u32 i = 0; i < ev->grant.nr_zones && i < OOMWATCH_MAX_ZONES;
	     i++) {
		const struct ow_zone_evidence *z = &ev->grant.zone[i];
		bool over = z->free > z->min;

		fprintf(f, ", low zone %u free %llu %s min %llu%s", i,
			(unsigned long long)z->free, over ? ">" : "<=",
			(unsigned long long)z->min, over ? " (!)" : "");
	}
	if (!ev->grant.nr_zones)
		fprintf(f, ", no zone evidence (!)");
	fprintf(f, ", %u looping%s, %llu pages reclaimed in the last full "
		"scan%s", ev->grant.looping, ev->grant.looping ? "" : " (!)",
		(unsigned long long)ev->grant.low_reclaimed,
		ev->grant.low_reclaimed ? " (!)" : "");
}

/* Every waiter on the node stops waiting: one will kill. */
static void on_grant(struct ow_out *o, const struct oomwatch_event *ev,
		     bool show)
{
	const struct ow_ep_step *st = &model(o)->step;
	unsigned int settles = 0;
	bool named = false;

	if (!show)
		return;
	for (size_t k = 0; k < st->nr_change; k++) {
		if (!st->change[k].ended || st->change[k].why != OW_END_GRANT)
			continue;
		settles++;
		named |= st->change[k].r.pid == ev->grant.pid;
	}
	prefix(o, ev->ts_ns, "GRANT");
	fprintf(o->o.f, "node %d, kill allowed: oldest request %s (%s), "
		"settles %u waiting request%s; ", ev->grant.nid,
		requester(o, ev, ev->grant.pid).s,
		waited(o, ev->grant.pid, ev->ts_ns, "waiting ").s,
		settles + !named, settles + !named == 1 ? "" : "s");
	grant_evidence(o, ev);
	fputc('\n', o->o.f);
}

/* -------------------------------------------------------------- kill */

static const char *kill_kind(unsigned int constraint)
{
	switch (constraint) {
	case OW_CONSTRAINT_GLOBAL:
		return "global OOM";
	case OW_CONSTRAINT_MEMCG:
		return "memcg OOM (the cgroup's limit, not the machine)";
	case OW_CONSTRAINT_SYSRQ:
		return "sysrq OOM (forced by sysrq-f)";
	case OW_CONSTRAINT_NODEMASK:
		return "OOM of an allocation bound to nodes (mempolicy or cpuset)";
	default:
		return "OOM of unknown context (out_of_memory() entry not seen)";
	}
}

/*
 * Shed context records may have held a later look of the allocator than
 * the one shown: say so, rather than pass an old look off as the last.
 */
static void shed_note(struct ow_out *o)
{
	if (o->shed)
		fprintf(o->o.f, " (%llu context record%s shed since the last "
			"kill, the ring half full: later looks may be missing)",
			o->shed, o->shed == 1 ? "" : "s");
}

/* Why the stock path killed: the allocator's last look at each zone. */
static void retry_evidence(struct ow_out *o)
{
	FILE *f = o->o.f;

	if (!o->nr_retry) {
		fprintf(f, "; no reclaim_retry_zone seen before it");
		shed_note(o);
		return;
	}
	fprintf(f, "; the allocator saw");
	for (unsigned int i = 0; i < o->nr_retry; i++) {
		const struct ow_out_retry *r = &o->retry[i];

		fprintf(f, "%s node %d zone %d available %llu %s min %llu, "
			"reclaimable %llu, %d retries without progress (%s)",
			i ? ";" : "", r->nid, r->zone_idx,
			(unsigned long long)r->available,
			r->available > r->min_wmark ? ">" : "<=",
			(unsigned long long)r->min_wmark,
			(unsigned long long)r->reclaimable, r->loops,
			task(r->comm, r->pid).s);
	}
	shed_note(o);
}

static void token_context(struct ow_out *o)
{
	if (!o->kept_folios && !o->bypasses)
		return;
	fprintf(o->o.f, "; swap token");
	if (o->holder)
		fprintf(o->o.f, " (held by %s)",
			task(o->holder_comm, o->holder).s);
	if (o->kept_folios)
		fprintf(o->o.f, " shielded up to %llu folios per pass",
			o->kept_folios);
	if (o->bypasses)
		fprintf(o->o.f, "%s bypassed %lu time%s", o->kept_folios ?
			"," : "", o->bypasses, o->bypasses == 1 ? "" : "s");
	else
		fprintf(o->o.f, ", never bypassed in this episode");
}

static void remember_victim(struct ow_out *o, const struct oomwatch_event *ev)
{
	struct ow_out_victim *v;

	v = &o->victim[o->nr_victim++ % OW_OUT_MAX_VICTIMS];
	v->pid = ev->victim.pid;
	memcpy(v->comm, ev->victim.comm, sizeof(v->comm));
	v->ts_ns = ev->ts_ns;
}

static const struct ow_out_victim *find_victim(const struct ow_out *o,
					       __u32 pid)
{
	unsigned int n = o->nr_victim < OW_OUT_MAX_VICTIMS ?
			 o->nr_victim : OW_OUT_MAX_VICTIMS;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int k = (o->nr_victim - 1 - i) % OW_OUT_MAX_VICTIMS;

		if (o->victim[k].pid == pid)
			return &o->victim[k];
	}
	return NULL;
}

/* The line that allowed a kill, by its tag. */
static const char *permit_tag(unsigned int type)
{
	switch (type) {
	case OW_OOM_GRANT:
		return "GRANT";
	case OW_THRASH_TAKE:
		return "THRASH TAKE";
	default:
		return "FALLBACK";
	}
}

static void kill_line(struct ow_out *o, const struct oomwatch_event *ev,
		      bool global)
{
	const struct ow_ep_step *st = &model(o)->step;
	const struct ow_ep_permit *p = &st->permit;
	FILE *f = o->o.f;
	unsigned long long rss = ev->victim.anon_rss_kb +
				 ev->victim.file_rss_kb +
				 ev->victim.shmem_rss_kb;

	prefix(o, ev->ts_ns, "KILL");
	fprintf(f, "%s, victim %s: rss %llu kB (anon %llu, file %llu, "
		"shmem %llu), total_vm %llu kB, oom_score_adj %d, %s; "
		"chosen by %s", kill_kind(ev->victim.constraint),
		task(ev->victim.comm, ev->victim.pid).s, rss,
		(unsigned long long)ev->victim.anon_rss_kb,
		(unsigned long long)ev->victim.file_rss_kb,
		(unsigned long long)ev->victim.shmem_rss_kb,
		(unsigned long long)ev->victim.total_vm_kb,
		ev->victim.oom_score_adj,
		memcg_id_text(o, ev->victim.memcg_id).s,
		task(ev->comm, ev->pid).s);
	if (!global) {
		fputc('\n', f);
		return;
	}
	if (st->kill_group)
		fprintf(f, ", the same OOM as the KILL seq %llu "
			"(memory.oom.group)", st->group_seq);
	if (p->type)
		fprintf(f, ", %llu ms after %s seq %llu on node %d",
			ms_between(p->ts_ns, ev->ts_ns), permit_tag(p->type),
			p->seq, p->nid);
	else
		fprintf(f, ", no GRANT or FALLBACK before it (stock path)");
	/* A granted kill rests on kswapd's evidence, not the allocator's. */
	if (p->type != OW_OOM_GRANT && p->type != OW_THRASH_TAKE)
		retry_evidence(o);
	token_context(o);
	fputc('\n', f);
}

static void on_kill(struct ow_out *o, const struct oomwatch_event *ev,
		    bool show)
{
	bool global = ow_kill_is_global(ev);

	if (show)
		kill_line(o, ev, global);
	remember_victim(o, ev);
	if (!global || model(o)->step.kill_group)
		return;
	/* A new episode: the evidence of this one is spent. */
	o->nr_retry = 0;
	o->kept_folios = 0;
	o->kept_shown = false;
	o->bypasses = 0;
	o->shed = 0;
}

void ow_out_shed(struct ow_out *o, unsigned long long count)
{
	o->shed += count;
}

static void on_retry(struct ow_out *o, const struct oomwatch_event *ev)
{
	struct ow_out_retry *r = NULL;

	for (unsigned int i = 0; i < o->nr_retry && !r; i++)
		if (o->retry[i].nid == ev->retry.nid &&
		    o->retry[i].zone_idx == ev->retry.zone_idx)
			r = &o->retry[i];
	if (!r) {
		if (o->nr_retry == OW_OUT_MAX_RETRY)
			return;
		r = &o->retry[o->nr_retry++];
	}
	r->nid = ev->retry.nid;
	r->zone_idx = ev->retry.zone_idx;
	r->pid = ev->pid;
	memcpy(r->comm, ev->comm, sizeof(r->comm));
	r->reclaimable = ev->retry.reclaimable;
	r->available = ev->retry.available;
	r->min_wmark = ev->retry.min_wmark;
	r->loops = ev->retry.no_progress_loops;
	r->wmark_check = ev->retry.wmark_check;
}

static void on_reaper_or_exit(struct ow_out *o, const struct oomwatch_event *ev,
			      bool show)
{
	bool exit = ev->type == OW_TASK_EXIT;
	__u32 pid = exit ? ev->exit.tgid : ev->reaper.pid;
	const struct ow_out_victim *v = find_victim(o, pid);

	if (!show)
		return;
	prefix(o, ev->ts_ns, exit ? "EXIT" : "REAPED");
	if (v)
		fprintf(o->o.f, "%s %s, %llu ms after the kill\n",
			task(v->comm, pid).s, exit ? "is gone" :
			"had its memory reaped by oom_reaper",
			ms_between(v->ts_ns, ev->ts_ns));
	else
		fprintf(o->o.f, "pid %u %s\n", pid, exit ? "is gone" :
			"had its memory reaped by oom_reaper");
}

/* ------------------------------------------------ node and swap token */

static const char *clear_text(unsigned int r)
{
	switch (r) {
	case OW_CLEAR_PROGRESS:
		return "a reclaim pass made progress";
	case OW_CLEAR_FREED:
		return "pages were freed, the node is balanced again";
	case OW_CLEAR_TIMEOUT:
		return "the timer cleared it to force a full rescan";
	default:
		return "reason not known to this oomwatch";
	}
}

static void on_unrecl(struct ow_out *o, const struct oomwatch_event *ev,
		      bool show)
{
	if (!show)
		return;
	if (ev->type == OW_UNRECLAIMABLE_SET) {
		prefix(o, ev->ts_ns, "UNRECLAIMABLE");
		fprintf(o->o.f, "node %d: kswapd failed %u reclaim passes in a "
			"row\n", ev->unrecl.nid, ev->unrecl.failures);
		return;
	}
	prefix(o, ev->ts_ns, "RECLAIMABLE");
	fprintf(o->o.f, "node %d after %u ms: %s: %s\n", ev->unrecl.nid,
		ev->unrecl.duration_ms, ow_clear_reason_name(ev->unrecl.reason),
		clear_text(ev->unrecl.reason));
}

static void on_token(struct ow_out *o, const struct oomwatch_event *ev,
		     bool show)
{
	const char *comm = ev->token.holder_comm;

	if (ev->type == OW_TOKEN_GRAB) {
		o->holder = ev->token.tgid;
		memcpy(o->holder_comm, comm, sizeof(o->holder_comm));
		o->kept_shown = false;
	} else if (o->holder == ev->token.tgid) {
		o->holder = 0;
	}
	if (!show)
		return;
	prefix(o, ev->ts_ns, "TOKEN");
	if (ev->type == OW_TOKEN_RELEASE)
		fprintf(o->o.f, "released by %s: %s\n",
			task(comm, ev->token.tgid).s,
			ow_token_reason_name(ev->token.reason));
	else if (ev->token.prev_tgid)
		fprintf(o->o.f, "grabbed by %s from pid %u: %s\n",
			task(comm, ev->token.tgid).s, ev->token.prev_tgid,
			ow_token_reason_name(ev->token.reason));
	else
		fprintf(o->o.f, "grabbed by %s: %s\n",
			task(comm, ev->token.tgid).s,
			ow_token_reason_name(ev->token.reason));
}

static struct ttext holder_text(const struct ow_out *o, __u32 tgid)
{
	struct ttext t;

	if (tgid && tgid == o->holder)
		return task(o->holder_comm, tgid);
	snprintf(t.s, sizeof(t.s), "pid %u", tgid);
	return t;
}

/* The reclaiming task: the event's current task when it is the one. */
static struct ttext reclaimer_text(const struct oomwatch_event *ev)
{
	struct ttext t;

	if (ev->pid == ev->token_pass.reclaimer)
		return task(ev->comm, ev->pid);
	snprintf(t.s, sizeof(t.s), "pid %u", ev->token_pass.reclaimer);
	return t;
}

static void on_token_pass(struct ow_out *o, const struct oomwatch_event *ev,
			  bool show)
{
	unsigned long long n = ev->token_pass.nr_folios;

	if (ev->type == OW_TOKEN_BYPASS) {
		o->bypasses++;
		if (!show)
			return;
		prefix(o, ev->ts_ns, "BYPASS");
		fprintf(o->o.f, "%s ignored the swap token at priority %d: "
			"%llu folios of %s reclaimable (node %d)\n",
			reclaimer_text(ev).s, ev->token_pass.priority, n,
			holder_text(o, ev->token_pass.holder_tgid).s,
			ev->token_pass.nid);
		return;
	}
	if (!n)
		return;
	if (n > o->kept_folios)
		o->kept_folios = n;
	if (o->kept_shown || !show) {
		o->kept_hidden++;
		return;
	}
	o->kept_shown = true;
	prefix(o, ev->ts_ns, "KEPT");
	fprintf(o->o.f, "swap token shielded %llu folios of %s from %s's "
		"reclaim (node %d, priority %d); later passes not shown\n", n,
		holder_text(o, ev->token_pass.holder_tgid).s,
		reclaimer_text(ev).s, ev->token_pass.nid,
		ev->token_pass.priority);
}

/* ----------------------------------------------------- thrash rule */

/*
 * A calm window longer than two windows (2 s) is one no reclaim pass
 * closed: the kernel ends the spell once that is certain
 * (mm/oom_arbiter.c, thrash_pause_work()), not at the next pass.
 */
static const char *thrash_clear_text(const struct oomwatch_event *ev)
{
	switch (ev->thrash.reason) {
	case OW_THRASH_CALM:
		if (ow_thrash_window_paused(ev->thrash.window_ms))
			return "reclaim paused, no window of reclaim closed "
			       "for over 2 s";
		return "a window of reclaim did not thrash";
	case OW_THRASH_DISABLED:
		return "vm.oom_arbiter_thrash was switched";
	default:
		return "reason not known to this oomwatch";
	}
}

/*
 * A thrash window's counts.  Format 4 tells which refaults the rule
 * judges: those page faults read (faulted), within the node's anonymous
 * pages of refault distance (near); a version 3 recording has neither.
 */
static void window_counts(FILE *f, __u64 refaulted, __u64 faulted, __u64 near,
			  __u64 anon, __u64 reclaimed)
{
	if (!faulted && !anon) {
		fprintf(f, "%llu file refaults, %llu pages reclaimed",
			(unsigned long long)refaulted,
			(unsigned long long)reclaimed);
		return;
	}
	fprintf(f, "%llu near refaults (of %llu faulted, %llu file refaults; "
		"near: within the node's %llu anon pages), %llu pages reclaimed",
		(unsigned long long)near, (unsigned long long)faulted,
		(unsigned long long)refaulted, (unsigned long long)anon,
		(unsigned long long)reclaimed);
}

static void on_thrashing(struct ow_out *o, const struct oomwatch_event *ev,
			 bool show)
{
	const struct ow_ep_thrash *th = &model(o)->step.thrash;
	FILE *f = o->o.f;

	if (!show)
		return;
	if (ev->type == OW_THRASHING_SET) {
		prefix(o, ev->ts_ns, "THRASHING");
		fprintf(f, "node %d: a %u ms window of reclaim thrashed: ",
			ev->thrash.nid, ev->thrash.window_ms);
		window_counts(f, ev->thrash.refaulted, ev->thrash.faulted,
			      ev->thrash.near, ev->thrash.anon,
			      ev->thrash.reclaimed);
		fputc('\n', f);
		return;
	}
	prefix(o, ev->ts_ns, "NOT THRASHING");
	fprintf(f, "node %d after %u ms: %s: %s",
		ev->thrash.nid, ev->thrash.duration_ms,
		ow_thrash_clear_reason_name(ev->thrash.reason),
		thrash_clear_text(ev));
	if (ev->thrash.reason == OW_THRASH_CALM) {
		fprintf(f, " (%u ms: ", ev->thrash.window_ms);
		window_counts(f, ev->thrash.refaulted, ev->thrash.faulted,
			      ev->thrash.near, ev->thrash.anon,
			      ev->thrash.reclaimed);
		fputc(')', f);
	}
	if (th->granted)
		fprintf(f, "; THRASH GRANT seq %llu dropped, not taken",
			th->grant_seq);
	fputc('\n', f);
}

/* The rule's conditions, marked (!) where the evidence breaks them. */
static void thrash_evidence(struct ow_out *o, const struct oomwatch_event *ev)
{
	int timeout = o->o.cfg.oom_thrash_timeout_ms;
	__u64 free = ev->thrash_grant.swap_free;
	__u64 total = ev->thrash_grant.swap_total;
	FILE *f = o->o.f;

	fprintf(f, "kswapd saw: thrashing %u ms",
		ev->thrash_grant.thrashing_ms);
	if (timeout != OW_CONFIG_UNKNOWN)
		fprintf(f, " (timeout %d)%s", timeout,
			timeout >= 0 && ev->thrash_grant.thrashing_ms <
			(__u32)timeout ? " (!)" : "");
	fprintf(f, ", last window ");
	if (ev->thrash_grant.window_ms)
		fprintf(f, "%u ms ", ev->thrash_grant.window_ms);
	window_counts(f, ev->thrash_grant.refaulted, ev->thrash_grant.faulted,
		      ev->thrash_grant.near, ev->thrash_grant.anon,
		      ev->thrash_grant.reclaimed);
	if (!total)
		fprintf(f, ", no swap");
	else
		fprintf(f, ", swap %llu of %llu pages free%s",
			(unsigned long long)free, (unsigned long long)total,
			ow_swap_cannot_help(free, total) ? "" : " (!)");
	for (__u32 i = 0; i < ev->thrash_grant.nr_zones &&
			  i < OOMWATCH_THRASH_ZONES; i++)
		fprintf(f, ", low zone %u free %llu high %llu", i,
			(unsigned long long)ev->thrash_grant.zone[i].free,
			(unsigned long long)ev->thrash_grant.zone[i].high);
}

static void on_thrash_grant(struct ow_out *o, const struct oomwatch_event *ev,
			    bool show)
{
	if (!show)
		return;
	prefix(o, ev->ts_ns, "THRASH GRANT");
	fprintf(o->o.f, "node %d, kill allowed: the next allocation on it "
		"that may invoke the OOM killer takes the grant; ",
		ev->thrash_grant.nid);
	thrash_evidence(o, ev);
	fputc('\n', o->o.f);
}

static void on_thrash_take(struct ow_out *o, const struct oomwatch_event *ev,
			   const struct ow_requester *who, bool show)
{
	const struct ow_ep_thrash *th = &model(o)->step.thrash;
	FILE *f = o->o.f;

	if (!show)
		return;
	prefix(o, ev->ts_ns, "THRASH TAKE");
	fprintf(f, "%s %s takes node %d's thrash grant ",
		task(ev->take.comm, ev->take.pid).s, memcg_text(o, who).s,
		ev->take.nid);
	if (th->granted)
		fprintf(f, "(THRASH GRANT seq %llu, %llu ms old)", th->grant_seq,
			ms_between(th->grant_ts, ev->ts_ns));
	else if (th->seen)
		fprintf(f, "(none outstanding (!))");
	else
		fprintf(f, "(not in the recording)");
	fprintf(f, ": order %d, gfp 0x%x; it calls out_of_memory() itself\n",
		ev->take.order, ev->take.gfp_flags);
}

/* ------------------------------------------------------------ driver */

void ow_out_event(struct ow_out *o, const struct oomwatch_event *ev,
		  const struct ow_requester *who, bool show)
{
	ow_ep_ref_feed(&o->ep, ev, who);
	if (!o->started) {
		o->started = true;
		o->t0 = ev->ts_ns;
	}
	o->last_ts = ev->ts_ns;
	switch (ev->type) {
	case OW_OOM_REQUEST:
		on_request(o, ev, who, show);
		break;
	case OW_OOM_DEFER:
		on_defer(o, ev, show);
		break;
	case OW_OOM_VETO:
		on_veto(o, ev, show);
		break;
	case OW_OOM_FALLBACK:
		on_fallback(o, ev, show);
		break;
	case OW_OOM_GRANT:
		on_grant(o, ev, show);
		break;
	case OW_MARK_VICTIM:
		on_kill(o, ev, show);
		break;
	case OW_RECLAIM_RETRY_ZONE:
		on_retry(o, ev);
		break;
	case OW_FINISH_REAPING:
	case OW_TASK_EXIT:
		on_reaper_or_exit(o, ev, show);
		break;
	case OW_UNRECLAIMABLE_SET:
	case OW_UNRECLAIMABLE_CLEAR:
		on_unrecl(o, ev, show);
		break;
	case OW_TOKEN_GRAB:
	case OW_TOKEN_RELEASE:
		on_token(o, ev, show);
		break;
	case OW_TOKEN_KEPT:
	case OW_TOKEN_BYPASS:
		on_token_pass(o, ev, show);
		break;
	case OW_THRASHING_SET:
	case OW_THRASHING_CLEAR:
		on_thrashing(o, ev, show);
		break;
	case OW_THRASH_GRANT:
		on_thrash_grant(o, ev, show);
		break;
	case OW_THRASH_TAKE:
		on_thrash_take(o, ev, who, show);
		break;
	default:
		break;	/* evidence only: see output.h */
	}
}

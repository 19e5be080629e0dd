// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch --metrics; metrics.h says what is measured and why live and
 * replay agree.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "metrics.h"

/* The last index of each table counts the values no name exists for. */
#define NR_REASONS	(OW_THRASH_NO_VICTIM + 2)
#define NR_CONSTRAINTS	(OW_CONSTRAINT_NODEMASK + 2)
#define NR_TOKEN	(OW_TOKEN_DISABLED + 2)
#define OTHER		OW_METRICS_NODES	/* the slot of further nodes */

/* What the events did on one node label. */
struct mx_node {
	__s32 nid;
	unsigned long long requests;
	unsigned long long grants;
	unsigned long long defers[NR_REASONS];
	unsigned long long vetoes[NR_REASONS];
	unsigned long long fallbacks[NR_REASONS];
	unsigned long long unrecl_sets;
	unsigned long long unrecl_ns;	/* set to clear, closed spells */
	unsigned long long thrash_ns;	/* set to clear, closed spells */
	unsigned long long bypasses;
};

/* What the model holds of a node label when the file is written. */
struct mx_model {
	unsigned long long th_sets, th_grants, th_takes;
	unsigned long long unrecl_ns, thrash_ns;	/* still open */
	unsigned long long waiting;
};

struct ow_metrics {
	const struct ow_episodes *m;
	const struct ow_stats *st;
	struct mx_node node[OW_METRICS_NODES + 1];	/* [OTHER] last */
	size_t nr_node;			/* labelled, in the order named */
	bool other;			/* a node beyond them was named */
	unsigned long long kills[NR_CONSTRAINTS];
	unsigned long long grabs[NR_TOKEN];
	unsigned long long releases[NR_TOKEN];
};

struct ow_metrics *ow_metrics_new(const struct ow_episodes *m,
				  const struct ow_stats *st)
{
	struct ow_metrics *mx = calloc(1, sizeof(*mx));

	if (mx) {
		mx->m = m;
		mx->st = st;
	}
	return mx;
}

void ow_metrics_free(struct ow_metrics *mx)
{
	free(mx);
}

static unsigned int bounded(unsigned int v, unsigned int nr)
{
	return v < nr - 1 ? v : nr - 1;
}

static unsigned long long since(unsigned long long from, unsigned long long to)
{
	return to > from ? to - from : 0;
}

/* The label slot of a node events named; -1 for one they never did. */
static int find_slot(const struct ow_metrics *mx, __s32 nid)
{
	for (size_t i = 0; i < mx->nr_node; i++)
		if (mx->node[i].nid == nid)
			return i;
	return mx->other ? OTHER : -1;
}

/* The slot of a node an event names: its own while there is room. */
static struct mx_node *slot(struct ow_metrics *mx, __s32 nid)
{
	for (size_t i = 0; i < mx->nr_node; i++)
		if (mx->node[i].nid == nid)
			return &mx->node[i];
	if (mx->nr_node < OW_METRICS_NODES) {
		mx->node[mx->nr_node].nid = nid;
		return &mx->node[mx->nr_node++];
	}
	mx->other = true;
	return &mx->node[OTHER];
}

/* Verdicts and requests: the node and the reason the event names. */
static void on_verdict(struct ow_metrics *mx, const struct oomwatch_event *ev)
{
	struct mx_node *n = slot(mx, ev->request.nid);
	unsigned int r = bounded(ev->request.reason, NR_REASONS);

	if (ev->type == OW_OOM_REQUEST)
		n->requests++;
	else if (ev->type == OW_OOM_DEFER)
		n->defers[r]++;
	else if (ev->type == OW_OOM_VETO)
		n->vetoes[r]++;
	else
		n->fallbacks[r]++;
}

/*
 * A clear adds the spell up to the latest event's time, which is what
 * the open spell counted at the last write: the seconds only grow, even
 * when the clear's own timestamp is a little older (another CPU's).
 */
static void on_unreclaimable(struct ow_metrics *mx,
			     const struct oomwatch_event *ev)
{
	const struct ow_ep_step *step = &mx->m->step;
	struct mx_node *n = slot(mx, ev->unrecl.nid);

	if (ev->type == OW_UNRECLAIMABLE_SET && step->set_new)
		n->unrecl_sets++;
	else if (ev->type == OW_UNRECLAIMABLE_CLEAR && step->cleared)
		n->unrecl_ns += since(step->before.set_ts, mx->st->last_ts);
}

static void on_thrash(struct ow_metrics *mx, const struct oomwatch_event *ev,
		      __s32 nid)
{
	const struct ow_ep_thrash *before = &mx->m->step.thrash;
	struct mx_node *n = slot(mx, nid);

	if (ev->type == OW_THRASHING_CLEAR && before->state == OW_TH_ON)
		n->thrash_ns += since(before->state_ts, mx->st->last_ts);
}

void ow_metrics_feed(struct ow_metrics *mx, const struct oomwatch_event *ev)
{
	switch (ev->type) {
	case OW_OOM_REQUEST:
	case OW_OOM_DEFER:
	case OW_OOM_VETO:
	case OW_OOM_FALLBACK:
		on_verdict(mx, ev);
		break;
	case OW_OOM_GRANT:
		slot(mx, ev->grant.nid)->grants++;
		break;
	case OW_MARK_VICTIM:
		mx->kills[bounded(ev->victim.constraint, NR_CONSTRAINTS)]++;
		break;
	case OW_UNRECLAIMABLE_SET:
	case OW_UNRECLAIMABLE_CLEAR:
		on_unreclaimable(mx, ev);
		break;
	case OW_TOKEN_GRAB:
		mx->grabs[bounded(ev->token.reason, NR_TOKEN)]++;
		break;
	case OW_TOKEN_RELEASE:
		mx->releases[bounded(ev->token.reason, NR_TOKEN)]++;
		break;
	case OW_TOKEN_BYPASS:
		slot(mx, ev->token_pass.nid)->bypasses++;
		break;
	case OW_THRASHING_SET:
	case OW_THRASHING_CLEAR:
		on_thrash(mx, ev, ev->thrash.nid);
		break;
	case OW_THRASH_GRANT:
		on_thrash(mx, ev, ev->thrash_grant.nid);
		break;
	case OW_THRASH_TAKE:
		on_thrash(mx, ev, ev->take.nid);
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------------ writing */

/* The model's per-node numbers, summed per label slot. */
static void read_model(const struct ow_metrics *mx, struct mx_model *out)
{
	const struct ow_episodes *m = mx->m;
	unsigned long long now = mx->st->last_ts;

	memset(out, 0, (OW_METRICS_NODES + 1) * sizeof(*out));
	for (size_t i = 0; i < m->nr_node; i++) {
		const struct ow_ep_node *n = &m->node[i];
		int k = find_slot(mx, n->nid);
		struct mx_model *o;

		if (k < 0)
			continue;	/* every node an event names has one */
		o = &out[k];
		o->th_sets += n->th_sets;
		o->th_grants += n->th_grants;
		o->th_takes += n->th_takes;
		o->waiting += n->nr_waiting;
		if (n->set)
			o->unrecl_ns += since(n->set_ts, now);
		if (n->th.state == OW_TH_ON)
			o->thrash_ns += since(n->th.state_ts, now);
	}
}

static unsigned int count_nodes(const struct ow_episodes *m, bool thrashing)
{
	unsigned int nr = 0;

	for (size_t i = 0; i < m->nr_node; i++)
		nr += thrashing ? m->node[i].th.state == OW_TH_ON :
				  m->node[i].set;
	return nr;
}

/* Label slots in the order they are written: by node id, "other" last. */
static size_t label_order(const struct ow_metrics *mx, int *order)
{
	size_t nr = 0;

	for (size_t i = 0; i < mx->nr_node; i++) {
		size_t j = nr++;

		/* insertion by nid: at most OW_METRICS_NODES of them */
		while (j && mx->node[order[j - 1]].nid > mx->node[i].nid) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	if (mx->other)
		order[nr++] = OTHER;
	return nr;
}

static void node_label(const struct ow_metrics *mx, int k, char *buf,
		       size_t size)
{
	if (k == OTHER)
		snprintf(buf, size, "other");
	else
		snprintf(buf, size, "%d", mx->node[k].nid);
}

static void family(FILE *f, const char *name, const char *type,
		   const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* Seconds from nanoseconds, exactly: no float rounding to differ on. */
static void seconds(FILE *f, unsigned long long ns)
{
	fprintf(f, "%llu.%09llu\n", ns / 1000000000ULL, ns % 1000000000ULL);
}

/* Which per-node number a node family writes. */
enum node_value {
	NV_REQUESTS, NV_GRANTS, NV_WAITING, NV_UNRECL_SETS, NV_UNRECL_NS,
	NV_TH_SETS, NV_TH_NS, NV_TH_GRANTS, NV_TH_TAKES, NV_BYPASSES,
};

static unsigned long long node_value(const struct mx_node *n,
				     const struct mx_model *o,
				     enum node_value v)
{
	switch (v) {
	case NV_REQUESTS:	return n->requests;
	case NV_GRANTS:		return n->grants;
	case NV_WAITING:	return o->waiting;
	case NV_UNRECL_SETS:	return n->unrecl_sets;
	case NV_UNRECL_NS:	return n->unrecl_ns + o->unrecl_ns;
	case NV_TH_SETS:	return o->th_sets;
	case NV_TH_NS:		return n->thrash_ns + o->thrash_ns;
	case NV_TH_GRANTS:	return o->th_grants;
	case NV_TH_TAKES:	return o->th_takes;
	case NV_BYPASSES:	return n->bypasses;
	}
	return 0;
}

struct node_family {
	const char *name;
	const char *type;
	const char *help;
	enum node_value v;
	bool secs;
};

static const struct node_family node_families[] = {
	{ "oomwatch_oom_requests_total", "counter",
	  "OOM kill requests (oom_request) by the requester's node.",
	  NV_REQUESTS, false },
	{ "oomwatch_oom_grants_total", "counter",
	  "Kills kswapd allowed (oom_grant) by node.", NV_GRANTS, false },
	{ "oomwatch_oom_requests_waiting", "gauge",
	  "OOM requests waiting for a verdict now, by node.", NV_WAITING,
	  false },
	{ "oomwatch_unreclaimable_sets_total", "counter",
	  "Times kswapd gave a node up (unreclaimable_set, not already set).",
	  NV_UNRECL_SETS, false },
	{ "oomwatch_unreclaimable_seconds_total", "counter",
	  "Seconds nodes were unreclaimable, recorded set to clear, by event "
	  "timestamps.", NV_UNRECL_NS, true },
	{ "oomwatch_thrashing_sets_total", "counter",
	  "Thrashing spells begun: a thrashing window after a calm one "
	  "(thrashing_set), by node.", NV_TH_SETS, false },
	{ "oomwatch_thrashing_seconds_total", "counter",
	  "Seconds nodes were thrashing, from the set's window to the clear, "
	  "by event timestamps.", NV_TH_NS, true },
	{ "oomwatch_thrash_grants_total", "counter",
	  "Kills the thrash rule allowed (oom_thrash_grant) by node.",
	  NV_TH_GRANTS, false },
	{ "oomwatch_thrash_takes_total", "counter",
	  "Thrash grants taken by a task (oom_thrash_take) by node.",
	  NV_TH_TAKES, false },
	{ "oomwatch_swap_token_bypasses_total", "counter",
	  "Reclaim passes that ignored the swap token (swap_token_bypass) by "
	  "node.", NV_BYPASSES, false },
};

static void write_node_family(FILE *f, const struct ow_metrics *mx,
			      const struct mx_model *model, const int *order,
			      size_t nr, const struct node_family *nf)
{
	char label[16];

	family(f, nf->name, nf->type, nf->help);
	for (size_t i = 0; i < nr; i++) {
		unsigned long long v = node_value(&mx->node[order[i]],
						  &model[order[i]], nf->v);

		node_label(mx, order[i], label, sizeof(label));
		fprintf(f, "%s{node=\"%s\"} ", nf->name, label);
		if (nf->secs)
			seconds(f, v);
		else
			fprintf(f, "%llu\n", v);
	}
}

/* Which reason table of a node a verdict family writes. */
static const unsigned long long *reasons_of(const struct mx_node *n,
					    unsigned int type)
{
	return type == OW_OOM_DEFER ? n->defers :
	       type == OW_OOM_VETO ? n->vetoes : n->fallbacks;
}

/* Per node and reason; only the reasons that occurred. */
static void write_verdicts(FILE *f, const struct ow_metrics *mx,
			   const int *order, size_t nr, unsigned int type,
			   const char *name, const char *help)
{
	char label[16];

	family(f, name, "counter", help);
	for (size_t i = 0; i < nr; i++) {
		const unsigned long long *v = reasons_of(&mx->node[order[i]],
							 type);

		node_label(mx, order[i], label, sizeof(label));
		for (unsigned int r = 0; r < NR_REASONS; r++)
			if (v[r])
				fprintf(f, "%s{node=\"%s\",reason=\"%s\"} "
					"%llu\n", name, label,
					ow_verdict_reason_name(r), v[r]);
	}
}

/* Every name, 0 included: a short fixed set. */
static void write_by_name(FILE *f, const char *name, const char *help,
			  const char *key, const unsigned long long *v,
			  unsigned int nr, const char *(*name_of)(unsigned int))
{
	family(f, name, "counter", help);
	for (unsigned int i = 0; i < nr; i++)
		fprintf(f, "%s{%s=\"%s\"} %llu\n", name, key, name_of(i), v[i]);
}

static void write_violations(FILE *f, const struct ow_checker *c)
{
	const char *name = "oomwatch_invariant_violations_total";

	family(f, name, "counter", "Invariant violations the checker found "
	       "in the event stream, by invariant (docs/invariants.md).");
	for (int i = 1; i <= OW_NR_INVARIANTS; i++)
		fprintf(f, "%s{invariant=\"%s\"} %lu\n", name,
			ow_invariant_name(i),
			c ? ow_checker_violations(c, i) : 0);
}

static void write_scalar(FILE *f, const char *name, const char *type,
			 const char *help, unsigned long long v)
{
	family(f, name, type, help);
	fprintf(f, "%s %llu\n", name, v);
}

int ow_metrics_format(const struct ow_metrics *mx, const struct ow_checker *c,
		      FILE *f)
{
	struct mx_model model[OW_METRICS_NODES + 1];
	int order[OW_METRICS_NODES + 1];
	size_t nr = label_order(mx, order);

	read_model(mx, model);
	write_scalar(f, "oomwatch_events_total", "counter",
		     "Events oomwatch read, from the kernel or a recording.",
		     mx->st->events);
	write_scalar(f, "oomwatch_lost_events_total", "counter",
		     "Events the ring buffer dropped before oomwatch read them.",
		     mx->st->lost);
	write_scalar(f, "oomwatch_shed_events_total", "counter",
		     "Context events (reclaim retries, direct reclaim, kswapd "
		     "wake/sleep) not written while the ring was half full.",
		     mx->st->shed);
	for (size_t i = 0; i < sizeof(node_families) /
			       sizeof(node_families[0]); i++)
		write_node_family(f, mx, model, order, nr, &node_families[i]);
	write_verdicts(f, mx, order, nr, OW_OOM_DEFER,
		       "oomwatch_oom_defers_total",
		       "Verdicts that kept OOM requests waiting (oom_defer) by "
		       "node and failed condition.");
	write_verdicts(f, mx, order, nr, OW_OOM_VETO,
		       "oomwatch_oom_vetoes_total",
		       "OOM requests ended without a kill (oom_veto) by node "
		       "and reason.");
	write_verdicts(f, mx, order, nr, OW_OOM_FALLBACK,
		       "oomwatch_oom_fallbacks_total",
		       "OOM requests sent to the stock OOM path (oom_fallback) "
		       "by node and reason.");
	write_by_name(f, "oomwatch_oom_kills_total", "OOM victims chosen "
		      "(mark_victim) by constraint.", "constraint", mx->kills,
		      NR_CONSTRAINTS, ow_constraint_name);
	write_scalar(f, "oomwatch_oom_episodes_total", "counter",
		     "Global OOM kills, a memory.oom.group kill counted once.",
		     mx->st->episodes);
	write_scalar(f, "oomwatch_nodes_unreclaimable", "gauge",
		     "Nodes unreclaimable now (a recorded set, not cleared).",
		     count_nodes(mx->m, false));
	write_scalar(f, "oomwatch_nodes_thrashing", "gauge",
		     "Nodes thrashing now (a recorded set, not cleared).",
		     count_nodes(mx->m, true));
	write_by_name(f, "oomwatch_swap_token_grabs_total", "Swap token "
		      "grabs (swap_token_grab) by reason.", "reason", mx->grabs,
		      NR_TOKEN, ow_token_reason_name);
	write_by_name(f, "oomwatch_swap_token_releases_total", "Swap token "
		      "releases (swap_token_release) by reason.", "reason",
		      mx->releases, NR_TOKEN, ow_token_reason_name);
	write_violations(f, c);
	if (ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

int ow_metrics_write(const struct ow_metrics *mx, const struct ow_checker *c,
		     const char *path)
{
	char tmp[PATH_MAX];
	int fd, err;
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path,
		     (long)getpid()) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		err = errno;
		close(fd);
		goto fail;
	}
	errno = 0;
	err = ow_metrics_format(mx, c, f) ? errno : 0;
	if (fclose(f) && !err)
		err = errno ? errno : EIO;
	if (!err && rename(tmp, path))
		err = errno;
	if (!err)
		return 0;
fail:
	unlink(tmp);
	errno = err;
	return -1;
}

// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: summary statistics; stats.h says what is measured.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least pct% of samples <= it. */
static unsigned long long rank(const unsigned long long *v, size_t n,
			       unsigned int pct)
{
	size_t r = (n * pct + 99) / 100;	/* ceil(pct/100 * n), >= 1 */

	return v[(r ? r : 1) - 1];
}

int ow_percentiles(unsigned long long *v, size_t n, struct ow_pct *out)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return -1;
	qsort(v, n, sizeof(*v), cmp_ull);
	out->n = n;
	out->min = v[0];
	out->median = rank(v, n, 50);
	out->p95 = rank(v, n, 95);
	out->max = v[n - 1];
	return 0;
}

void ow_stats_init(struct ow_stats *s, struct ow_episodes *shared)
{
	memset(s, 0, sizeof(*s));
	ow_ep_ref_init(&s->ep, shared);
}

void ow_stats_free(struct ow_stats *s)
{
	free(s->request_to_verdict.v);
	free(s->unreclaimable_to_kill.v);
	ow_ep_ref_free(&s->ep);
	memset(s, 0, sizeof(*s));
}

static void add_sample(struct ow_stats *s, struct ow_samples *x,
		       unsigned long long val)
{
	if (x->n == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 64;
		unsigned long long *v = NULL;

		if (cap <= SIZE_MAX / sizeof(*v))
			v = realloc(x->v, cap * sizeof(*v));
		if (!v) {
			s->dropped_samples++;
			return;
		}
		x->v = v;
		x->cap = cap;
	}
	x->v[x->n++] = val;
}

/* Timestamps can cross between CPUs: a negative latency counts as 0. */
static unsigned long long since(unsigned long long from, unsigned long long to)
{
	return to > from ? to - from : 0;
}

/* Every wait the event ended, whatever ended it: one answer for all views. */
static void on_ended(struct ow_stats *s, const struct ow_ep_step *st,
		     unsigned long long ts)
{
	for (size_t i = 0; i < st->nr_change; i++)
		if (st->change[i].ended)
			add_sample(s, &s->request_to_verdict,
				   since(st->change[i].r.ts_ns, ts));
}

/* A new episode; a further member of a memory.oom.group kill is not. */
static void on_kill(struct ow_stats *s, const struct ow_ep_step *st,
		    unsigned long long ts)
{
	if (!st->kill_global || st->kill_group)
		return;
	s->episodes++;
	for (size_t i = 0; i < st->nr_spell; i++)
		add_sample(s, &s->unreclaimable_to_kill,
			   since(st->spell_ts[i], ts));
}

void ow_stats_feed(struct ow_stats *s, const struct oomwatch_event *ev)
{
	const struct ow_ep_step *st;

	ow_ep_ref_feed(&s->ep, ev, NULL);
	st = &ow_ep_of(&s->ep)->step;
	s->events++;
	if (ev->ts_ns > s->last_ts)
		s->last_ts = ev->ts_ns;
	s->count[ev->type < OW_NR_TYPES ? ev->type : 0]++;
	on_ended(s, st, ev->ts_ns);
	on_kill(s, st, ev->ts_ns);
}

void ow_stats_shed(struct ow_stats *s, unsigned long long count)
{
	s->shed += count;
}

void ow_stats_lost(struct ow_stats *s, unsigned long long count)
{
	s->lost += count;
}

/* ---------------------------------------------------------- thrashing */

/* A node the thrash rule did anything on. */
static bool thrash_node(const struct ow_ep_node *n)
{
	return n->th.seen || n->th_takes;
}

/* Thrashing, set to clear; a spell still open up to the last event. */
static unsigned long long thrash_ns(const struct ow_stats *s,
				    const struct ow_ep_node *n)
{
	unsigned long long ns = n->th_ns;

	if (n->th.state == OW_TH_ON)
		ns += since(n->th.state_ts, s->last_ts);
	return ns;
}

static const char *plural(unsigned long n)
{
	return n == 1 ? "" : "s";
}

/* The model keeps nodes as first named: listed here by node id. */
static const struct ow_ep_node *nth_node(const struct ow_episodes *m,
					 const size_t *by_nid, size_t i)
{
	return &m->node[by_nid ? by_nid[i] : i];
}

static void print_thrashing(FILE *f, struct ow_stats *s)
{
	const struct ow_episodes *m = ow_ep_of(&s->ep);
	size_t *by_nid = ow_episodes_nodes_by_nid(m);
	bool any = false;

	for (size_t i = 0; i < m->nr_node; i++) {
		const struct ow_ep_node *n = nth_node(m, by_nid, i);

		if (!thrash_node(n))
			continue;
		if (!any)
			fprintf(f, "  thrashing (the thrash rule):\n");
		any = true;
		fprintf(f, "    node %d: %lu set%s, %.3f s thrashing%s, %lu "
			"grant%s, %lu take%s\n", n->nid, n->th_sets,
			plural(n->th_sets), thrash_ns(s, n) / 1e9,
			n->th.state == OW_TH_ON ? " (still at the end)" : "",
			n->th_grants, plural(n->th_grants), n->th_takes,
			plural(n->th_takes));
	}
	free(by_nid);
}

/* ----------------------------------------------------------- printing */

static void print_latency(FILE *f, const char *what, struct ow_samples *x)
{
	struct ow_pct p;

	if (ow_percentiles(x->v, x->n, &p)) {
		fprintf(f, "  %-22s no samples\n", what);
		return;
	}
	fprintf(f, "  %-22s n=%zu min %.3f median %.3f p95 %.3f max %.3f ms\n",
		what, p.n, p.min / 1e6, p.median / 1e6, p.p95 / 1e6,
		p.max / 1e6);
}

static void print_checker(FILE *f, const struct ow_checker *c)
{
	fprintf(f, "  invariants:\n");
	for (int i = 1; i <= OW_NR_INVARIANTS; i++) {
		unsigned long n = ow_checker_violations(c, i);

		if (!ow_checker_enabled(c, i))
			fprintf(f, "   %2d %-22s not checked (configuration)\n",
				i, ow_invariant_name(i));
		else if (!n)
			fprintf(f, "   %2d %-22s ok\n", i, ow_invariant_name(i));
		else
			fprintf(f, "   %2d %-22s %lu violation%s\n", i,
				ow_invariant_name(i), n, n == 1 ? "" : "s");
	}
	fprintf(f, "  pending requests: %u\n", ow_checker_pending(c));
}

void ow_stats_print(FILE *f, struct ow_stats *s, const struct ow_checker *c)
{
	fprintf(f, "summary: %llu events, %llu OOM episode%s, %llu lost\n",
		s->events, s->episodes, s->episodes == 1 ? "" : "s", s->lost);
	if (s->shed)
		fprintf(f, "  %llu context records shed (reclaim_retry_zone, "
			"direct reclaim, kswapd wake/sleep): the ring was half "
			"full\n", s->shed);
	for (unsigned int t = 1; t < OW_NR_TYPES; t++)
		if (s->count[t])
			fprintf(f, "  %-22s %llu\n", ow_event_type_name(t),
				s->count[t]);
	if (s->count[0])
		fprintf(f, "  %-22s %llu\n", "(unknown type)", s->count[0]);
	print_latency(f, "request -> verdict", &s->request_to_verdict);
	print_latency(f, "unreclaimable -> kill", &s->unreclaimable_to_kill);
	print_thrashing(f, s);
	if (s->dropped_samples)
		fprintf(f, "  %llu latency samples dropped (out of memory)\n",
			s->dropped_samples);
	if (c)
		print_checker(f, c);
}

static void json_latency(FILE *f, const char *key, struct ow_samples *x)
{
	struct ow_pct p;

	ow_percentiles(x->v, x->n, &p);
	fprintf(f, ",\"%s\":{\"n\":%zu,\"min\":%llu,\"median\":%llu,"
		"\"p95\":%llu,\"max\":%llu}", key, p.n, p.min, p.median, p.p95,
		p.max);
}

/*
 * The first OW_STATS_THRASH_NODES nodes, and how many there were: the
 * summary is a line of a recording, which must stay within OW_LINE_MAX
 * (an entry takes 144 bytes at most, the rest of the line some 2100).
 */
static void json_thrashing(FILE *f, struct ow_stats *s)
{
	const struct ow_episodes *m = ow_ep_of(&s->ep);
	size_t *by_nid = ow_episodes_nodes_by_nid(m);
	unsigned int nr = 0;

	fprintf(f, ",\"thrashing\":[");
	for (size_t i = 0; i < m->nr_node; i++) {
		const struct ow_ep_node *n = nth_node(m, by_nid, i);

		if (!thrash_node(n) || nr++ >= OW_STATS_THRASH_NODES)
			continue;
		fprintf(f, "%s{\"nid\":%d,\"sets\":%lu,\"thrashing_ms\":%llu,"
			"\"grants\":%lu,\"takes\":%lu}", nr > 1 ? "," : "",
			n->nid, n->th_sets, thrash_ns(s, n) / 1000000,
			n->th_grants, n->th_takes);
	}
	free(by_nid);
	fprintf(f, "],\"thrashing_nodes\":%u", nr);
}

static void json_checker(FILE *f, const struct ow_checker *c)
{
	const char *sep = "";

	fprintf(f, ",\"pending_requests\":%u,\"violations_total\":%lu,"
		"\"violations\":{", ow_checker_pending(c),
		ow_checker_violations(c, 0));
	for (int i = 1; i <= OW_NR_INVARIANTS; i++)
		fprintf(f, "%s\"%s\":%lu", i > 1 ? "," : "",
			ow_invariant_name(i), ow_checker_violations(c, i));
	fprintf(f, "},\"checked\":[");
	for (int i = 1; i <= OW_NR_INVARIANTS; i++) {
		if (!ow_checker_enabled(c, i))
			continue;
		fprintf(f, "%s\"%s\"", sep, ow_invariant_name(i));
		sep = ",";
	}
	fprintf(f, "]");
}

/*
 * Every key and name is a fixed ASCII word and every value a number, so
 * plain fprintf is valid JSON; the line stays far below OW_LINE_MAX.
 */
int ow_stats_write_json(FILE *f, unsigned int version, struct ow_stats *s,
			const struct ow_checker *c)
{
	fprintf(f, "{\"v\":%u,\"type\":\"summary\",\"events\":%llu,"
		"\"lost\":%llu,\"shed\":%llu,\"episodes\":%llu,\"counts\":{",
		version, s->events, s->lost, s->shed, s->episodes);
	for (unsigned int t = 1; t < OW_NR_TYPES; t++)
		fprintf(f, "%s\"%s\":%llu", t > 1 ? "," : "",
			ow_event_type_name(t), s->count[t]);
	if (s->count[0])
		fprintf(f, ",\"unknown\":%llu", s->count[0]);
	fprintf(f, "}");
	json_latency(f, "request_to_verdict_ns", &s->request_to_verdict);
	json_latency(f, "unreclaimable_to_kill_ns", &s->unreclaimable_to_kill);
	json_thrashing(f, s);
	fprintf(f, ",\"dropped_samples\":%llu", s->dropped_samples);
	if (c)
		json_checker(f, c);
	fprintf(f, "}\n");
	if (ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Summary statistics: nearest-rank percentiles on known arrays, the
 * latency series of a known trace, and the summary line, which the
 * decoder must accept.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdlib.h>
#include <string.h>
#include "stats.h"

#include "events.h"
#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static bool pct_is(unsigned long long *v, size_t n, size_t want_n,
		   unsigned long long min, unsigned long long median,
		   unsigned long long p95, unsigned long long max)
{
	struct ow_pct p;
	int ret = ow_percentiles(v, n, &p);

	if (ret != (n ? 0 : -1) || p.n != want_n || p.min != min ||
	    p.median != median || p.p95 != p95 || p.max != max) {
		tap_diag("n=%zu: got n %zu min %llu median %llu p95 %llu max %llu",
			 n, p.n, p.min, p.median, p.p95, p.max);
		return false;
	}
	return true;
}

static void test_percentiles(void)
{
	unsigned long long one[] = { 42 };
	unsigned long long two[] = { 9, 3 };
	unsigned long long ten[] = { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 };
	unsigned long long twenty[20], hundred[100], dup[] = { 5, 5, 5, 1 };

	for (int i = 0; i < 20; i++)
		twenty[i] = 20 - i;
	for (int i = 0; i < 100; i++)
		hundred[(i * 37) % 100] = i + 1;	/* a permutation */

	tap_ok(pct_is(NULL, 0, 0, 0, 0, 0, 0), "percentiles: n=0 is all zero");
	tap_ok(pct_is(one, 1, 1, 42, 42, 42, 42), "percentiles: n=1");
	tap_ok(pct_is(two, 2, 2, 3, 3, 9, 9),
	       "percentiles: n=2, median is the lower middle (rank 1)");
	tap_ok(pct_is(ten, 10, 10, 1, 5, 10, 10),
	       "percentiles: n=10, p95 is rank 10");
	tap_ok(pct_is(twenty, 20, 20, 1, 10, 19, 20),
	       "percentiles: n=20, p95 is rank 19");
	tap_ok(pct_is(hundred, 100, 100, 1, 50, 95, 100),
	       "percentiles: n=100 shuffled");
	tap_ok(pct_is(dup, 4, 4, 1, 5, 5, 5), "percentiles: duplicates");
}

static const struct oomwatch_event trace[] = {
	E(0, OW_UNRECLAIMABLE_SET, .unrecl = { .nid = 0 }),
	E(10, OW_OOM_REQUEST, .request = { .pid = 1 }),
	E(12, OW_OOM_DEFER, .request = { .pid = 1 }),	/* no verdict */
	E(13, OW_OOM_VETO, .request = { .pid = 1 }),	/* 3 ms */
	E(20, OW_OOM_REQUEST, .request = { .pid = 2 }),
	E(50, OW_OOM_REQUEST, .request = { .pid = 2 }),	/* still waiting */
	E(5000, OW_UNRECLAIMABLE_CLEAR, .unrecl = { .nid = 0,
		.reason = OW_CLEAR_TIMEOUT }),		/* still hopeless */
	E(5001, OW_UNRECLAIMABLE_SET, .unrecl = { .nid = 0 }),
	E(5010, OW_OOM_REQUEST, .request = { .pid = 7 }),
	E(5015, OW_OOM_REQUEST, .request = { .pid = 8, .nid = 2 }),
	E(5020, OW_OOM_GRANT, .grant = { .pid = 2 }),	/* 5000 ms, 10 ms */
	E(5030, OW_MARK_VICTIM, .victim = { .pid = 3 }),	/* node 0: 5030 */
	E(5040, OW_MARK_VICTIM, .victim = { .pid = 4,
		.constraint = OW_CONSTRAINT_MEMCG }),	/* no episode */
	E(6000, OW_UNRECLAIMABLE_SET, .unrecl = { .nid = 1 }),
	E(6100, OW_UNRECLAIMABLE_CLEAR, .unrecl = { .nid = 1,
		.reason = OW_CLEAR_PROGRESS }),		/* starts over */
	E(7000, OW_UNRECLAIMABLE_SET, .unrecl = { .nid = 1 }),
	E(7000, OW_OOM_REQUEST, .request = { .pid = 5 }),
	E(7300, OW_OOM_FALLBACK, .request = { .pid = 5 }),	/* 300 ms */
	E(7500, OW_MARK_VICTIM, .victim = { .pid = 6 }),	/* node 1: 500 */
	{ .ts_ns = MS(7600), .type = 99 },
};

static void feed_trace(struct ow_stats *s, struct ow_checker *c)
{
	ow_stats_init(s, NULL);
	ow_checker_init(c, NULL, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(trace); i++) {
		struct oomwatch_event ev = trace[i];

		ev.seq = i;
		ow_stats_feed(s, &ev);
		ow_checker_feed(c, &ev);
	}
	ow_stats_lost(s, 2);
	ow_checker_lost(c, 2);
	ow_checker_finish(c, MS(8000));
}

static void test_series(void)
{
	struct ow_stats s;
	struct ow_checker c;
	struct ow_pct p;
	bool ok;

	feed_trace(&s, &c);
	ok = s.events == ARRAY_SIZE(trace) && s.episodes == 2 &&
	     s.count[OW_MARK_VICTIM] == 3 && s.count[OW_OOM_REQUEST] == 6 &&
	     s.count[0] == 1 && s.lost == 2;
	tap_ok(ok, "stats: counts per type, unknown types, episodes, lost");

	ow_percentiles(s.request_to_verdict.v, s.request_to_verdict.n, &p);
	/* 3 (veto), 10 (grant on its node), 300 (fallback), 5000 (grant) */
	tap_ok(p.n == 4 && p.min == MS(3) && p.median == MS(10) &&
	       p.p95 == MS(5000) && p.max == MS(5000) &&
	       ow_episodes_waiting_on(ow_ep_of(&s.ep), 2) == 1 &&
	       ow_episodes_request(ow_ep_of(&s.ep), 8),
	       "stats: request -> verdict: veto, fallback, every request on "
	       "the grant's node; not defer; clock from the first request");
	ow_percentiles(s.unreclaimable_to_kill.v, s.unreclaimable_to_kill.n,
		       &p);
	tap_ok(p.n == 2 && p.min == MS(500) && p.max == MS(5030),
	       "stats: unreclaimable -> kill, a timer clear does not restart");
	ow_stats_free(&s);
	ow_checker_free(&c);
}

/* #15 item 1: every member of a memory.oom.group kill, one episode. */
static void test_group_kill(void)
{
	static const struct oomwatch_event group[] = {
		E(0, OW_UNRECLAIMABLE_SET, .unrecl = { .nid = 0 }),
		E(5000, OW_OOM_GRANT, .grant = { .pid = 10 }),
		E_BY(5001, OW_MARK_VICTIM, 10, "w", .victim = { .pid = 20 }),
		E_BY(5001, OW_MARK_VICTIM, 10, "w", .victim = { .pid = 21 }),
		E_BY(5002, OW_MARK_VICTIM, 10, "w", .victim = { .pid = 22 }),
	};
	struct ow_stats s;
	bool ok;

	ow_stats_init(&s, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(group); i++) {
		struct oomwatch_event ev = group[i];

		ev.seq = i;
		ow_stats_feed(&s, &ev);
	}
	ok = s.episodes == 1 && s.unreclaimable_to_kill.n == 1;
	if (!ok)
		tap_diag("%llu episodes, %zu samples", s.episodes,
			 s.unreclaimable_to_kill.n);
	tap_ok(ok, "stats: a memory.oom.group kill of 3 members is 1 episode");
	ow_stats_free(&s);
}

/* #15 items 3 and 8: a node's recovery ends the waits there, only there. */
static void test_recovery_ends_wait(void)
{
	static const struct oomwatch_event t[] = {
		E(0, OW_OOM_REQUEST, .request = { .pid = 1, .nid = 0 }),
		E(10, OW_OOM_REQUEST, .request = { .pid = 2, .nid = 1 }),
		E(40, OW_UNRECLAIMABLE_CLEAR, .unrecl = { .nid = 1,
			.reason = OW_CLEAR_PROGRESS }),
		E(45, OW_OOM_VETO, .request = { .pid = 2, .nid = 1,
			.reason = OW_VETO_RECOVERED }),	/* no second sample */
	};
	struct ow_stats s;
	bool ok;

	ow_stats_init(&s, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct oomwatch_event ev = t[i];

		ev.seq = i;
		ow_stats_feed(&s, &ev);
	}
	ok = s.request_to_verdict.n == 1 &&
	     s.request_to_verdict.v[0] == MS(30) &&
	     ow_episodes_waiting_on(ow_ep_of(&s.ep), 0) == 1;
	tap_ok(ok, "stats: recovery on node 1 ends its wait, not node 0's");
	ow_stats_free(&s);
}

static void test_output(void)
{
	struct ow_stats s;
	struct ow_checker c;
	struct ow_record rec;
	char *buf = NULL, why[OW_ERR_MAX];
	size_t len = 0;
	FILE *f;
	bool ok;

	feed_trace(&s, &c);
	f = open_memstream(&buf, &len);
	ow_stats_write_json(f, OOMWATCH_FORMAT_VERSION, &s, &c);
	fclose(f);
	ok = len > 0 && buf[len - 1] == '\n' && len < OW_LINE_MAX &&
	     !ow_json_decode_line(buf, len - 1, &rec, why, sizeof(why)) &&
	     rec.kind == OW_REC_SUMMARY &&
	     strstr(buf, "\"episodes\":2,") &&
	     strstr(buf, "\"request_to_verdict_ns\":{\"n\":4,\"min\":3000000,"
			 "\"median\":10000000,\"p95\":5000000000,"
			 "\"max\":5000000000}") &&
	     strstr(buf, "\"record_whole\":1") &&
	     strstr(buf, "\"checked\":[\"record_whole\"]") &&
	     strstr(buf, "\"unknown\":1");
	if (!tap_ok(ok, "summary line: decodes as a summary, carries the numbers"))
		tap_diag("%s %s", buf, why);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	ow_stats_print(f, &s, &c);
	fclose(f);
	ok = strstr(buf, "summary: 20 events, 2 OOM episodes, 2 lost") &&
	     strstr(buf, "request -> verdict") &&
	     strstr(buf, "n=4 min 3.000 median 10.000 p95 5000.000 max 5000.000 ms") &&
	     strstr(buf, "6 record_whole           1 violation") &&
	     strstr(buf, "1 no_kill_without_grant  not checked");
	if (!tap_ok(ok, "human summary: counts, latencies, invariants"))
		tap_diag("%s", buf);
	free(buf);
	ow_stats_free(&s);

	/* No checker, no samples: still a valid summary line. */
	ow_stats_init(&s, NULL);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ow_stats_write_json(f, OOMWATCH_FORMAT_VERSION, &s, NULL);
	ow_stats_print(f, &s, NULL);
	fclose(f);
	ok = !ow_json_decode_line(buf, strchr(buf, '\n') - buf, &rec, why,
				  sizeof(why)) &&
	     !strstr(buf, "violations") && strstr(buf, "no samples");
	tap_ok(ok, "summary of nothing, without a checker");
	free(buf);
	ow_stats_free(&s);
	ow_checker_free(&c);
}

/* The summary's output of s, JSON first; the caller frees it. */
static char *summary_of(struct ow_stats *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ow_stats_write_json(f, OOMWATCH_FORMAT_VERSION, s, NULL);
	ow_stats_print(f, s, NULL);
	fclose(f);
	return buf;
}

static void test_thrashing(void)
{
	static const struct oomwatch_event thrash[] = {
		E(0, OW_THRASHING_SET, .thrash = { .nid = 0 }),
		E(5000, OW_THRASHING_SET, .thrash = { .nid = 1 }),
		E(6000, OW_THRASHING_CLEAR, .thrash = { .nid = 1,
			.duration_ms = 1000 }),
		E(10000, OW_THRASH_GRANT, .thrash_grant = { .nid = 0 }),
		E(10001, OW_THRASH_TAKE, .take = { .pid = 9, .nid = 0 }),
		E(12000, OW_THRASHING_CLEAR, .thrash = { .nid = 0,
			.duration_ms = 12000 }),
		E(20000, OW_THRASHING_SET, .thrash = { .nid = 0 }),
		E(20500, OW_THRASHING_SET, .thrash = { .nid = 0 }), /* again */
		E(30000, OW_KSWAPD_WAKE, .kswapd = { .nid = 0 }),
	};
	struct ow_stats s;
	struct ow_record rec;
	char *buf, why[OW_ERR_MAX] = "";
	bool ok;

	ow_stats_init(&s, NULL);
	buf = summary_of(&s);
	ok = strstr(buf, "\"thrashing\":[],\"thrashing_nodes\":0,") &&
	     !strstr(buf, "thrash rule");
	free(buf);
	for (size_t i = 0; i < ARRAY_SIZE(thrash); i++)
		ow_stats_feed(&s, &thrash[i]);
	buf = summary_of(&s);
	ok = ok && strstr(buf, "\"thrashing\":[{\"nid\":0,\"sets\":2,"
			  "\"thrashing_ms\":22000,\"grants\":1,\"takes\":1},"
			  "{\"nid\":1,\"sets\":1,\"thrashing_ms\":1000,"
			  "\"grants\":0,\"takes\":0}],\"thrashing_nodes\":2,") &&
	     strstr(buf, "  thrashing (the thrash rule):\n"
		    "    node 0: 2 sets, 22.000 s thrashing (still at the end), "
		    "1 grant, 1 take\n"
		    "    node 1: 1 set, 1.000 s thrashing, 0 grants, 0 takes\n");
	if (!ok)
		tap_diag("%s", buf);
	tap_ok(ok, "stats: per node thrash sets, time thrashing (an open "
	       "spell up to the last event), grants, takes");
	free(buf);
	ow_stats_free(&s);

	/* Many nodes: the summary line lists 8, says how many, stays a line. */
	ow_stats_init(&s, NULL);
	for (int n = 0; n < 300; n++) {
		struct oomwatch_event ev = E(n, OW_THRASHING_SET,
					     .thrash = { .nid = -n });

		ev.seq = n;
		ow_stats_feed(&s, &ev);
	}
	buf = summary_of(&s);
	ok = strchr(buf, '\n') && strchr(buf, '\n') - buf < OW_LINE_MAX &&
	     !ow_json_decode_line(buf, strchr(buf, '\n') - buf, &rec, why,
				  sizeof(why)) &&
	     strstr(buf, "\"thrashing_nodes\":300,") &&
	     strstr(buf, "{\"nid\":-292,") && !strstr(buf, "{\"nid\":-291,") &&
	     strstr(buf, "    node -291: 1 set");
	if (!ok)
		tap_diag("%.300s / %s", buf, why);
	tap_ok(ok, "stats: 300 thrashing nodes, the summary line lists %d and "
	       "stays within %d bytes; the human summary lists all",
	       OW_STATS_THRASH_NODES, OW_LINE_MAX);
	free(buf);
	ow_stats_free(&s);
}

int main(void)
{
	test_percentiles();
	test_series();
	test_group_kill();
	test_recovery_ends_wait();
	test_output();
	test_thrashing();
	return tap_done();
}

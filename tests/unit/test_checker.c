// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The invariant checker, table-driven: for every invariant, traces that
 * keep it and traces that break it, each asserting the exact list of
 * (invariant, seq) reported; then the fixtures of tests/fixtures read
 * through the decoder.
 *
 * In the C tables an event's seq is its index in the trace (cpu 0, so the
 * timestamps must not go backwards), unless the case is "raw".
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdlib.h>
#include <string.h>
#include "checker.h"
#include "trace.h"

#include "events.h"
#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NONE		OW_NO_SEQ

/* ------------------------------------------------- building the traces */

#define REQ(t, p)	E(t, OW_OOM_REQUEST, .request = { .pid = (p), \
						  .comm = "waiter" })
#define DEFER(t, p)	E(t, OW_OOM_DEFER, .request = { .pid = (p), \
					.reason = OW_RULE_TOO_SOON })
#define VETO(t, p)	E(t, OW_OOM_VETO, .request = { .pid = (p), \
					.reason = OW_VETO_ALLOC_OK })
#define VETO_R(t, p, n, r) E(t, OW_OOM_VETO, .request = { .pid = (p), \
					.nid = (n), .reason = (r) })
#define REQ_N(t, p, n)	E(t, OW_OOM_REQUEST, .request = { .pid = (p), \
					.nid = (n), .comm = "waiter" })
#define GRANT_NC(t, p, n, ms) E(t, OW_OOM_GRANT, .grant = { .pid = (p), \
		.nid = (n), .unreclaimable_ms = (ms), .looping = 1, \
		.nr_zones = 1, .zone = { { 5, 10 } } })
#define GRANT_N(t, p, n) GRANT_NC(t, p, n, 5000)
#define FALLBACK(t, p)	E(t, OW_OOM_FALLBACK, .request = { .pid = (p) })
#define GRANT_EV(t, p, ms, low, loop, nr, free0) \
	E(t, OW_OOM_GRANT, .grant = { .pid = (p), .unreclaimable_ms = (ms), \
		.low_reclaimed = (low), .looping = (loop), .nr_zones = (nr), \
		.zone = { { (free0), 10 }, { 20, 20 } } })
#define GRANT(t, p)	GRANT_EV(t, p, 5000, 0, 1, 2, 5)
#define KILLC(t, v, c)	E(t, OW_MARK_VICTIM, .victim = { .pid = (v), \
					.constraint = (c), .comm = "hog" })
#define KILL(t, v)	KILLC(t, v, OW_CONSTRAINT_GLOBAL)
#define EXIT(t, p)	E(t, OW_TASK_EXIT, .exit = { .pid = (p), .tgid = (p) })
#define REAPED(t, p)	E(t, OW_FINISH_REAPING, .reaper = { .pid = (p) })
#define SET(t, n)	E(t, OW_UNRECLAIMABLE_SET, .unrecl = { .nid = (n), \
						       .failures = 16 })
#define CLEAR(t, n, r, d) E(t, OW_UNRECLAIMABLE_CLEAR, .unrecl = { \
		.nid = (n), .reason = OW_CLEAR_##r, .duration_ms = (d) })
#define KEPT_N(t, nr, n) E(t, OW_TOKEN_KEPT, .token_pass = { \
		.holder_tgid = 7, .nid = (n), .priority = 3, .nr_folios = (nr) })
#define KEPT(t, nr)	KEPT_N(t, nr, 0)
#define BYPASS(t)	E(t, OW_TOKEN_BYPASS, .token_pass = { .holder_tgid = 7, \
					.priority = 2, .nr_folios = 64 })
#define GRAB_TOKEN(t, p) E(t, OW_TOKEN_GRAB, .token = { .tgid = (p), \
					.reason = OW_TOKEN_FREE })
#define RELEASE(t, p)	E(t, OW_TOKEN_RELEASE, .token = { .tgid = (p), \
					.reason = OW_TOKEN_IDLE })
#define TICK(t)		E(t, OW_KSWAPD_WAKE, .kswapd = { .nid = 0 })
/* A kill by task k (the one in out_of_memory()), a task k's own event. */
#define KILL_BY(t, k, v) E_BY(t, OW_MARK_VICTIM, k, "waiter", .victim = { \
		.pid = (v), .constraint = OW_CONSTRAINT_GLOBAL, .comm = "hog" })
#define RECLAIM_BY(t, k) E_BY(t, OW_DIRECT_BEGIN, k, "waiter", \
		.direct = { .order = 0 })
#define RAW(s, c, t)	{ .seq = (s), .cpu = (c), .ts_ns = MS(t), \
			  .type = OW_KSWAPD_WAKE }
/*
 * The thrash rule: a set traced when its window of w ms closed (the node
 * thrashes since w ms before it), a grant with one zone, a take by p.
 * TSET's window is 0 ms, so that t is when the node began to thrash.
 */
#define TSETW(t, n, w)	E(t, OW_THRASHING_SET, .thrash = { .nid = (n), \
		.window_ms = (w), .refaulted = 5000, .reclaimed = 6000 })
#define TSET(t, n)	TSETW(t, n, 0)
#define TCLEAR_R(t, n, d, r) E(t, OW_THRASHING_CLEAR, .thrash = { \
		.nid = (n), .reason = (r), .duration_ms = (d), .window_ms = 1000 })
#define TCLEAR(t, n, d)	TCLEAR_R(t, n, d, OW_THRASH_CALM)
#define TGRANT_SW(t, n, ms, sfree, stotal) E(t, OW_THRASH_GRANT, \
		.thrash_grant = { .nid = (n), .thrashing_ms = (ms), \
		.swap_free = (sfree), .swap_total = (stotal), .nr_zones = 1, \
		.zone = { { 100, 128 } } })
#define TGRANT(t, n, ms) TGRANT_SW(t, n, ms, 0, 0)
/* A format 4 grant: its last window's counts (w ms). */
#define TGRANT_W(t, n, ms, w, ref, flt, nr, rec) E(t, OW_THRASH_GRANT, \
		.thrash_grant = { .nid = (n), .thrashing_ms = (ms), \
		.window_ms = (w), .refaulted = (ref), .faulted = (flt), \
		.near = (nr), .reclaimed = (rec), .anon = 50000, \
		.nr_zones = 1, .zone = { { 100, 128 } } })
#define TAKE(t, p, n)	E_BY(t, OW_THRASH_TAKE, p, "waiter", .take = { \
		.pid = (p), .nid = (n), .comm = "waiter" })

/* Initialises the two members .ev and .n. */
#define TRACE(...) \
	.ev = (const struct oomwatch_event[]){ __VA_ARGS__ }, \
	.n = ARRAY_SIZE(((const struct oomwatch_event[]){ __VA_ARGS__ }))

struct expect {
	int inv;			/* 0 ends the list */
	unsigned long long seq;
};

struct ccase {
	const char *name;
	const struct ow_config *cfg;
	const struct oomwatch_event *ev;
	size_t n;
	bool raw;			/* keep the events' seq and cpu */
	unsigned long long lost;	/* fed after the events */
	unsigned long long end_ms;	/* finish(); 0: at the last event */
	unsigned int pending;		/* requests pending after finish */
	struct expect want[4];
	const char *says;		/* in the first violation's message */
};

/*      arbiter timeout fallback token bypass_prio thrash thrash_timeout */
static const struct ow_config ARB = { 1, 5000, 10000, 0, 2, 0, 10000 };
static const struct ow_config ARB_TOKEN = { 1, 5000, 10000, 1, 2, 0, 10000 };
static const struct ow_config STOCK = { 0, 5000, 10000, 0, 2, 0, 10000 };
static const struct ow_config THRASH = { 1, 5000, 10000, 0, 2, 1, 10000 };
static const struct ow_config TOKEN_NEVER = { 0, 5000, 10000, 1, -1, 0, 10000 };
static const struct ow_config UNKNOWN = {
	OW_CONFIG_UNKNOWN, OW_CONFIG_UNKNOWN, OW_CONFIG_UNKNOWN,
	OW_CONFIG_UNKNOWN, OW_CONFIG_UNKNOWN, OW_CONFIG_UNKNOWN,
	OW_CONFIG_UNKNOWN,
};

#define I1 OW_INV_NO_KILL_WITHOUT_GRANT
#define I2 OW_INV_ONE_KILL_PER_EPISODE
#define I3 OW_INV_LIVENESS
#define I4 OW_INV_TOKEN_YIELDS
#define I5 OW_INV_TIMER_WORKS
#define I6 OW_INV_RECORD_WHOLE
#define I7 OW_INV_THRASH_TIMER
#define I8 OW_INV_THRASH_RULE
#define I9 OW_INV_ONE_TAKE_PER_GRANT
#define I10 OW_INV_VERDICTS_NAME_WAITERS

static const struct ccase cases[] = {
	/* 1 no_kill_without_grant */
	{ "no_kill_without_grant: request, defer, grant, kill", &ARB,
	  TRACE(REQ(0, 10), DEFER(1, 10), GRANT(5000, 10), KILL(5001, 20),
		EXIT(5100, 20)) },
	{ "no_kill_without_grant: fallback permits the stock kill", &ARB,
	  TRACE(REQ(0, 10), FALLBACK(15000, 10), KILL_BY(15001, 10, 20)) },
	/*
	 * Stock allocations kill for themselves, each after its own
	 * fallback: the second kill here is allowed by task 11's fallback,
	 * although task 10's kill came after it.
	 */
	{ "no_kill_without_grant: two stock tasks, each kills after its fallback",
	  &ARB, TRACE(REQ(0, 10), REQ(0, 11), FALLBACK(15000, 10),
		      FALLBACK(15000, 11), KILL_BY(15001, 10, 20),
		      EXIT(15100, 20), KILL_BY(15200, 11, 21)) },
	{ "no_kill_without_grant: a fallback permits its own task's kill only (breaks)",
	  &ARB, TRACE(REQ(0, 10), FALLBACK(15000, 10), KILL_BY(15001, 11, 20)),
	  .want = { { I1, 2 } } },
	/* Its reclaim in between: not one memory.oom.group kill. */
	{ "no_kill_without_grant: one fallback, two kills by its task (breaks)",
	  &ARB, TRACE(REQ(0, 10), FALLBACK(15000, 10), KILL_BY(15001, 10, 20),
		      EXIT(15100, 20), RECLAIM_BY(15150, 10),
		      KILL_BY(15200, 10, 21)),
	  .want = { { I1, 5 } } },
	{ "no_kill_without_grant: a fallback is spent by its task's next request (breaks)",
	  &ARB, TRACE(REQ(0, 10), FALLBACK(15000, 10), REQ(16000, 10),
		      KILL_BY(16001, 10, 20)),
	  .pending = 1, .want = { { I1, 3 } } },
	{ "no_kill_without_grant: a stock kill leaves the grant to its owner",
	  &ARB, TRACE(REQ(0, 10), REQ(0, 11), FALLBACK(15000, 11),
		      KILL_BY(15001, 11, 20), EXIT(15100, 20),
		      GRANT_EV(15200, 10, 15200, 0, 1, 2, 5),
		      KILL_BY(15201, 10, 21)) },
	{ "no_kill_without_grant: memcg and sysrq kills are exempt", &ARB,
	  TRACE(KILLC(0, 20, OW_CONSTRAINT_MEMCG),
		KILLC(1, 21, OW_CONSTRAINT_SYSRQ)) },
	{ "no_kill_without_grant: not checked with the arbiter off", &STOCK,
	  TRACE(KILL(0, 20)) },
	{ "no_kill_without_grant: kill with no grant (breaks)", &ARB,
	  TRACE(REQ(0, 10), DEFER(1, 10), KILL(2, 20)),
	  .pending = 1, .want = { { I1, 2 } } },
	{ "no_kill_without_grant: one grant, two kills (breaks)", &ARB,
	  TRACE(GRANT(0, 10), KILL(1, 20), EXIT(2, 20), KILL(3, 21)),
	  .want = { { I1, 3 } } },
	{ "no_kill_without_grant: a nodemask kill needs a grant too (breaks)",
	  &ARB, TRACE(KILLC(0, 20, OW_CONSTRAINT_NODEMASK)),
	  .want = { { I1, 0 } } },
	{ "no_kill_without_grant: a granted nodemask kill keeps it", &ARB,
	  TRACE(REQ(0, 10), GRANT(5000, 10),
		KILLC(5001, 20, OW_CONSTRAINT_NODEMASK), EXIT(5100, 20)) },
	{ "no_kill_without_grant: unknown constraint counts as global (breaks)",
	  &ARB, TRACE(KILLC(0, 20, OW_CONSTRAINT_UNKNOWN)),
	  .want = { { I1, 0 } } },
	{ "no_kill_without_grant: grant before the timeout (breaks)", &ARB,
	  TRACE(GRANT_EV(0, 10, 4999, 0, 1, 2, 5), KILL(1, 20)),
	  .want = { { I1, 0 } } },
	{ "no_kill_without_grant: grant despite low-zone progress (breaks)",
	  &ARB, TRACE(GRANT_EV(0, 10, 5000, 3, 1, 2, 5)),
	  .want = { { I1, 0 } } },
	{ "no_kill_without_grant: grant with a zone above min (breaks)", &ARB,
	  TRACE(GRANT_EV(0, 10, 5000, 0, 1, 2, 11)),
	  .want = { { I1, 0 } } },
	{ "no_kill_without_grant: grant with nobody looping (breaks)", &ARB,
	  TRACE(GRANT_EV(0, 10, 5000, 0, 0, 2, 5)),
	  .want = { { I1, 0 } } },
	{ "no_kill_without_grant: grant without zone evidence (breaks)", &ARB,
	  TRACE(GRANT_EV(0, 10, 5000, 0, 1, 0, 5)),
	  .want = { { I1, 0 } } },
	/* #15 item 1: memory.oom.group kills every member in one OOM */
	{ "no_kill_without_grant: a memory.oom.group kill is one OOM", &ARB,
	  TRACE(REQ(0, 10), GRANT(5000, 10), KILL_BY(5001, 10, 20),
		KILL_BY(5001, 10, 21), KILL_BY(5002, 10, 22), EXIT(5100, 20),
		EXIT(5101, 21), EXIT(5102, 22)) },
	{ "no_kill_without_grant: the killer's own event ends its OOM (breaks)",
	  &ARB, TRACE(GRANT(0, 10), KILL_BY(1, 10, 20), RECLAIM_BY(2, 10),
		      KILL_BY(3, 10, 21)),
	  .want = { { I1, 3 } } },
	{ "no_kill_without_grant: another task's kill is not the group (breaks)",
	  &ARB, TRACE(GRANT(0, 10), KILL_BY(1, 10, 20), KILL_BY(2, 11, 21)),
	  .want = { { I1, 2 } } },
	/* #15 item 2: the grant's evidence against the recorded timeline */
	{ "no_kill_without_grant: grant 17 ms after recovery claims 5200 ms (breaks)",
	  &ARB, TRACE(CLEAR(0, 0, PROGRESS, 5200),
		      GRANT_EV(17, 10, 5200, 0, 1, 2, 5)),
	  .want = { { I1, 1 } } },
	{ "no_kill_without_grant: grant claims more than the set's age (breaks)",
	  &ARB, TRACE(SET(0, 0), GRANT_EV(3000, 10, 5000, 0, 1, 2, 5)),
	  .want = { { I1, 1 } } },
	{ "no_kill_without_grant: grant after the timer clear keeps its duration",
	  &ARB, TRACE(SET(0, 0), CLEAR(5000, 0, TIMEOUT, 5000),
		      GRANT(5100, 10), KILL(5101, 20)) },
	{ "no_kill_without_grant: grant on a node never seen is trusted", &ARB,
	  TRACE(SET(0, 1), GRANT_EV(10, 10, 5200, 0, 1, 2, 5)) },

	/* 2 one_kill_per_episode */
	{ "one_kill_per_episode: victim exits before the next grant", &ARB,
	  TRACE(GRANT(0, 10), KILL(1, 20), EXIT(2, 20), GRANT(3, 11),
		KILL(4, 21)) },
	{ "one_kill_per_episode: victim reaped before the next grant", &ARB,
	  TRACE(GRANT(0, 10), KILL(1, 20), REAPED(2, 20), GRANT(3, 11)) },
	{ "one_kill_per_episode: memory recovered before the next grant", &ARB,
	  TRACE(GRANT(0, 10), KILL(1, 20), CLEAR(2, 0, FREED, 100),
		SET(3, 0), GRANT(5003, 11)) },
	/* #15 item 1: one OOM, several members, one episode */
	{ "one_kill_per_episode: the group's members all exit, then a grant",
	  &ARB, TRACE(GRANT(0, 10), KILL_BY(1, 10, 20), KILL_BY(1, 10, 21),
		      EXIT(2, 20), EXIT(3, 21), GRANT(4, 11)) },
	{ "one_kill_per_episode: a group member still lives (breaks)", &ARB,
	  TRACE(GRANT(0, 10), KILL_BY(1, 10, 20), KILL_BY(1, 10, 21),
		EXIT(2, 20), GRANT(3, 11)),
	  .want = { { I2, 4 } } },
	{ "one_kill_per_episode: a group member after recovery reopens nothing",
	  &ARB, TRACE(GRANT(0, 10), KILL_BY(1, 10, 20), CLEAR(2, 0, FREED, 100),
		      KILL_BY(3, 10, 21), SET(4, 0), GRANT(5004, 11)) },
	/* #15 item 3: recovery is per node */
	{ "one_kill_per_episode: recovery on another node ends nothing (breaks)",
	  &ARB, TRACE(GRANT_N(0, 10, 0), KILL(1, 20),
		      CLEAR(2, 1, PROGRESS, 100), GRANT_N(3, 11, 0)),
	  .want = { { I2, 3 } } },
	{ "one_kill_per_episode: a vetoed grant kills nobody", &ARB,
	  TRACE(GRANT(0, 10), VETO(1, 10), GRANT(2, 11)) },
	{ "one_kill_per_episode: the grant's taker found memory (alloc_ok)",
	  &ARB, TRACE(REQ_N(0, 10, 0), REQ_N(1, 11, 0), GRANT_N(2, 10, 0),
		      VETO_R(3, 10, 0, OW_RULE_EPISODE_OPEN),
		      VETO_R(4, 11, 0, OW_VETO_ALLOC_OK), GRANT_N(5, 12, 0)) },
	/* a recovered veto comes from a waiter that found the grant owned */
	{ "one_kill_per_episode: reclaim recovered after the grant (breaks)",
	  &ARB, TRACE(GRANT_N(0, 10, 0), VETO_R(1, 11, 0, OW_VETO_RECOVERED),
		      GRANT_N(2, 12, 0)),
	  .want = { { I2, 2 } } },
	{ "one_kill_per_episode: episode_open vetoes do not spend the grant (breaks)",
	  &ARB, TRACE(REQ_N(0, 10, 0), REQ_N(1, 11, 0), GRANT_N(2, 10, 0),
		      VETO_R(3, 10, 0, OW_RULE_EPISODE_OPEN),
		      VETO_R(4, 11, 0, OW_RULE_EPISODE_OPEN), GRANT_N(5, 12, 0)),
	  .want = { { I2, 5 } } },
	{ "one_kill_per_episode: a veto on another node does not count (breaks)",
	  &ARB, TRACE(GRANT_N(0, 10, 0), VETO_R(1, 11, 1, OW_VETO_ALLOC_OK),
		      GRANT_N(2, 12, 0)),
	  .want = { { I2, 2 } } },
	{ "one_kill_per_episode: second grant while the victim lives (breaks)",
	  &ARB, TRACE(GRANT(0, 10), KILL(1, 20), GRANT(2, 11)),
	  .want = { { I2, 2 } } },
	{ "one_kill_per_episode: second grant before any kill (breaks)", &ARB,
	  TRACE(GRANT(0, 10), GRANT(1, 11)),
	  .want = { { I2, 1 } } },
	{ "one_kill_per_episode: a timer clear is no recovery (breaks)", &ARB,
	  TRACE(GRANT(0, 10), KILL(1, 20), CLEAR(2, 0, TIMEOUT, 5000),
		GRANT(3, 11)),
	  .want = { { I2, 3 } } },
	{ "one_kill_per_episode: another task's exit does not count (breaks)",
	  &ARB, TRACE(GRANT(0, 10), KILL(1, 20), EXIT(2, 21), GRANT(3, 11)),
	  .want = { { I2, 3 } } },

	/* 3 liveness: bound 5000 + 10000 + 250 ms */
	{ "liveness: request resolved by fallback in time", &ARB,
	  TRACE(REQ(0, 10), FALLBACK(15000, 10)) },
	{ "liveness: request resolved by its grant", &ARB,
	  TRACE(REQ(0, 10), GRANT_EV(6000, 10, 6000, 0, 1, 2, 5)) },
	{ "liveness: request resolved by a veto", &ARB,
	  TRACE(REQ(0, 10), VETO(100, 10)) },
	{ "liveness: request resolved by the requester's own kill", &STOCK,
	  TRACE(REQ(0, 10), KILL(100, 10)) },
	{ "liveness: request resolved by recovery", &ARB,
	  TRACE(REQ(0, 10), CLEAR(100, 0, PROGRESS, 100)) },
	{ "liveness: a young request at the end is pending, not late", &ARB,
	  TRACE(REQ(0, 10), TICK(1000)), .end_ms = 15250, .pending = 1 },
	{ "liveness: not checked without the sysctls", &UNKNOWN,
	  TRACE(REQ(0, 10)), .end_ms = 100000 },
	{ "liveness: deadline passes at a later event (breaks)", &ARB,
	  TRACE(REQ(0, 10), TICK(15251)),
	  .want = { { I3, 0 } } },
	{ "liveness: a late fallback (breaks)", &ARB,
	  TRACE(TICK(0), REQ(10, 10), DEFER(11, 10), FALLBACK(16000, 10)),
	  .want = { { I3, 1 } } },
	{ "liveness: still open at the end (breaks)", &ARB,
	  TRACE(REQ(0, 10)), .end_ms = 20000,
	  .want = { { I3, 0 } } },
	{ "liveness: a timer clear resolves nothing (breaks)", &ARB,
	  TRACE(REQ(0, 10), CLEAR(6000, 0, TIMEOUT, 5000)), .end_ms = 16000,
	  .want = { { I3, 0 } } },
	{ "liveness: a grant settles every request on its node", &ARB,
	  TRACE(REQ_N(0, 10, 0), REQ_N(1, 11, 0), REQ_N(2, 12, 0),
		GRANT_N(5000, 10, 0), KILL(5001, 20)), .end_ms = 16000 },
	{ "liveness: a grant naming another pid settles the request", &ARB,
	  TRACE(REQ(0, 10), GRANT(5000, 11), KILL(5001, 20)), .end_ms = 16000 },
	{ "liveness: episode_open and recovered vetoes resolve", &ARB,
	  TRACE(REQ_N(0, 10, 0), REQ_N(1, 11, 0),
		VETO_R(100, 10, 0, OW_RULE_EPISODE_OPEN),
		VETO_R(200, 11, 0, OW_VETO_RECOVERED)), .end_ms = 16000 },
	{ "liveness: a not_qualified fallback resolves", &ARB,
	  TRACE(REQ(0, 10), E(1, OW_OOM_FALLBACK, .request = { .pid = 10,
		.reason = OW_VETO_NOT_QUALIFIED })), .end_ms = 16000 },
	{ "liveness: another node's grant resolves nothing (breaks)", &ARB,
	  TRACE(REQ_N(0, 10, 0), GRANT_N(5000, 11, 1), KILL(5001, 20)),
	  .end_ms = 16000, .want = { { I3, 0 } } },
	/* #15 item 3: recovery settles the requests of its node only */
	{ "liveness: recovery on another node settles nothing (breaks)", &ARB,
	  TRACE(REQ_N(0, 10, 0), CLEAR(100, 1, PROGRESS, 100), TICK(29000)),
	  .want = { { I3, 0 } } },
	{ "liveness: recovery on the request's node settles it", &ARB,
	  TRACE(REQ_N(0, 10, 1), CLEAR(100, 1, PROGRESS, 100), TICK(29000)) },
	/* #15 item 4: no node or request limit */
	{ "liveness: a request on node 4096 is held to its bound (breaks)",
	  &ARB, TRACE(REQ_N(0, 10, 4096), CLEAR(100, 0, PROGRESS, 100),
		      TICK(29000)),
	  .want = { { I3, 0 } } },
	{ "liveness: a grant settles only the requests open then (breaks)",
	  &ARB, TRACE(REQ_N(0, 10, 0), GRANT_N(100, 10, 0), KILL(101, 20),
		      EXIT(102, 20), REQ_N(200, 11, 0)),
	  .end_ms = 16000, .want = { { I3, 4 } } },

	/* 4 token_yields */
	{ "token_yields: bypass in the episode", &TOKEN_NEVER,
	  TRACE(KEPT(0, 512), BYPASS(1), KILL(2, 20)) },
	{ "token_yields: the token kept nothing", &TOKEN_NEVER,
	  TRACE(KEPT(0, 0), KILL(1, 20)) },
	{ "token_yields: not checked with the token off", &STOCK,
	  TRACE(KEPT(0, 512), KILL(1, 20)) },
	{ "token_yields: memcg kill is exempt", &TOKEN_NEVER,
	  TRACE(KEPT(0, 512), KILLC(1, 20, OW_CONSTRAINT_MEMCG)) },
	{ "token_yields: the 2004 bug, kept and never bypassed (breaks)",
	  &TOKEN_NEVER, TRACE(KEPT(0, 512), KILL(1, 20)),
	  .want = { { I4, 1 } } },
	{ "token_yields: a bypass does not carry over episodes (breaks)",
	  &TOKEN_NEVER, TRACE(BYPASS(0), KEPT(1, 8), KILL(2, 20), KEPT(3, 8),
			      KILL(4, 21)),
	  .want = { { I4, 4 } } },
	{ "token_yields: the holder released the token after the kept pass",
	  &TOKEN_NEVER, TRACE(KEPT(0, 512), RELEASE(1, 7), KILL(2, 20)) },
	{ "token_yields: another process grabbed the token after it",
	  &TOKEN_NEVER, TRACE(KEPT(0, 512), RELEASE(1, 7), GRAB_TOKEN(2, 9),
			      KILL(3, 20)) },
	{ "token_yields: another task's release frees nothing (breaks)",
	  &TOKEN_NEVER, TRACE(KEPT(0, 512), RELEASE(1, 9), KILL(2, 20)),
	  .want = { { I4, 2 } } },
	{ "token_yields: kept again after the holder grabbed back (breaks)",
	  &TOKEN_NEVER, TRACE(KEPT(0, 512), RELEASE(1, 7), GRAB_TOKEN(2, 7),
			      KEPT(3, 8), KILL(4, 20)),
	  .want = { { I4, 4 } } },
	{ "token_yields: kept before the node went unreclaimable only",
	  &ARB_TOKEN, TRACE(KEPT(0, 8), SET(1, 0), GRANT(5001, 10),
			    KILL(5002, 20)) },
	{ "token_yields: kept after the node went unreclaimable (breaks)",
	  &ARB_TOKEN, TRACE(SET(0, 0), KEPT(1, 8), GRANT(5000, 10),
			    KILL(5001, 20)),
	  .want = { { I4, 3 } } },
	{ "token_yields: a bypass before the set does not count (breaks)",
	  &ARB_TOKEN, TRACE(BYPASS(0), SET(1, 0), KEPT(2, 8),
			    GRANT(5001, 10), KILL(5002, 20)),
	  .want = { { I4, 4 } } },
	{ "token_yields: another node's set leaves a kept pass (breaks)",
	  &ARB_TOKEN, TRACE(KEPT_N(0, 8, 1), SET(1, 0), GRANT(5001, 10),
			    KILL(5002, 20)),
	  .want = { { I4, 3 } } },
	{ "token_yields: applies with the arbiter on too (breaks)", &ARB_TOKEN,
	  TRACE(KEPT(0, 8), GRANT(1, 10), KILL(2, 20)),
	  .want = { { I4, 2 } } },

	/* 5 timer_works: bound 5000 + 1000 + 250 ms */
	{ "timer_works: cleared by the timer on time", &ARB,
	  TRACE(SET(0, 0), CLEAR(5000, 0, TIMEOUT, 5000)) },
	{ "timer_works: cleared by progress", &ARB,
	  TRACE(SET(0, 0), CLEAR(100, 0, PROGRESS, 100)) },
	{ "timer_works: cleared at the last moment", &ARB,
	  TRACE(SET(0, 0), CLEAR(6250, 0, TIMEOUT, 6250)) },
	{ "timer_works: slack absorbs an early timer", &ARB,
	  TRACE(SET(0, 0), CLEAR(4760, 0, TIMEOUT, 4750)) },
	{ "timer_works: not checked with the arbiter off", &STOCK,
	  TRACE(SET(0, 0), TICK(100000)) },
	{ "timer_works: never cleared, seen at a later event (breaks)", &ARB,
	  TRACE(SET(0, 0), REQ(0, 10), TICK(6251)),
	  .pending = 1, .want = { { I5, 0 } } },
	{ "timer_works: never cleared, seen at the end (breaks)", &ARB,
	  TRACE(SET(0, 0), REQ(0, 10)), .end_ms = 7000,
	  .pending = 1, .want = { { I5, 0 } } },
	{ "timer_works: cleared late (breaks)", &ARB,
	  TRACE(TICK(0), SET(1, 0), REQ(1, 10), CLEAR(7000, 0, TIMEOUT, 6999)),
	  .pending = 1, .want = { { I5, 1 } } },
	{ "timer_works: cleared by the timer too early (breaks)", &ARB,
	  TRACE(SET(0, 0), CLEAR(4000, 0, TIMEOUT, 4000)),
	  .want = { { I5, 1 } } },
	/* #15 item 2: judged from the recorded set -> clear timestamps */
	{ "timer_works: a timer clear 1.0 s after the set claims 5200 ms (breaks)",
	  &ARB, TRACE(SET(0, 0), CLEAR(1000, 0, TIMEOUT, 5200)),
	  .want = { { I5, 1 } } },
	{ "timer_works: a timer clear 5.2 s after the set claims 100 ms (breaks)",
	  &ARB, TRACE(SET(0, 0), CLEAR(5200, 0, TIMEOUT, 100)),
	  .want = { { I5, 1 } }, .says = "claims 100 ms" },
	{ "timer_works: a progress clear claims what the record denies (breaks)",
	  &ARB, TRACE(SET(0, 0), CLEAR(300, 0, PROGRESS, 3000)),
	  .want = { { I5, 1 } } },
	{ "timer_works: a claim within the jiffy tolerance", &ARB,
	  TRACE(SET(0, 0), CLEAR(5000, 0, TIMEOUT, 5019),
		SET(5100, 0), CLEAR(5200, 0, PROGRESS, 81)) },
	{ "timer_works: the set before the recording: the claim is trusted",
	  &ARB, TRACE(CLEAR(1000, 0, TIMEOUT, 5200)) },
	/* #15 item 4: no node limit */
	{ "timer_works: node 64 never cleared (breaks)", &ARB,
	  TRACE(SET(0, 64), REQ_N(0, 10, 64)), .end_ms = 7000,
	  .pending = 1, .want = { { I5, 0 } } },
	{ "timer_works: node 70000 never cleared (breaks)", &ARB,
	  TRACE(SET(0, 70000), REQ_N(0, 10, 70000)), .end_ms = 7000,
	  .pending = 1, .want = { { I5, 0 } } },
	{ "timer_works: a clear on another node does not count (breaks)", &ARB,
	  TRACE(SET(0, 0), REQ(0, 10), CLEAR(1000, 1, PROGRESS, 1000)),
	  .end_ms = 7000, .pending = 1, .want = { { I5, 0 } } },
	/*
	 * The kernel's timeout rescans a hopeless node only for waiting
	 * requests; with nobody waiting it leaves the node as stock does.
	 */
	{ "timer_works: a set with nobody waiting may last", &ARB,
	  TRACE(SET(0, 0), TICK(60000)), .end_ms = 70000 },
	{ "timer_works: a request on another node does not count", &ARB,
	  TRACE(SET(0, 0), REQ_N(0, 10, 1)), .end_ms = 7000 , .pending = 1},
	{ "timer_works: waiting ended before the deadline", &ARB,
	  TRACE(SET(0, 0), REQ(0, 10), VETO(3000, 10), TICK(60000)),
	  .end_ms = 70000 },
	{ "timer_works: a late request gets its clear from its own time", &ARB,
	  TRACE(SET(0, 0), REQ(20000, 10), CLEAR(20100, 0, TIMEOUT, 20100)) , .pending = 1},
	{ "timer_works: a late request, no clear within its deadline (breaks)",
	  &ARB, TRACE(SET(0, 0), REQ(20000, 10), TICK(26251)),
	  .pending = 1, .want = { { I5, 0 } } },
	/* a wait that ends past the deadline with no event in between */
	{ "timer_works: waiting ended by a fallback past the deadline (breaks)",
	  &ARB, TRACE(SET(0, 0), REQ(0, 10), FALLBACK(10000, 10), TICK(60000)),
	  .end_ms = 70000, .want = { { I5, 0 } } },
	{ "timer_works: waiting ended by a fallback, then a clear (breaks)",
	  &ARB, TRACE(SET(0, 0), REQ(0, 10), FALLBACK(10000, 10),
		      CLEAR(10002, 0, PROGRESS, 10002)),
	  .want = { { I5, 0 } } },
	/* a set before the recording: only "too early" can be judged */
	{ "timer_works: the set before the recording, a request, a long claim",
	  &ARB, TRACE(REQ(0, 10), CLEAR(100, 0, TIMEOUT, 60000)),
	  .pending = 1 },
	{ "timer_works: the set before the recording, progress after 60 s",
	  &ARB, TRACE(CLEAR(100, 0, PROGRESS, 60000)) },

	/* 6 record_whole */
	{ "record_whole: seq +1, time monotonic per cpu", &STOCK,
	  TRACE(RAW(5, 0, 10), RAW(6, 1, 5), RAW(7, 0, 11), RAW(8, 1, 6)),
	  .raw = true },
	{ "record_whole: a lost record of 0", &STOCK,
	  TRACE(TICK(0)), .lost = 0 },
	{ "record_whole: a gap in seq (breaks)", &STOCK,
	  TRACE(RAW(5, 0, 1), RAW(6, 0, 2), RAW(9, 0, 3)), .raw = true,
	  .want = { { I6, 9 } } },
	{ "record_whole: a duplicate seq (breaks)", &STOCK,
	  TRACE(RAW(5, 0, 1), RAW(6, 0, 2), RAW(6, 0, 3)), .raw = true,
	  .want = { { I6, 6 } } },
	{ "record_whole: seq out of order (breaks twice)", &STOCK,
	  TRACE(RAW(5, 0, 1), RAW(7, 0, 2), RAW(6, 0, 3)), .raw = true,
	  .want = { { I6, 7 }, { I6, 6 } } },
	{ "record_whole: time goes back on one cpu (breaks)", &STOCK,
	  TRACE(RAW(5, 0, 10), RAW(6, 1, 5), RAW(7, 0, 9)), .raw = true,
	  .want = { { I6, 7 } } },
	/* #15 item 4: no cpu limit */
	{ "record_whole: time goes back on cpu 512 (breaks)", &STOCK,
	  TRACE(RAW(5, 512, 10), RAW(6, 1, 5), RAW(7, 512, 9)), .raw = true,
	  .want = { { I6, 7 } } },
	{ "record_whole: time goes back on cpu 4000000000 (breaks)", &STOCK,
	  TRACE(RAW(5, 4000000000u, 10), RAW(6, 4000000000u, 9)), .raw = true,
	  .want = { { I6, 6 } } },
	{ "record_whole: events lost (breaks)", &STOCK,
	  TRACE(TICK(0)), .lost = 3,
	  .want = { { I6, NONE } } },

	/* 7 thrash_timer: timeout 10000 ms, tolerance 20 ms */
	{ "thrash_timer: set, grant after the timeout, take, kill, exit, clear",
	  &THRASH, TRACE(TSET(0, 0), TGRANT(10000, 0, 10000),
			 TAKE(10005, 10, 0), KILL_BY(10010, 10, 20),
			 EXIT(10100, 20), TCLEAR(12000, 0, 12000)) },
	{ "thrash_timer: the set's window counts: a grant 9 s after a set "
	  "that closed a 1 s window", &THRASH,
	  TRACE(TSETW(1000, 0, 1000), TGRANT(10000, 0, 10000),
		TCLEAR(12000, 0, 12000)) },
	{ "thrash_timer: ... 8.9 s after it (breaks)", &THRASH,
	  TRACE(TSETW(1000, 0, 1000), TGRANT(9900, 0, 10000)),
	  .want = { { I7, 1 } }, .says = "only 9900.000 ms after thrashing_set" },
	{ "thrash_timer: ... and a clear timed from the set's trace (breaks)",
	  &THRASH, TRACE(TSETW(1000, 0, 1000), TCLEAR(5000, 0, 4000)),
	  .want = { { I7, 1 } }, .says = "thrashing_clear seq 1" },
	{ "thrash_timer: a grant 19 ms short of the timeout, within tolerance",
	  &THRASH, TRACE(TSET(0, 0), TGRANT(9981, 0, 10000)) },
	{ "thrash_timer: a grant 9 s after the set (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT(9000, 0, 10000)),
	  .want = { { I7, 1 } }, .says = "only 9000.000 ms after thrashing_set" },
	{ "thrash_timer: a grant claiming less than the timeout (breaks)",
	  &THRASH, TRACE(TSET(0, 0), TGRANT(10000, 0, 9999)),
	  .want = { { I7, 1 } }, .says = "claims 9999 ms thrashing < timeout" },
	{ "thrash_timer: a claim 21 ms above the record (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT(10000, 0, 10021)),
	  .want = { { I7, 1 } }, .says = "it claims 10021 ms thrashing" },
	{ "thrash_timer: a claim 20 ms above the record", &THRASH,
	  TRACE(TSET(0, 0), TGRANT(10000, 0, 10020)) },
	{ "thrash_timer: a claim far below the record (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT(20000, 0, 10000)),
	  .want = { { I7, 1 } } },
	{ "thrash_timer: the next grant is timed from the last one (breaks)",
	  &THRASH, TRACE(TSET(0, 0), TGRANT(10000, 0, 10000),
			 TGRANT(15000, 0, 10000)),
	  .want = { { I7, 2 }, { I9, 2 } },
	  .says = "after oom_thrash_grant seq 1" },
	{ "thrash_timer: ... or from its kill (breaks)",
	  &THRASH, TRACE(TSET(0, 0), TGRANT(10000, 0, 10000),
			 TAKE(10001, 10, 0), KILL_BY(10002, 10, 20),
			 EXIT(10003, 20), TGRANT(15000, 0, 10000)),
	  .want = { { I7, 5 } }, .says = "after mark_victim seq 3" },
	/*
	 * A kill restarts every node's clock: on two CPUs, node 1's grant
	 * on a spell begun before node 0's kill came 78 ms after it.
	 */
	{ "thrash_timer: another node's grant 78 ms after a kill (breaks)",
	  &THRASH, TRACE(TSET(0, 0), TSET(0, 1), TGRANT(10000, 0, 10000),
			 TAKE(10001, 10, 0), KILL_BY(10002, 10, 20),
			 EXIT(10003, 20), TGRANT(10080, 1, 10080)),
	  .want = { { I7, 6 } }, .says = "only 78.000 ms after mark_victim seq 4" },
	{ "thrash_timer: another node's grant a timeout after the kill",
	  &THRASH, TRACE(TSET(0, 0), TSET(0, 1), TGRANT(10000, 0, 10000),
			 TAKE(10001, 10, 0), KILL_BY(10002, 10, 20),
			 EXIT(10003, 20), TGRANT(20002, 1, 10000)) },
	{ "thrash_timer: a memcg kill restarts the clock too (breaks)",
	  &THRASH, TRACE(TSET(0, 0), KILLC(5000, 20, OW_CONSTRAINT_MEMCG),
			 EXIT(5001, 20), TGRANT(10000, 0, 10000)),
	  .want = { { I7, 3 } }, .says = "after mark_victim seq 1" },
	{ "thrash_timer: a node first named after a kill is timed from it "
	  "(breaks)", &THRASH,
	  TRACE(KILLC(5000, 20, OW_CONSTRAINT_MEMCG), EXIT(5001, 20),
		TGRANT(10000, 0, 10000)),
	  .want = { { I7, 2 } }, .says = "after mark_victim seq 0" },
	{ "thrash_timer: a calm node's set after a kill starts its own clock",
	  &THRASH, TRACE(TSET(0, 0), TCLEAR(1000, 0, 1000),
			 KILLC(2000, 20, OW_CONSTRAINT_MEMCG), EXIT(2001, 20),
			 TSET(3000, 0),
			 TGRANT(13000, 0, 10000)) },
	{ "thrash_timer: the next grant a timeout after the last one", &THRASH,
	  TRACE(TSET(0, 0), TGRANT(10000, 0, 10000), TAKE(10001, 10, 0),
		KILL_BY(10002, 10, 20), EXIT(10003, 20),
		TGRANT(20000, 0, 10000)) },
	{ "thrash_timer: thrashing since before the recording: the claim "
	  "is trusted", &THRASH, TRACE(TGRANT(100, 0, 10000)) },
	{ "thrash_timer: ... but not a claim below the timeout (breaks)",
	  &THRASH, TRACE(TGRANT(100, 0, 5000)),
	  .want = { { I7, 0 } } },
	{ "thrash_timer: a clear's duration_ms 2 s off its set (breaks)",
	  &THRASH, TRACE(TSET(0, 0), TCLEAR(5000, 0, 3000)),
	  .want = { { I7, 1 } }, .says = "thrashing_clear seq 1" },
	{ "thrash_timer: a clear's duration_ms 20 ms off, and a disabled clear",
	  &THRASH, TRACE(TSET(0, 0), TCLEAR(5000, 0, 5020), TSET(6000, 0),
			 TCLEAR_R(7000, 0, 1000, OW_THRASH_DISABLED)) },
	{ "thrash_timer: not checked with the thrash rule off", &ARB,
	  TRACE(TSET(0, 0), TGRANT(100, 0, 50), TCLEAR(200, 0, 9)) },
	{ "thrash_timer: not checked without the thrash sysctls", &UNKNOWN,
	  TRACE(TSET(0, 0), TGRANT(100, 0, 50)) },

	/* 8 thrash_rule */
	{ "thrash_rule: a grant after the node calmed down (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TCLEAR(1000, 0, 1000), TGRANT(11000, 0, 11000)),
	  .want = { { I8, 2 } }, .says = "the node is not thrashing" },
	{ "thrash_rule: a grant when it thrashes again", &THRASH,
	  TRACE(TSET(0, 0), TCLEAR(1000, 0, 1000), TSET(2000, 0),
		TGRANT(12000, 0, 10000)) },
	{ "thrash_rule: a grant with 1/32 of swap free (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT_SW(10000, 0, 10000, 100, 3200)),
	  .want = { { I8, 1 } }, .says = "swap can help: 100 of 3200" },
	{ "thrash_rule: a grant with just under 1/32 of swap free", &THRASH,
	  TRACE(TSET(0, 0), TGRANT_SW(10000, 0, 10000, 99, 3200),
		TGRANT_SW(20000, 1, 20000, 100, 3201)) },
	{ "thrash_rule: a grant with all swap free (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT_SW(10000, 0, 10000,
				      18446744073709551615ULL,
				      18446744073709551615ULL)),
	  .want = { { I8, 1 } } },
	{ "thrash_rule: a grant while a memcg victim lives (breaks)", &THRASH,
	  TRACE(KILLC(0, 20, OW_CONSTRAINT_MEMCG), TSET(1, 0),
		TGRANT(10001, 0, 10000)),
	  .want = { { I8, 2 } }, .says = "victim pid 20 (hog) of mark_victim "
	  "seq 0 is alive" },
	{ "thrash_rule: a v4 grant on a window that thrashed", &THRASH,
	  TRACE(TSET(0, 0), TGRANT_W(10000, 0, 10000, 1000, 9000, 8000, 2000,
				     7999), TSET(10000, 1),
		TGRANT_W(20000, 1, 10000, 2000, 1024, 1024, 1024, 1024)) },
	{ "thrash_rule: a v4 grant on far refaults (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT_W(10000, 0, 10000, 1000, 20000, 20000,
				     2000, 20000)),
	  .want = { { I8, 1 } }, .says = "its last window did not thrash: "
	  "2000 near refaults against 20000 pages reclaimed in 1000 ms" },
	{ "thrash_rule: a v4 grant under half the floor (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT_W(10000, 0, 10000, 2000, 1023, 1023, 1023,
				     1023)),
	  .want = { { I8, 1 } } },
	{ "thrash_rule: a v4 grant after a 2.1 s window (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT_W(10000, 0, 10000, 2100, 9000, 9000, 9000,
				     9000)),
	  .want = { { I8, 1 } }, .says = "reclaim paused" },
	{ "thrash_rule: a v4 grant whose counts do not nest (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT_W(10000, 0, 10000, 1000, 9000, 8000, 8001,
				     9000)),
	  .want = { { I8, 1 } }, .says = "do not nest" },
	{ "thrash_rule: a grant after the victim exited", &THRASH,
	  TRACE(KILLC(0, 20, OW_CONSTRAINT_MEMCG), EXIT(5, 20), TSET(6, 0),
		TGRANT(10006, 0, 10000)) },
	{ "thrash_rule: a grant after the victim was reaped", &THRASH,
	  TRACE(KILLC(0, 20, OW_CONSTRAINT_MEMCG), REAPED(5, 20), TSET(6, 0),
		TGRANT(10006, 0, 10000)) },
	{ "thrash_rule: a grant while the last take's victim lives (breaks)",
	  &THRASH, TRACE(TSET(0, 0), TGRANT(10000, 0, 10000),
			 TAKE(10001, 10, 0), KILL_BY(10002, 10, 20),
			 TGRANT(20002, 0, 10000)),
	  .want = { { I8, 4 } } },
	{ "thrash_rule: not checked with the thrash rule off", &ARB,
	  TRACE(TSET(0, 0), TCLEAR(1000, 0, 1000),
		TGRANT_SW(10000, 0, 10000, 5, 5)) },

	/* 9 one_take_per_grant */
	{ "one_take_per_grant: a take with no grant (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TAKE(100, 10, 0)),
	  .want = { { I9, 1 } }, .says = "with no thrash grant outstanding" },
	{ "one_take_per_grant: a take on a node nothing was recorded of",
	  &THRASH, TRACE(TAKE(100, 10, 0)) },
	{ "one_take_per_grant: a take after the clear dropped the grant "
	  "(breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT(10000, 0, 10000), TCLEAR(10500, 0, 10500),
		TAKE(10600, 10, 0)),
	  .want = { { I9, 3 } } },
	{ "one_take_per_grant: a take on another node (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TSET(0, 1), TGRANT(10000, 0, 10000),
		TAKE(10001, 10, 1)),
	  .want = { { I9, 3 } } },
	{ "one_take_per_grant: two takes of one grant (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT(10000, 0, 10000), TAKE(10001, 10, 0),
		TAKE(10002, 11, 0)),
	  .want = { { I9, 3 } } },
	{ "one_take_per_grant: a second grant outstanding (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT(10000, 0, 10000), TGRANT(20000, 0, 10000)),
	  .want = { { I9, 2 } }, .says = "while the thrash grant seq 1" },
	{ "one_take_per_grant: a grant dropped by the clear, then a new one",
	  &THRASH, TRACE(TSET(0, 0), TGRANT(10000, 0, 10000),
			 TCLEAR(10500, 0, 10500), TSET(11000, 0),
			 TGRANT(21000, 0, 10000)) },
	{ "one_take_per_grant: a kill drops another node's untaken grant "
	  "(breaks)", &THRASH,
	  TRACE(TSET(0, 0), TSET(0, 1), TGRANT(10000, 0, 10000),
		TGRANT(10000, 1, 10000), TAKE(10001, 10, 0),
		KILL_BY(10002, 10, 20), TAKE(10003, 11, 1)),
	  .want = { { I9, 6 } } },
	{ "one_take_per_grant: one grant per node, two nodes", &THRASH,
	  TRACE(TSET(0, 0), TSET(0, 1), TGRANT(10000, 0, 10000),
		TGRANT(10000, 1, 10000), TAKE(10001, 10, 1),
		TAKE(10002, 11, 0)) },

	/* the thrash rule's kills, as the other invariants see them */
	{ "no_kill_without_grant: a take's memory.oom.group kill is one "
	  "granted OOM", &THRASH,
	  TRACE(TSET(0, 0), TGRANT(10000, 0, 10000), TAKE(10001, 10, 0),
		KILL_BY(10002, 10, 20), KILL_BY(10002, 10, 21),
		EXIT(10100, 20), EXIT(10101, 21)) },
	{ "no_kill_without_grant: one take, a second OOM (breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT(10000, 0, 10000), TAKE(10001, 10, 0),
		KILL_BY(10002, 10, 20), EXIT(10003, 20),
		KILL_BY(10004, 11, 21)),
	  .want = { { I1, 5 } } },
	{ "one_kill_per_episode: an oom_grant while the take's victim lives "
	  "(breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT(10000, 0, 10000), TAKE(10001, 10, 0),
		KILL_BY(10002, 10, 20), GRANT_NC(10003, 11, 0, 10003)),
	  .want = { { I2, 4 } }, .says = "of the oom_thrash_take seq 2" },
	{ "one_kill_per_episode: a take that killed nobody opens no episode",
	  &THRASH, TRACE(TSET(0, 0), TGRANT(10000, 0, 10000),
			 TAKE(10001, 10, 0), GRANT_NC(10003, 11, 0, 10003)) },
	{ "liveness: a request settled by its task's thrash take", &THRASH,
	  TRACE(REQ(0, 10), TSET(1, 0), TGRANT(10001, 0, 10000),
		TAKE(10002, 10, 0), KILL_BY(10003, 10, 20), EXIT(10004, 20),
		TICK(30000)) },

	/*
	 * #25: recordings wrong by the docs' own words, and their near
	 * misses.  Permits are tied to their task and their moment.
	 */
	{ "no_kill_without_grant: a take permits its taker's kill only (breaks)",
	  &THRASH, TRACE(TSET(0, 0), TGRANT(10000, 0, 10000),
			 TAKE(10001, 10, 0), KILL_BY(10002, 11, 20)),
	  .want = { { I1, 3 } } },
	{ "no_kill_without_grant: a take's permit ends with its OOM call (breaks)",
	  &THRASH, TRACE(TSET(0, 0), TGRANT(10000, 0, 10000),
			 TAKE(10001, 10, 0), RECLAIM_BY(12000, 10),
			 KILL_BY(40000, 10, 20)),
	  .want = { { I1, 4 } } },
	{ "no_kill_without_grant: another task's kill ends a take's OOM call "
	  "(breaks)", &THRASH,
	  TRACE(TSET(0, 0), TGRANT(10000, 0, 10000), TAKE(10001, 10, 0),
		E_BY(10002, OW_MARK_VICTIM, 11, "other", .victim = {
			.pid = 21, .constraint = OW_CONSTRAINT_MEMCG }),
		KILL_BY(10003, 10, 20)),
	  .want = { { I1, 4 } } },
	{ "no_kill_without_grant: a grant and a take, each kill has its permit",
	  &THRASH, TRACE(SET(0, 1), REQ_N(1, 30, 1), TSET(2, 0),
			 GRANT_N(5001, 30, 1), TGRANT(10002, 0, 10000),
			 TAKE(10003, 10, 0), KILL_BY(10004, 10, 20),
			 KILL_BY(10005, 30, 21)) },
	{ "one_take_per_grant: a node with nothing recorded trusts one take "
	  "(breaks)", &THRASH,
	  TRACE(TAKE(0, 10, 0), KILL_BY(1, 10, 20), EXIT(2, 20),
		TAKE(3, 11, 0), KILL_BY(4, 11, 21)),
	  .want = { { I9, 3 } } },
	{ "no_kill_without_grant: a take with the rule off (header) permits "
	  "nothing (breaks)", &ARB, TRACE(TAKE(0, 10, 0), KILL_BY(1, 10, 20)),
	  .want = { { I1, 1 } }, .says = "vm.oom_arbiter_thrash is 0" },
	{ "no_kill_without_grant: a grant naming a request that ended permits "
	  "nothing (breaks)", &ARB,
	  TRACE(REQ(0, 10), VETO_R(100, 10, 0, OW_VETO_RECOVERED),
		GRANT(5000, 10), KILL_BY(5001, 10, 20)),
	  .want = { { I10, 2 }, { I1, 3 } } },
	{ "no_kill_without_grant: a grant spent by alloc_ok permits nothing "
	  "(breaks)", &ARB,
	  TRACE(REQ(0, 10), GRANT(5000, 10), VETO(5001, 10), KILL(5002, 20)),
	  .want = { { I1, 3 } } },
	{ "no_kill_without_grant: a fallback ends when its task is killed "
	  "(breaks)", &ARB,
	  TRACE(REQ(0, 10), FALLBACK(15000, 10),
		KILLC(15001, 10, OW_CONSTRAINT_MEMCG), KILL_BY(15002, 10, 20)),
	  .want = { { I1, 3 } } },
	{ "no_kill_without_grant: a fallback after its task was killed permits "
	  "again", &ARB,
	  TRACE(REQ(0, 10), FALLBACK(15000, 10),
		KILLC(15001, 10, OW_CONSTRAINT_MEMCG), REQ(15002, 10),
		FALLBACK(15003, 10), KILL_BY(15004, 10, 20)) },
	/* Episodes survive fallbacks and other requests' vetoes. */
	{ "one_kill_per_episode: a fallback kill leaves the grant's episode "
	  "(breaks)", &ARB,
	  TRACE(REQ(0, 10), GRANT(5000, 10), REQ(5001, 12),
		FALLBACK(5002, 12), KILL_BY(5003, 12, 20),
		KILL_BY(5004, 10, 21), EXIT(5005, 20), REQ(5006, 13),
		GRANT(5007, 13)),
	  .want = { { I2, 8 } }, .says = "victim pid 21" },
	{ "one_kill_per_episode: a later request's veto leaves the grant "
	  "(breaks)", &ARB,
	  TRACE(REQ_N(0, 10, 0), GRANT_N(5000, 10, 0), REQ_N(5001, 11, 0),
		VETO_R(5002, 11, 0, OW_VETO_RECOVERED), KILL_BY(5003, 10, 20),
		REQ_N(5004, 12, 0), GRANT_N(5005, 12, 0)),
	  .want = { { I2, 6 } } },
	/* memory.oom.group: one out_of_memory() call, under oom_lock */
	{ "no_kill_without_grant: the killer's memcg kill ends its group (breaks)",
	  &ARB, TRACE(REQ(0, 10), GRANT(5000, 10), KILL_BY(5001, 10, 20),
		      E_BY(5002, OW_MARK_VICTIM, 10, "waiter", .victim = {
			      .pid = 21, .constraint = OW_CONSTRAINT_MEMCG }),
		      KILL_BY(5003, 10, 22)),
	  .want = { { I1, 4 } } },
	{ "no_kill_without_grant: a kill after the group's victims are gone "
	  "(breaks)", &ARB,
	  TRACE(REQ(0, 10), GRANT(5000, 10), KILL_BY(5001, 10, 20),
		EXIT(5002, 20), KILL_BY(35000, 10, 21)),
	  .want = { { I1, 4 } } },
	{ "no_kill_without_grant: a member marked after the first exited, at "
	  "once", &ARB,
	  TRACE(REQ(0, 10), GRANT(5000, 10), KILL_BY(5001, 10, 20),
		EXIT(5002, 20), KILL_BY(5003, 10, 21), EXIT(5100, 21)) },
	/* the token's kept passes, per node */
	{ "token_yields: a pass on another node keeps node 0's (breaks)",
	  &ARB_TOKEN, TRACE(KEPT_N(0, 64, 0), KEPT_N(1, 32, 1), SET(2, 1),
			    REQ(3, 10), FALLBACK(4, 10), KILL_BY(5, 10, 20)),
	  .want = { { I4, 5 } }, .says = "swap_token_kept seq 0" },
	{ "token_yields: a bypass on the kept pass's node", &ARB_TOKEN,
	  TRACE(KEPT_N(0, 64, 0), KEPT_N(1, 32, 1), SET(2, 1),
		E(3, OW_TOKEN_BYPASS, .token_pass = { .holder_tgid = 7,
			.nid = 0, .priority = 2, .nr_folios = 64 }),
		REQ(4, 10), FALLBACK(5, 10), KILL_BY(6, 10, 20)) },
	/* claims that put the start inside the recording */
	{ "no_kill_without_grant: a claim whose set would be in the recording "
	  "(breaks)", &ARB,
	  TRACE(TICK(0), REQ(20000, 10), GRANT_EV(25000, 10, 5000, 0, 1, 2, 5)),
	  .want = { { I1, 2 } }, .says = "no unreclaimable_set" },
	{ "no_kill_without_grant: a claim reaching before the recording", &ARB,
	  TRACE(TICK(0), REQ(20000, 10), GRANT_EV(25000, 10, 25000, 0, 1, 2, 5),
		KILL_BY(25001, 10, 20)) },
	{ "thrash_timer: a claim whose set would be in the recording (breaks)",
	  &THRASH, TRACE(TICK(0), TGRANT(30000, 0, 10000)),
	  .want = { { I7, 1 } }, .says = "no thrashing_set" },
	{ "thrash_timer: a claim reaching before the recording", &THRASH,
	  TRACE(TICK(0), TGRANT(30000, 0, 30010)) },
	/* a grant resolves the requests waiting on its node only */
	{ "liveness: a grant on another node naming the request resolves "
	  "nothing (breaks)", &ARB,
	  TRACE(REQ_N(0, 10, 0), GRANT_N(5000, 10, 1)), .end_ms = 16000,
	  .want = { { I10, 1 }, { I3, 0 } } },
	/* 10 verdicts_name_waiters */
	{ "verdicts_name_waiters: defers and a grant name the oldest waiter",
	  &ARB, TRACE(REQ(0, 10), REQ(1, 11), DEFER(2, 10), GRANT(5000, 10),
		      DEFER(5001, 10), KILL_BY(5002, 10, 20)) },
	{ "verdicts_name_waiters: a defer naming a request that ended (breaks)",
	  &ARB, TRACE(REQ(0, 10), VETO_R(100, 10, 0, OW_VETO_RECOVERED),
		      DEFER(200, 10)),
	  .want = { { I10, 2 } } },
	{ "verdicts_name_waiters: a defer naming a request on another node "
	  "(breaks)", &ARB,
	  TRACE(REQ_N(0, 10, 0), E(1, OW_OOM_DEFER, .request = { .pid = 10,
		.nid = 1, .reason = OW_RULE_TOO_SOON })),
	  .pending = 1, .want = { { I10, 1 } } },
	{ "verdicts_name_waiters: a request from before the recording", &ARB,
	  TRACE(TICK(0), DEFER(15000, 10)) },
	{ "verdicts_name_waiters: a request never made (breaks)", &ARB,
	  TRACE(TICK(0), DEFER(15251, 10)),
	  .want = { { I10, 1 } } },
	/* killed while waiting: listed until it wakes and falls back */
	{ "verdicts_name_waiters: a waiter killed, named before its fallback",
	  &ARB, TRACE(TICK(0), REQ(16000, 10),
		      KILLC(16001, 10, OW_CONSTRAINT_MEMCG), DEFER(16002, 10),
		      GRANT_EV(16003, 10, 16003, 0, 1, 2, 5),
		      E(16004, OW_OOM_FALLBACK, .request = { .pid = 10,
			.reason = OW_STOCK_DYING }),
		      KILL_BY(16005, 10, 20)) },
	{ "verdicts_name_waiters: ... and after it (breaks)", &ARB,
	  TRACE(TICK(0), REQ(16000, 10), KILLC(16001, 10, OW_CONSTRAINT_MEMCG),
		E(16002, OW_OOM_FALLBACK, .request = { .pid = 10,
		  .reason = OW_STOCK_DYING }), DEFER(16003, 10)),
	  .want = { { I10, 4 } } },
	{ "verdicts_name_waiters: not checked with the arbiter off", &STOCK,
	  TRACE(REQ(0, 10), VETO(100, 10), DEFER(200, 10)) },
};

/* ---------------------------------------------------------- the runner */

#define MAX_SEEN 16

struct seen {
	unsigned int n;
	struct ow_violation v[MAX_SEEN];
};

static void collect(void *ctx, const struct ow_violation *v)
{
	struct seen *s = ctx;

	if (s->n < MAX_SEEN)
		s->v[s->n] = *v;
	s->n++;
}

static bool matches(const struct seen *s, const struct expect *want,
		    unsigned int pending, const struct ow_checker *c)
{
	unsigned int n = 0;

	while (n < 4 && want[n].inv)
		n++;
	if (s->n != n || ow_checker_pending(c) != pending ||
	    ow_checker_violations(c, 0) != n)
		return false;
	for (unsigned int i = 0; i < n; i++)
		if (s->v[i].inv != want[i].inv || s->v[i].seq != want[i].seq ||
		    strcmp(s->v[i].name, ow_invariant_name(want[i].inv)) ||
		    strncmp(s->v[i].msg, s->v[i].name, strlen(s->v[i].name)))
			return false;
	return true;
}

static void show(const struct seen *s, const struct ow_checker *c)
{
	tap_diag("%u violations, %u pending:", s->n, ow_checker_pending(c));
	for (unsigned int i = 0; i < s->n && i < MAX_SEEN; i++)
		tap_diag("  [%d seq %lld] %s", s->v[i].inv,
			 (long long)s->v[i].seq, s->v[i].msg);
}

static void run_case(const struct ccase *k)
{
	struct ow_check_opts opts;
	struct ow_checker c;
	struct seen s = { 0 };
	unsigned long long last = 0;
	bool ok;

	ow_check_opts_default(&opts);
	opts.report = collect;
	opts.ctx = &s;
	ow_checker_init(&c, k->cfg, &opts);
	for (size_t i = 0; i < k->n; i++) {
		struct oomwatch_event ev = k->ev[i];

		if (!k->raw) {
			ev.seq = i;
			ev.cpu = 0;
		}
		ow_checker_feed(&c, &ev);
		last = ev.ts_ns;
	}
	ow_checker_lost(&c, k->lost);
	ow_checker_finish(&c, k->end_ms ? MS(k->end_ms) : last);
	ok = matches(&s, k->want, k->pending, &c) &&
	     (!k->says || (s.n && strstr(s.v[0].msg, k->says)));
	if (!tap_ok(ok, "%s", k->name))
		show(&s, &c);
	ow_checker_free(&c);
}

/* ------------------------------------------------------- other checks */

static void test_message(void)
{
	const struct oomwatch_event ev = {
		.seq = 812, .ts_ns = 12345678901ULL, .type = OW_MARK_VICTIM,
		.pid = 4, .victim = { .pid = 77, .comm = "hog" },
	};
	/* Another task's kill: the same task's would be one group OOM. */
	const struct oomwatch_event odd = {
		.seq = 813, .ts_ns = 12345678902ULL, .type = OW_MARK_VICTIM,
		.pid = 5, .victim = { .pid = 78, .comm = "a\\b\n\xff" },
	};
	struct ow_check_opts opts;
	struct ow_checker c;
	struct seen s = { 0 };

	ow_check_opts_default(&opts);
	opts.report = collect;
	opts.ctx = &s;
	ow_checker_init(&c, &ARB, &opts);
	ow_checker_feed(&c, &ev);
	ow_checker_feed(&c, &odd);
	tap_ok(s.n == 2 && s.v[0].ts_ns == ev.ts_ns &&
	       !strcmp(s.v[0].msg, "no_kill_without_grant: mark_victim seq 812 at 12.345678s: pid 4 killed pid 77 (hog) with no oom_fallback of its own, and no oom_grant or oom_thrash_take since the last kill") &&
	       strstr(s.v[1].msg, "killed pid 78 (a\\x5cb\\x0a\\xff) with"),
	       "message: names the event, its seq, time, victim; comm escaped");
	ow_checker_free(&c);
}

/* #15 item 9: ns where the us would print two times alike. */
static void test_message_ns(void)
{
	const struct oomwatch_event a = {
		.seq = 59, .ts_ns = 5926826500ULL, .type = OW_KSWAPD_WAKE,
	};
	const struct oomwatch_event b = {
		.seq = 60, .ts_ns = 5926826400ULL, .type = OW_KSWAPD_WAKE,
	};
	struct ow_check_opts opts;
	struct ow_checker c;
	struct seen s = { 0 };

	ow_check_opts_default(&opts);
	opts.report = collect;
	opts.ctx = &s;
	ow_checker_init(&c, &STOCK, &opts);
	ow_checker_feed(&c, &a);
	ow_checker_feed(&c, &b);
	if (!tap_ok(s.n == 1 && strstr(s.v[0].msg, "seq 60 on cpu 0 at 5.926826400s is earlier than seq 59 at 5.926826500s"),
		    "message: times in ns where the us hide the difference"))
		show(&s, &c);
	ow_checker_free(&c);
}

static void test_enabled(void)
{
	struct ow_checker c;
	bool ok;

	struct ow_config no_timeout = THRASH;

	ow_checker_init(&c, &ARB, NULL);
	ok = ow_checker_enabled(&c, I1) && ow_checker_enabled(&c, I2) &&
	     ow_checker_enabled(&c, I3) && !ow_checker_enabled(&c, I4) &&
	     ow_checker_enabled(&c, I5) && ow_checker_enabled(&c, I6) &&
	     !ow_checker_enabled(&c, I7) && !ow_checker_enabled(&c, I8) &&
	     !ow_checker_enabled(&c, I9) &&
	     ow_checker_enabled(&c, I10) &&
	     !ow_checker_enabled(&c, 0) && !ow_checker_enabled(&c, 11);
	ow_checker_init(&c, &THRASH, NULL);
	ok &= ow_checker_enabled(&c, I7) && ow_checker_enabled(&c, I8) &&
	      ow_checker_enabled(&c, I9);
	no_timeout.oom_thrash_timeout_ms = OW_CONFIG_UNKNOWN;
	ow_checker_init(&c, &no_timeout, NULL);
	ok &= !ow_checker_enabled(&c, I7) && ow_checker_enabled(&c, I8) &&
	      ow_checker_enabled(&c, I9);
	ow_checker_init(&c, NULL, NULL);
	for (int i = 1; i <= OW_NR_INVARIANTS; i++)
		ok &= !ow_checker_enabled(&c, i) == (i != I6);
	ok &= !ow_invariant_name(0) && !ow_invariant_name(11) &&
	      !strcmp(ow_invariant_name(I10), "verdicts_name_waiters") &&
	      !strcmp(ow_invariant_name(I4), "token_yields") &&
	      !strcmp(ow_invariant_name(I7), "thrash_timer") &&
	      !strcmp(ow_invariant_name(I8), "thrash_rule") &&
	      !strcmp(ow_invariant_name(I9), "one_take_per_grant");
	tap_ok(ok, "configuration decides which invariants are checked");
}

/* Feeding after finish is ignored: finish is final. */
static void test_limits(void)
{
	struct oomwatch_event ev = { .type = OW_OOM_REQUEST };
	struct ow_checker c;
	bool ok;

	ow_checker_init(&c, &ARB, NULL);
	for (unsigned int i = 0; i < 300; i++) {
		ev.seq = i;
		ev.request.pid = 1000 + i;
		ow_checker_feed(&c, &ev);
	}
	ow_checker_finish(&c, MS(20000));
	ok = ow_checker_violations(&c, I3) == 300;
	ev.seq = 99999;
	ow_checker_feed(&c, &ev);
	ow_checker_lost(&c, 5);
	ow_checker_finish(&c, MS(90000));
	ok &= ow_checker_violations(&c, 0) == 300;
	ow_checker_free(&c);
	tap_ok(ok, "limits: finish is final");
}

/* #15 item 4: the 257th open request is held to its bound too. */
static void test_many_requests(void)
{
	struct oomwatch_event ev = { .type = OW_OOM_REQUEST };
	struct ow_checker c;
	bool ok;

	ow_checker_init(&c, &ARB, NULL);
	for (unsigned int i = 0; i < 1000; i++) {
		ev.seq = i;
		ev.request.pid = 1000 + i;
		ow_checker_feed(&c, &ev);
	}
	ow_checker_finish(&c, MS(10000));
	ok = ow_checker_pending(&c) == 1000;
	ow_checker_finish(&c, MS(20000));
	ok &= ow_checker_violations(&c, I3) == 0;
	ow_checker_free(&c);
	ow_checker_init(&c, &ARB, NULL);
	for (unsigned int i = 0; i < 1000; i++) {
		ev.seq = i;
		ev.request.pid = 1000 + i;
		ow_checker_feed(&c, &ev);
	}
	ow_checker_finish(&c, MS(20000));
	ok &= ow_checker_violations(&c, I3) == 1000;
	ow_checker_free(&c);
	tap_ok(ok, "limits: 1000 open requests, every one held to its bound");
}

/* ------------------------------------------------------------ fixtures */

struct replay {
	struct ow_checker c;
	struct seen s;
	int records;
	char error[OW_ERR_MAX];
};

static int replay_file(const char *name, struct replay *r)
{
	struct ow_check_opts opts;
	struct ow_reader rd;
	struct ow_record rec;
	char path[512];
	unsigned long long last = 0;
	bool init = false;
	FILE *f;
	int ret;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/%s", FIXTURE_DIR, name);
	f = fopen(path, "r");
	if (!f) {
		snprintf(r->error, sizeof(r->error), "cannot open %.200s",
			 path);
		return -1;
	}
	ow_check_opts_default(&opts);
	opts.report = collect;
	opts.ctx = &r->s;
	ow_reader_init(&rd, f, name);
	while ((ret = ow_reader_next(&rd, &rec)) == 1) {
		r->records++;
		if (rec.kind == OW_REC_HEADER) {
			opts.kswapd_period_ms = rec.header.kswapd_period_ms;
			ow_checker_init(&r->c, &rec.header.config, &opts);
			init = true;
			continue;
		}
		if (!init) {
			ret = -1;
			snprintf(rd.error, sizeof(rd.error), "no header");
			break;
		}
		if (rec.kind == OW_REC_EVENT) {
			ow_checker_feed(&r->c, &rec.event);
			last = rec.event.ts_ns;
		} else if (rec.kind == OW_REC_LOST) {
			ow_checker_lost(&r->c, rec.lost.count);
		}
	}
	fclose(f);
	if (ret < 0) {
		snprintf(r->error, sizeof(r->error), "%s", ow_reader_error(&rd));
		return -1;
	}
	ow_checker_finish(&r->c, last);
	return 0;
}

struct fixture_case {
	const char *file;
	int records;
	unsigned int pending;
	struct expect want[4];
};

static const struct fixture_case fixtures[] = {
	{ "arbiter_ok.jsonl", 25, 0, { { 0, 0 } } },
	{ "token_bug_2004.jsonl", 9, 0, { { I4, 105 } } },
	{ "kill_without_grant.jsonl", 5, 1, { { I1, 2 } } },
	{ "stuck_request.jsonl", 13, 0, { { I3, 1 } } },
	{ "broken_record.jsonl", 6, 0,
	  { { I6, 44 }, { I6, 45 }, { I6, NONE } } },
	{ "memcg_v2.jsonl", 32, 0, { { 0, 0 } } },
	{ "thrash_v3.jsonl", 16, 0, { { 0, 0 } } },
};

static void test_fixtures(void)
{
	static struct replay r;

	for (size_t i = 0; i < ARRAY_SIZE(fixtures); i++) {
		const struct fixture_case *f = &fixtures[i];
		bool ok = !replay_file(f->file, &r);

		ok = ok && r.records == f->records &&
		     matches(&r.s, f->want, f->pending, &r.c);
		if (!tap_ok(ok, "fixture %s", f->file)) {
			tap_diag("%s (%d records)", r.error, r.records);
			show(&r.s, &r.c);
		}
		ow_checker_free(&r.c);
	}
}

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
	test_message();
	test_message_ns();
	test_enabled();
	test_limits();
	test_many_requests();
	test_fixtures();
	return tap_done();
}

// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The human timeline, line by line: each decision's reason chain, the
 * wording of every verdict reason, evidence that breaks the rule marked,
 * comm escaped, clocks, and state kept from events that are not shown.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdlib.h>
#include <string.h>
#include "output.h"

#include "events.h"
#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const struct ow_config ARB = { 1, 5000, 10000, 1, 2, 1, 10000 };

struct step {
	struct oomwatch_event ev;
	struct ow_requester who;
	bool hide;
};

/* Runs the steps into a string; the caller frees it. */
static char *timeline(const struct step *s, size_t n, enum ow_clock clock)
{
	static struct ow_out o;
	struct ow_out_opts opts = { .clock = clock, .cfg = ARB };
	char *buf = NULL;
	size_t len = 0;

	opts.f = open_memstream(&buf, &len);
	ow_out_init(&o, &opts, NULL);
	for (size_t i = 0; i < n; i++)
		ow_out_event(&o, &s[i].ev, &s[i].who, !s[i].hide);
	ow_out_free(&o);
	fclose(opts.f);
	return buf;
}

static bool contains(const char *buf, const char *want)
{
	if (strstr(buf, want))
		return true;
	tap_diag("missing: %s", want);
	return false;
}

static void test_arbiter_lines(void)
{
	static const struct step steps[] = {
		{ .ev = E_BY(1000, OW_OOM_REQUEST, 200, "hog", .request = { .pid = 200,
		    .comm = "hog", .gfp_flags = 0xcc0 }), .who = { true, 42 }, .hide = true },
		{ .ev = E_BY(1050, OW_OOM_REQUEST, 201, "by", .request = { .pid = 201,
		    .comm = "by" }), .who = { false, 0 } },
		{ .ev = E_BY(1100, OW_OOM_VETO, 30, "kswapd0", .request = { .pid = 201,
		    .reason = OW_VETO_RECOVERED }) },
		{ .ev = E_BY(1150, OW_OOM_REQUEST, 202, "w", .request = { .pid = 202,
		    .comm = "w" }) },
		{ .ev = E_BY(1200, OW_OOM_VETO, 202, "w", .request = { .pid = 202,
		    .reason = OW_RULE_EPISODE_OPEN }) },
		{ .ev = E_BY(1250, OW_OOM_REQUEST, 203, "x", .request = { .pid = 203,
		    .comm = "x" }) },
		{ .ev = E_BY(1300, OW_OOM_DEFER, 30, "kswapd0", .request = { .pid = 200,
		    .reason = OW_RULE_TOO_SOON }) },
		{ .ev = E_BY(6000, OW_OOM_GRANT, 30, "kswapd0", .grant = { .pid = 200,
		    .unreclaimable_ms = 4000, .looping = 0, .low_reclaimed = 7,
		    .nr_zones = 2, .zone = { { 10, 20 }, { 30, 25 } } }) },
		{ .ev = E_BY(6005, OW_OOM_VETO, 203, "x", .request = { .pid = 203,
		    .reason = OW_RULE_EPISODE_OPEN }) },
		{ .ev = E_BY(6010, OW_MARK_VICTIM, 200, "hog", .victim = { .pid = 200,
		    .comm = "hog", .anon_rss_kb = 100, .file_rss_kb = 20,
		    .shmem_rss_kb = 3, .total_vm_kb = 999, .oom_score_adj = -17,
		    .memcg_id = 42 }) },
		{ .ev = E_BY(6100, OW_FINISH_REAPING, 15, "oom_reaper",
		    .reaper = { .pid = 200 }) },
		{ .ev = E_BY(6200, OW_TASK_EXIT, 200, "hog", .exit = { .pid = 200,
		    .tgid = 200 }) },
	};
	char *b = timeline(steps, ARRAY_SIZE(steps), OW_CLOCK_NONE);
	bool ok;

	ok = !strstr(b, "hog[200] memcg 42 asks");	/* hidden */
	ok &= contains(b, "     1.050000 REQUEST       by[201] memcg ? asks for "
		       "an OOM kill: node 0, order 0, gfp 0x0; waits for kswapd's "
		       "verdict (2 waiting on node 0)\n");
	ok &= contains(b, "VETO          by[201] memcg ? on node 0, after 50 ms: "
		       "recovered: reclaim made progress: it retries\n");
	ok &= contains(b, "episode_open: another request on the node took the "
		       "grant\n");
	ok &= contains(b, "DEFER         node 0, oldest request hog[200] memcg 42 "
		       "(waiting 300 ms): too_soon: unreclaimable for less than "
		       "the timeout (5000 ms)\n");
	ok &= contains(b, "GRANT         node 0, kill allowed: oldest request "
		       "hog[200] memcg 42 (waiting 5000 ms), settles 2 waiting "
		       "requests; kswapd saw: unreclaimable 4000 ms (timeout "
		       "5000) (!), low zone 0 free 10 <= min 20, low zone 1 free 30 > "
		       "min 25 (!), 0 looping (!), 7 pages reclaimed in the last "
		       "full scan (!)\n");
	ok &= contains(b, "KILL          global OOM, victim hog[200]: rss 123 kB "
		       "(anon 100, file 20, shmem 3), total_vm 999 kB, "
		       "oom_score_adj -17, memcg 42; chosen by hog[200], 10 ms "
		       "after GRANT seq 0 on node 0\n");
	ok &= contains(b, "VETO          x[203] memcg ? on node 0, after 4755 "
		       "ms: episode_open: another request on the node took the "
		       "grant\n");
	ok &= contains(b, "REAPED        hog[200] had its memory reaped by "
		       "oom_reaper, 90 ms after the kill\n");
	ok &= contains(b, "EXIT          hog[200] is gone, 190 ms after the kill\n");
	tap_ok(ok, "timeline: request, veto reasons, defer, grant evidence "
	       "with (!), kill chain, reaped, exit; hidden request remembered");
	if (!ok)
		tap_diag("%s", b);
	free(b);
}

static void test_stock_and_fallback(void)
{
	static const struct step steps[] = {
		{ .ev = E_BY(10, OW_TOKEN_GRAB, 300, "upd", .token = { .tgid = 300,
		    .holder_comm = "upd" }) },
		{ .ev = E_BY(20, OW_TOKEN_KEPT, 301, "hog", .token_pass = {
		    .reclaimer = 301, .holder_tgid = 300, .priority = 3,
		    .nr_folios = 64 }) },
		{ .ev = E_BY(30, OW_TOKEN_KEPT, 301, "hog", .token_pass = {
		    .reclaimer = 301, .holder_tgid = 300, .priority = 2,
		    .nr_folios = 128 }) },
		{ .ev = E_BY(40, OW_RECLAIM_RETRY_ZONE, 301, "hog", .retry = {
		    .zone_idx = 1, .reclaimable = 9, .available = 5,
		    .min_wmark = 6, .no_progress_loops = 16 }) },
		{ .ev = E_BY(50, OW_MARK_VICTIM, 301, "hog", .victim = { .pid = 300,
		    .comm = "a\nb\\", .constraint = OW_CONSTRAINT_GLOBAL }) },
		{ .ev = E_BY(60, OW_MARK_VICTIM, 301, "hog", .victim = { .pid = 305,
		    .comm = "m", .constraint = OW_CONSTRAINT_MEMCG }) },
		{ .ev = E_BY(70, OW_OOM_FALLBACK, 400, "nf", .request = { .pid = 400,
		    .comm = "nf", .reason = OW_VETO_NOT_QUALIFIED }) },
		{ .ev = E_BY(80, OW_OOM_FALLBACK, 401, "w", .request = { .pid = 401,
		    .comm = "w", .waited_ms = 10001,
		    .reason = OW_RULE_ABOVE_MIN }) },
		{ .ev = E_BY(90, OW_UNRECLAIMABLE_CLEAR, 30, "kswapd0", .unrecl = {
		    .duration_ms = 5000, .reason = OW_CLEAR_TIMEOUT }) },
		{ .ev = E_BY(95, OW_OOM_FALLBACK, 402, "nr", .request = { .pid = 402,
		    .comm = "nr", .reason = OW_STOCK_NO_RELIEF }) },
		{ .ev = E_BY(97, OW_OOM_VETO, 403, "tk", .request = { .pid = 403,
		    .comm = "tk", .reason = OW_THRASH_NO_VICTIM }) },
	};
	char *b = timeline(steps, ARRAY_SIZE(steps), OW_CLOCK_NONE);
	bool ok;

	ok = contains(b, "TOKEN         grabbed by upd[300]: free\n");
	ok &= contains(b, "KEPT          swap token shielded 64 folios of "
		       "upd[300] from hog[301]'s reclaim (node 0, priority 3); "
		       "later passes not shown\n");
	ok &= !strstr(b, "priority 2");
	ok &= contains(b, "KILL          global OOM, victim a\\x0ab\\x5c[300]: ");
	ok &= contains(b, "chosen by hog[301], no GRANT or FALLBACK before it "
		       "(stock path); the allocator saw node 0 zone 1 available "
		       "5 <= min 6, reclaimable 9, 16 retries without progress "
		       "(hog[301]); swap token (held by upd[300]) shielded up "
		       "to 128 folios per pass, never bypassed in this episode\n");
	ok &= contains(b, "KILL          memcg OOM (the cgroup's limit, not the "
		       "machine), victim m[305]: ");
	ok &= contains(b, "FALLBACK      nf[400] on node 0 after 0 ms: "
		       "not_qualified: __GFP_NOFAIL, a dying task or the arbiter "
		       "off -> stock OOM path\n");
	ok &= contains(b, "FALLBACK      w[401] on node 0 after 10001 ms: waited "
		       "past the bound (10000 ms) while above_min: a low zone is "
		       "above its min watermark -> stock OOM path\n");
	ok &= contains(b, "RECLAIMABLE   node 0 after 5000 ms: timeout: the "
		       "timer cleared it to force a full rescan\n");
	/* At once, not "past the bound": the thrash rule's no_relief. */
	ok &= contains(b, "FALLBACK      nr[402] on node 0 after 0 ms: "
		       "no_relief: no swap and no writeback can relieve the "
		       "node: stock semantics, no wait -> stock OOM path\n");
	/* A thrash take with nobody to kill: said, not "not known". */
	ok &= contains(b, "the thrash kill found no task to kill: the grant "
		       "is dropped, no panic");
	tap_ok(ok, "timeline: stock kill with allocator and token evidence, "
	       "memcg kill, fallbacks (no_relief at once), a dropped thrash "
	       "grant, timer clear, comm escaped");
	if (!ok)
		tap_diag("%s", b);
	free(b);
}

static void test_thrash_lines(void)
{
	static const struct step steps[] = {
		{ .ev = E_BY(2000, OW_THRASHING_SET, 30, "kswapd0", .seq = 0,
		    .thrash = { .nid = 0, .window_ms = 1000, .refaulted = 5120,
		    .reclaimed = 6144 }) },
		{ .ev = E_BY(11000, OW_THRASH_GRANT, 30, "kswapd0", .seq = 1,
		    .thrash_grant = { .nid = 0, .thrashing_ms = 9000,
		    .refaulted = 4800, .reclaimed = 5900, .swap_free = 100,
		    .swap_total = 3200, .nr_zones = 2,
		    .zone = { { 300, 384 }, { 1200, 1400 } } }) },
		{ .ev = E_BY(11005, OW_THRASH_TAKE, 200, "hog", .seq = 2,
		    .take = { .pid = 200, .nid = 0, .order = 0,
		    .gfp_flags = 0x100cca, .comm = "hog" }),
		  .who = { true, 42 } },
		{ .ev = E_BY(11010, OW_MARK_VICTIM, 200, "hog", .seq = 3,
		    .victim = { .pid = 201, .comm = "big",
		    .constraint = OW_CONSTRAINT_GLOBAL }) },
		{ .ev = E_BY(11020, OW_THRASH_TAKE, 202, "late", .seq = 4,
		    .take = { .pid = 202, .nid = 0, .comm = "late" }) },
		{ .ev = E_BY(21020, OW_THRASH_GRANT, 30, "kswapd0", .seq = 5,
		    .thrash_grant = { .nid = 0, .thrashing_ms = 10000 }) },
		{ .ev = E_BY(22000, OW_THRASHING_CLEAR, 30, "kswapd0", .seq = 6,
		    .thrash = { .nid = 0, .duration_ms = 20000,
		    .window_ms = 1000, .refaulted = 96, .reclaimed = 2048,
		    .reason = OW_THRASH_CALM }) },
		{ .ev = E_BY(23000, OW_THRASHING_CLEAR, 30, "kswapd0", .seq = 7,
		    .thrash = { .nid = 1, .duration_ms = 500,
		    .reason = OW_THRASH_DISABLED }) },
		{ .ev = E_BY(24000, OW_THRASH_TAKE, 203, "x", .seq = 8,
		    .take = { .pid = 203, .nid = 3, .comm = "x" }) },
		{ .ev = E_BY(26000, OW_THRASHING_CLEAR, 0, "kworker/0:1",
		    .seq = 9, .thrash = { .nid = 2, .duration_ms = 12004,
		    .window_ms = 2004, .refaulted = 12, .reclaimed = 0,
		    .reason = OW_THRASH_CALM }) },
	};
	char *b = timeline(steps, ARRAY_SIZE(steps), OW_CLOCK_NONE);
	bool ok;

	ok = contains(b, "     2.000000 THRASHING     node 0: a 1000 ms window "
		      "of reclaim thrashed: 5120 file refaults, 6144 "
		      "pages reclaimed\n");
	ok &= contains(b, "    11.000000 THRASH GRANT  node 0, kill allowed: "
		       "the next allocation on it that may invoke the OOM "
		       "killer takes the grant; "
		       "kswapd saw: thrashing 9000 ms (timeout 10000) (!), last "
		       "window 4800 file refaults, 5900 pages reclaimed, swap 100 of "
		       "3200 pages free (!), low zone 0 free 300 high 384, low "
		       "zone 1 free 1200 high 1400\n");
	ok &= contains(b, "    11.005000 THRASH TAKE   hog[200] memcg 42 takes "
		       "node 0's thrash grant (THRASH GRANT seq 1, 5 ms old): "
		       "order 0, gfp 0x100cca; it calls out_of_memory() "
		       "itself\n");
	ok &= contains(b, "KILL          global OOM, victim big[201]: ") &&
	      contains(b, "chosen by hog[200], 5 ms after THRASH TAKE seq 2 on "
		       "node 0\n");
	ok &= contains(b, "THRASH TAKE   late[202] memcg ? takes node 0's thrash "
		       "grant (none outstanding (!)): order 0, gfp 0x0");
	ok &= contains(b, "kswapd saw: thrashing 10000 ms (timeout 10000), last "
		       "window 0 file refaults, 0 pages reclaimed, no swap\n");
	ok &= contains(b, "    22.000000 NOT THRASHING node 0 after 20000 ms: "
		       "calm: a window of reclaim did not thrash (1000 ms: 96 "
		       "file refaults, 2048 pages reclaimed); THRASH GRANT seq 5 "
		       "dropped, not taken\n");
	ok &= contains(b, "NOT THRASHING node 1 after 500 ms: disabled: "
		       "vm.oom_arbiter_thrash was switched\n");
	ok &= contains(b, "THRASH TAKE   x[203] memcg ? takes node 3's thrash "
		       "grant (not in the recording)");
	ok &= contains(b, "    26.000000 NOT THRASHING node 2 after 12004 ms: "
		       "calm: reclaim paused, no window of reclaim closed for "
		       "over 2 s (2004 ms: 12 file refaults, 0 pages "
		       "reclaimed)\n");
	tap_ok(ok, "timeline: thrashing set and clear, the thrash grant's "
	       "evidence with (!), takes, the kill after a take, a dropped "
	       "grant, a spell ended by a pause of reclaim");
	if (!ok)
		tap_diag("%s", b);
	free(b);
}

static void test_clocks(void)
{
	static const struct step steps[] = {
		{ .ev = E_BY(2000, OW_UNRECLAIMABLE_SET, 30, "kswapd0",
		    .unrecl = { .failures = 16 }) },
		{ .ev = E_BY(3500, OW_UNRECLAIMABLE_SET, 30, "kswapd0",
		    .unrecl = { .failures = 16 }) },
	};
	char *b = timeline(steps, ARRAY_SIZE(steps), OW_CLOCK_RELATIVE);
	bool ok;

	ok = contains(b, "+     0.000      2.000000 UNRECLAIMABLE node 0: "
		      "kswapd failed 16 reclaim passes in a row\n") &&
	     contains(b, "+     1.500      3.500000 UNRECLAIMABLE");
	free(b);
	b = timeline(steps, 1, OW_CLOCK_WALL);
	/* "HH:MM:SS.mmm " then the event's seconds */
	ok &= strlen(b) > 13 && b[2] == ':' && b[5] == ':' && b[8] == '.' &&
	      b[12] == ' ' && strstr(b, "     2.000000 UNRECLAIMABLE");
	tap_ok(ok, "timeline: -T relative (replay) and wall-clock (live)");
	free(b);
}

int main(void)
{
	test_arbiter_lines();
	test_stock_and_fallback();
	test_thrash_lines();
	test_clocks();
	return tap_done();
}

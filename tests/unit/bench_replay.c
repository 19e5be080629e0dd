// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * make -C tests/unit bench: how fast oomwatch --replay -s --assert reads,
 * models and checks a recording, in events per second, for the shapes
 * that once made its cost grow with what was open:
 *
 *   requests  20000 requests waiting on one node, then EVENTS events
 *             (kswapd and direct reclaim, a defer naming the oldest
 *             waiter now and then), all within the liveness bound;
 *   nodes     20000 nodes unreclaimable (a set each, nobody waiting),
 *             then the same EVENTS events;
 *   both      20000 nodes unreclaimable, a request waiting on each
 *             (20000 timers running), then the same EVENTS events;
 *   plain     1000000 events of ordinary OOM episodes on a few nodes:
 *             reclaim, requests, a grant, its kill, the victim's exit,
 *             the node's recovery.
 *
 * The recordings are written to a temporary directory with the encoder
 * (ow_json_write_*), then replayed in-process through ow_replay(), the
 * code of oomwatch --replay, built without sanitizers, three times each:
 * the fastest counts (the machine is shared: a kernel build next door
 * slows one run, not what the replay costs).  One line each: "bench:
 * NAME: N events in S s: R M events/s".  Exit 1 when a replay fails or
 * is under the floor given with -f (M events/s).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "replay.h"
#include "trace.h"

#define OPEN		20000		/* waiting requests, or nodes */
#define AFTER		200000		/* events after them */
#define PLAIN		1000000		/* events of the plain recording */
#define NS_MS		1000000ULL

struct gen {
	FILE *f;
	unsigned long long seq;
	unsigned long long ts;		/* ns */
	unsigned long long n;		/* events written */
};

static void emit(struct gen *g, struct oomwatch_event *ev)
{
	ev->seq = g->seq++;
	ev->ts_ns = g->ts;
	if (!ev->pid)
		ev->pid = ev->tgid = 1;
	if (ow_json_write_event(g->f, OOMWATCH_FORMAT_VERSION, ev)) {
		perror("bench: write");
		exit(1);
	}
	g->n++;
}

static void header(struct gen *g)
{
	struct ow_config cfg = { 1, 5000, 10000, 0, -1, 1, 10000 };

	ow_json_write_header(g->f, OOMWATCH_FORMAT_VERSION, &cfg, "bench",
			     1000);
}

static void request(struct gen *g, __u32 pid, __s32 nid)
{
	struct oomwatch_event ev = { .type = OW_OOM_REQUEST, .pid = pid,
				     .tgid = pid };

	ev.request.pid = pid;
	ev.request.nid = nid;
	ev.request.memcg_id = 0;
	strcpy(ev.request.comm, "waiter");
	emit(g, &ev);
}

/* Reclaim chatter, a defer naming pid now and then (0: none). */
static void filler(struct gen *g, unsigned long long i, __u32 oldest,
		   __s32 nid)
{
	struct oomwatch_event ev = { 0 };

	switch (i % 5) {
	case 0:
		ev.type = OW_KSWAPD_WAKE;
		ev.kswapd.nid = nid;
		break;
	case 1:
		ev.type = OW_KSWAPD_SLEEP;
		ev.kswapd.nid = nid;
		ev.kswapd.zid = -1;
		break;
	case 2:
		ev.type = OW_DIRECT_BEGIN;
		ev.pid = ev.tgid = 100 + i % 7;
		break;
	case 3:
		ev.type = OW_DIRECT_END;
		ev.pid = ev.tgid = 100 + i % 7;
		ev.direct.nr_reclaimed = 32;
		break;
	default:
		if (oldest) {
			ev.type = OW_OOM_DEFER;
			ev.pid = ev.tgid = 50;
			ev.request.pid = oldest;
			ev.request.nid = nid;
			ev.request.reason = 2 + i % 2;
		} else {
			ev.type = OW_RECLAIM_RETRY_ZONE;
			ev.retry.nid = nid;
		}
		break;
	}
	emit(g, &ev);
}

static void gen_requests(struct gen *g)
{
	for (__u32 i = 0; i < OPEN; i++) {
		g->ts += 10000;		/* 200 ms for all of them */
		request(g, 1000 + i, 0);
	}
	for (unsigned long long i = 0; i < AFTER; i++) {
		g->ts += 10000;		/* 2 s: within the bound */
		filler(g, i, 1000, 0);
	}
}

static void gen_nodes(struct gen *g)
{
	struct oomwatch_event ev = { .type = OW_UNRECLAIMABLE_SET };

	for (__s32 i = 0; i < OPEN; i++) {
		g->ts += 10000;
		/* not in nid order: a sorted insert would move them all */
		ev.unrecl.nid = (i * 7919) % OPEN;
		ev.unrecl.failures = 16;
		emit(g, &ev);
	}
	for (unsigned long long i = 0; i < AFTER; i++) {
		g->ts += 10000;
		filler(g, i, 0, (__s32)(i % OPEN));
	}
}

static void gen_both(struct gen *g)
{
	struct oomwatch_event ev = { .type = OW_UNRECLAIMABLE_SET };

	for (__s32 i = 0; i < OPEN; i++) {
		g->ts += 10000;
		ev.unrecl.nid = (i * 7919) % OPEN;
		ev.unrecl.failures = 16;
		emit(g, &ev);
		request(g, 1000 + i, ev.unrecl.nid);
	}
	for (unsigned long long i = 0; i < AFTER; i++) {
		g->ts += 10000;
		filler(g, i, 1000, 0);
	}
}

/* One OOM episode on nid: about 50 events, 7 s. */
static void episode(struct gen *g, unsigned long long k, __s32 nid)
{
	struct oomwatch_event ev = { 0 };
	__u32 waiter = 10000 + k % 20000, victim = 40000 + k % 20000;

	ev.type = OW_UNRECLAIMABLE_SET;
	ev.unrecl.nid = nid;
	ev.unrecl.failures = 16;
	emit(g, &ev);
	request(g, waiter, nid);
	for (int i = 0; i < 40; i++) {
		g->ts += 125 * NS_MS;
		filler(g, k * 40 + i, waiter, nid);
	}
	memset(&ev, 0, sizeof(ev));
	ev.type = OW_UNRECLAIMABLE_CLEAR;
	ev.unrecl.nid = nid;
	ev.unrecl.reason = OW_CLEAR_TIMEOUT;
	ev.unrecl.duration_ms = 5000;
	emit(g, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.type = OW_UNRECLAIMABLE_SET;
	ev.unrecl.nid = nid;
	ev.unrecl.failures = 16;
	g->ts += 100 * NS_MS;
	emit(g, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.type = OW_OOM_GRANT;
	ev.grant.nid = nid;
	ev.grant.pid = waiter;
	ev.grant.unreclaimable_ms = 5100;
	ev.grant.looping = 1;
	ev.grant.nr_zones = 1;
	ev.grant.zone[0].free = 5;
	ev.grant.zone[0].min = 10;
	emit(g, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.type = OW_MARK_VICTIM;
	ev.pid = ev.tgid = waiter;
	ev.victim.pid = victim;
	ev.victim.constraint = OW_CONSTRAINT_GLOBAL;
	strcpy(ev.victim.comm, "hog");
	g->ts += NS_MS;
	emit(g, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.type = OW_TASK_EXIT;
	ev.pid = ev.tgid = victim;
	ev.exit.pid = ev.exit.tgid = victim;
	g->ts += 100 * NS_MS;
	emit(g, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.type = OW_UNRECLAIMABLE_CLEAR;
	ev.unrecl.nid = nid;
	ev.unrecl.reason = OW_CLEAR_FREED;
	ev.unrecl.duration_ms = 101;
	g->ts += NS_MS;
	emit(g, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.type = OW_OOM_VETO;
	ev.pid = ev.tgid = waiter;
	ev.request.pid = waiter;
	ev.request.nid = nid;
	ev.request.reason = OW_VETO_RECOVERED;
	emit(g, &ev);
	g->ts += 500 * NS_MS;
}

static void gen_plain(struct gen *g)
{
	for (unsigned long long k = 0; g->n < PLAIN; k++)
		episode(g, k, (__s32)(k % 4));
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int run(const char *dir, const char *name, void (*fn)(struct gen *),
	       double floor)
{
	struct ow_cli cli = { .summary_only = true, .assert_mode = true };
	char path[4096];
	struct gen g = { 0 };
	FILE *out;
	double t0, dt = 0, rate;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s.jsonl", dir, name);
	g.f = fopen(path, "w");
	if (!g.f) {
		perror(path);
		return 1;
	}
	header(&g);
	g.ts = 1000 * NS_MS;
	fn(&g);
	if (fclose(g.f)) {
		perror(path);
		return 1;
	}
	out = fopen("/dev/null", "w");
	if (!out)
		return 1;
	cli.replay = path;
	for (int run = 0; run < 3; run++) {
		double t;

		t0 = now_s();
		ret |= ow_replay(&cli, out, out);
		t = now_s() - t0;
		if (!run || t < dt)
			dt = t;
	}
	fclose(out);
	unlink(path);
	rate = g.n / dt / 1e6;
	printf("bench: %-8s %8llu events in %7.3f s: %6.3f M events/s%s\n",
	       name, g.n, dt, rate, ret ? " (replay failed)" : "");
	fflush(stdout);
	return ret || rate < floor;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/ow-bench.XXXXXX";
	double floor = 0;
	int opt, bad = 0;

	while ((opt = getopt(argc, argv, "f:")) != -1) {
		if (opt != 'f') {
			fprintf(stderr, "usage: %s [-f MEVENTS_PER_S]\n",
				argv[0]);
			return 2;
		}
		floor = atof(optarg);
	}
	if (!mkdtemp(dir)) {
		perror("bench: mkdtemp");
		return 1;
	}
	bad |= run(dir, "requests", gen_requests, floor);
	bad |= run(dir, "nodes", gen_nodes, floor);
	bad |= run(dir, "both", gen_both, floor);
	bad |= run(dir, "plain", gen_plain, floor);
	rmdir(dir);
	return bad;
}

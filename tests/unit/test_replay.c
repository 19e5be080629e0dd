// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --replay end to end, through the real main (oomwatch-host): exit codes
 * on the fixtures with and without --assert, the reason-chain lines of
 * the human timeline, --json round trips, --record, --svg, the filters,
 * and every kind of damaged file: "FILE:LINE: why", exit 1, never a crash.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "proc.h"
#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ARGV(...)	((const char *[]){ OOMWATCH_BIN, __VA_ARGS__, NULL })
#define FIX(name)	FIXTURE_DIR "/" name

static bool has(const char *text, const char *want, const char *where)
{
	if (strstr(text, want))
		return true;
	tap_diag("no \"%s\" in %s", want, where);
	return false;
}

static void show(const struct proc_result *r)
{
	tap_diag("exit %d; stdout: %.600s", r->status, r->out ? r->out : "");
	tap_diag("stderr: %.600s", r->err ? r->err : "");
}

/* ------------------------------------------------------ exit statuses */

static void test_statuses(void)
{
	static const struct {
		const char *file;
		int plain, asserted;
		const char *violation;	/* in stdout (timeline) */
	} cases[] = {
		{ FIX("arbiter_ok.jsonl"), 0, 0, NULL },
		{ FIX("token_bug_2004.jsonl"), 0, 2, "!!            token_yields: "
		  "mark_victim seq 105" },
		{ FIX("kill_without_grant.jsonl"), 0, 2, "!!            "
		  "no_kill_without_grant: mark_victim seq 2" },
		{ FIX("stuck_request.jsonl"), 0, 2, "!!            liveness: "
		  "oom_request seq 1" },
		{ FIX("broken_record.jsonl"), 0, 2, "!!            record_whole: "
		  "2 events lost" },
		{ FIX("memcg_v2.jsonl"), 0, 0, NULL },
		{ FIX("thrash_v3.jsonl"), 0, 0, NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct proc_result r, a;
		const char *name = strrchr(cases[i].file, '/') + 1;
		bool ok;

		ok = !proc_run(ARGV("--replay", cases[i].file), NULL, &r) &&
		     !proc_run(ARGV("--replay", cases[i].file, "--assert"), NULL,
			       &a) &&
		     r.status == cases[i].plain && a.status == cases[i].asserted &&
		     (!cases[i].violation ||
		      has(r.out, cases[i].violation, "stdout")) &&
		     (cases[i].asserted == 0 ||
		      has(a.err, "oomwatch: --assert: ", "stderr"));
		if (!tap_ok(ok, "replay %s: exit %d, with --assert %d", name,
			    cases[i].plain, cases[i].asserted)) {
			show(&r);
			show(&a);
		}
		proc_free(&r);
		proc_free(&a);
	}
}

/* ---------------------------------------------------------- timeline */

static void test_timeline(void)
{
	static const char *const arbiter[] = {
		"TIME(s)       EVENT         DETAILS\n",
		"     2.000000 UNRECLAIMABLE node 0: kswapd failed 16 reclaim "
		"passes in a row\n",
		"     2.100000 REQUEST       hog[200] memcg ? asks for an OOM "
		"kill: node 0, order 0, gfp 0x100cca; waits for kswapd's verdict "
		"(1 waiting on node 0)\n",
		"     2.101000 DEFER         node 0, oldest request hog[200] "
		"memcg ? (waiting 1 ms): too_soon: unreclaimable for less than "
		"the timeout (5000 ms)\n",
		"     2.300000 VETO          bystander[201] memcg ? on node 0, "
		"after 100 ms: alloc_ok: its last allocation attempt succeeded: "
		"no kill\n",
		"     3.000000 BYPASS        bystander[201] ignored the swap "
		"token at priority 2: 64 folios of hog[200] reclaimable (node 0)\n",
		"     7.000000 RECLAIMABLE   node 0 after 5000 ms: timeout: the "
		"timer cleared it to force a full rescan\n",
		"     7.060000 GRANT         node 0, kill allowed: oldest request "
		"hog[200] memcg ? (waiting 4960 ms), settles 1 waiting request; "
		"kswapd saw: unreclaimable 5060 ms (timeout 5000), low zone 0 free "
		"100 <= min 128, low zone 1 free 900 <= min 1000, 1 looping, 0 pages "
		"reclaimed in the last full scan\n",
		"     7.070000 KILL          global OOM, victim hog[200]: rss "
		"481200 kB (anon 480000, file 1200, shmem 0), total_vm 524288 kB, "
		"oom_score_adj 0, memcg 1; chosen by hog[200], 10 ms after GRANT "
		"seq 13 on node 0; swap token (held by hog[200]) shielded up to "
		"512 folios per pass, bypassed 1 time\n",
		"     7.210000 EXIT          hog[200] is gone, 140 ms after the "
		"kill\n",
		"summary: 22 events, 1 OOM episode, 0 lost\n",
		"    3 liveness               ok\n",
	};
	static const char *const token[] = {
		"     5.500000 KILL          global OOM, victim updater[300]: rss "
		"200800 kB (anon 200000, file 800, shmem 0), total_vm 262144 kB, "
		"oom_score_adj 0, memcg 1; chosen by hog[301], no GRANT or "
		"FALLBACK before it (stock path); the allocator saw node 0 zone 1 "
		"available 900 <= min 1100, reclaimable 2048, 16 retries without "
		"progress (hog[301]); swap token (held by updater[300]) shielded "
		"up to 2048 folios per pass, never bypassed in this episode\n",
		"    4 token_yields           1 violation\n",
	};
	struct proc_result r;
	bool ok;

	ok = !proc_run(ARGV("--replay", FIX("arbiter_ok.jsonl")), NULL, &r) &&
	     r.status == 0 && !r.err[0];
	for (size_t i = 0; ok && i < ARRAY_SIZE(arbiter); i++)
		ok = has(r.out, arbiter[i], "stdout");
	if (!tap_ok(ok, "timeline of arbiter_ok: each decision with its "
		    "reason chain, kill with victim and evidence"))
		show(&r);
	proc_free(&r);

	ok = !proc_run(ARGV("--replay", FIX("token_bug_2004.jsonl")), NULL,
		       &r) && r.status == 0;
	for (size_t i = 0; ok && i < ARRAY_SIZE(token); i++)
		ok = has(r.out, token[i], "stdout");
	if (!tap_ok(ok, "timeline of token_bug_2004: the stock kill's allocator "
		    "and swap token evidence"))
		show(&r);
	proc_free(&r);
}

/* ------------------------------------------------------------ modes */

/* Event and lost lines of a recording: what a round trip keeps. */
static char *body(const char *text)
{
	char *out = calloc(1, strlen(text) + 1);
	const char *p = text;

	while (out && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);

		if (!strstr(p, "\"type\":\"summary\"") ||
		    (nl && strstr(p, "\"type\":\"summary\"") > nl))
			strncat(out, p, n);
		p += n;
	}
	return out;
}

static void test_json(void)
{
	const char *once = proc_path("once.jsonl");
	struct proc_result r1, r2;
	size_t flen;
	char *fix = proc_slurp(FIX("arbiter_ok.jsonl"), &flen);
	char *b1 = NULL, *bf = NULL;
	bool ok;

	ok = fix && !proc_run(ARGV("--replay", FIX("arbiter_ok.jsonl"), "-j"),
			      NULL, &r1) && r1.status == 0 && !r1.err[0];
	if (ok)
		proc_write("once.jsonl", r1.out, r1.out_len);
	ok = ok && !proc_run(ARGV("--replay", once, "--json"), NULL, &r2) &&
	     r2.status == 0 && r1.out_len == r2.out_len &&
	     !memcmp(r1.out, r2.out, r1.out_len);
	if (ok) {
		b1 = body(r1.out);
		bf = body(fix);
	}
	ok = ok && b1 && bf && !strcmp(b1, bf) &&
	     has(r1.out, "{\"v\":1,\"type\":\"summary\",\"events\":22,", "out");
	if (!tap_ok(ok, "--replay --json: the fixture's lines come back byte "
		    "for byte, and replaying the output gives the same output"))
		show(&r1);
	proc_free(&r1);
	proc_free(&r2);
	free(b1);
	free(bf);
	free(fix);

	ok = !proc_run(ARGV("--replay", FIX("arbiter_ok.jsonl"), "-j", "-s"),
		       NULL, &r1) && r1.status == 0 &&
	     !strncmp(r1.out, "{\"v\":1,\"type\":\"header\",", 23) &&
	     strchr(r1.out, '\n') &&
	     !strncmp(strchr(r1.out, '\n') + 1,
		      "{\"v\":1,\"type\":\"summary\",", 24) &&
	     strchr(strchr(r1.out, '\n') + 1, '\n') ==
	     r1.out + r1.out_len - 1;
	tap_ok(ok, "-j -s: the header and the summary only");
	proc_free(&r1);
}

static void test_record_svg(void)
{
	const char *rec = proc_path("rec.jsonl"), *svg = proc_path("out.svg");
	struct proc_result r, j;
	size_t len = 0;
	char *text = NULL, *pic = NULL;
	bool ok;

	ok = !proc_run(ARGV("--replay", FIX("arbiter_ok.jsonl"), "-s",
			    "--record", rec, "--svg", svg), NULL, &r) &&
	     r.status == 0 &&
	     !proc_run(ARGV("--replay", FIX("arbiter_ok.jsonl"), "-j"), NULL,
		       &j) &&
	     (text = proc_slurp(rec, &len)) && len == j.out_len &&
	     !memcmp(text, j.out, len) &&
	     (pic = proc_slurp(svg, &len)) && !strncmp(pic, "<svg ", 5) &&
	     len > 7 && !strcmp(pic + len - 7, "</svg>\n") &&
	     has(r.out, "summary: 22 events", "stdout") &&
	     !strstr(r.out, "GRANT");
	if (!tap_ok(ok, "--record writes what -j prints; --svg writes a picture; "
		    "-s prints only the summary"))
		show(&r);
	proc_free(&r);
	proc_free(&j);
	free(text);
	free(pic);

	ok = !proc_run(ARGV("--replay", rec, "--record", rec), NULL, &r) &&
	     r.status == 1 && has(r.err, "--record would overwrite", "stderr");
	tap_ok(ok, "--record onto the --replay file is refused (exit 1)");
	proc_free(&r);

	ok = !proc_run(ARGV("--replay", FIX("arbiter_ok.jsonl"), "--svg",
			    "/nonexistent/dir/x.svg"), NULL, &r) &&
	     r.status == 1 && has(r.err, "--svg /nonexistent/dir/x.svg: No such "
				  "file or directory", "stderr");
	tap_ok(ok, "--svg into a missing directory: exit 1 with the reason");
	proc_free(&r);
}

static void test_filters(void)
{
	struct proc_result r;
	bool ok;

	ok = !proc_run(ARGV("--replay", FIX("arbiter_ok.jsonl"), "-p", "201"),
		       NULL, &r) && r.status == 0 &&
	     has(r.out, "VETO          bystander[201]", "stdout") &&
	     has(r.out, "BYPASS        bystander[201]", "stdout") &&
	     has(r.out, "UNRECLAIMABLE", "stdout") &&
	     !strstr(r.out, "hog[200] memcg ? asks") &&
	     !strstr(r.out, "KILL") &&
	     has(r.out, "summary: 22 events", "stdout");
	if (!tap_ok(ok, "-p 201: its events only; the summary counts all"))
		show(&r);
	proc_free(&r);

	ok = !proc_run(ARGV("--replay", FIX("kill_without_grant.jsonl"), "-c",
			    "7"), NULL, &r) && r.status == 0 &&
	     has(r.out, "KILL          global OOM, victim hog[401]", "stdout") &&
	     !strstr(r.out, "REQUEST") &&
	     has(r.err, "oomwatch: --cgroup: 1 OOM request not shown: a "
		 "version 1 recording does not say which memcg", "stderr") &&
	     has(r.out, "1 no_kill_without_grant  1 violation", "stdout");
	if (!tap_ok(ok, "-c 7 on a recording: the kill in memcg 7, requests "
		    "not attributable (said), checker unaffected"))
		show(&r);
	proc_free(&r);

	ok = !proc_run(ARGV("--replay", FIX("kill_without_grant.jsonl"), "-c",
			    "8", "--assert"), NULL, &r) && r.status == 2 &&
	     !strstr(r.out, "KILL  ");
	tap_ok(ok, "-c 8: the kill is not shown, --assert still fails");
	proc_free(&r);

	ok = !proc_run(ARGV("--replay", FIX("arbiter_ok.jsonl"), "-T"), NULL,
		       &r) && r.status == 0 &&
	     has(r.out, "+TIME(s)    TIME(s)", "stdout") &&
	     has(r.out, "+     6.060      7.060000 GRANT", "stdout");
	tap_ok(ok, "-T on a recording: time since the first event");
	proc_free(&r);
}

/* ------------------------------------------------------- bad files */

#define HDR "{\"v\":1,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\"," \
	"\"config\":{\"oom_arbiter\":1,\"oom_unreclaimable_timeout_ms\":5000," \
	"\"oom_arbiter_fallback_ms\":10000,\"swap_token\":0," \
	"\"swap_token_bypass_priority\":null},\"kswapd_period_ms\":1000}\n"
#define WAKE(seq) "{\"v\":1,\"seq\":" #seq ",\"ts_ns\":1" #seq "000,\"cpu\":0," \
	"\"pid\":30,\"tgid\":30,\"comm\":\"kswapd0\",\"type\":\"kswapd_wake\"," \
	"\"nid\":0,\"zid\":2,\"order\":0}\n"

static void test_bad_files(void)
{
	static const struct {
		const char *name;
		const char *text;
		size_t len;		/* 0: strlen */
		const char *err;	/* after "oomwatch: <path>" */
	} cases[] = {
		{ "truncated.jsonl", HDR WAKE(0) "{\"v\":1,\"seq\":1,\"ts_", 0,
		  ":3: truncated line (no newline at end of file)" },
		{ "badjson.jsonl", HDR "{\"v\":1,\"seq\":}\n", 0,
		  ":2: unexpected character '}' at column 14" },
		{ "badfield.jsonl", HDR WAKE(0) "{\"v\":1,\"seq\":1,\"ts_ns\":1,"
		  "\"cpu\":0,\"pid\":1,\"tgid\":1,\"comm\":\"c\",\"type\":"
		  "\"kswapd_wake\",\"nid\":0,\"zid\":2}\n", 0,
		  ":3: field \"order\" missing" },
		{ "version.jsonl", "{\"v\":9,\"type\":\"header\"}\n", 0,
		  ":1: version 9 not supported" },
		{ "empty.jsonl", "", 0, ": empty file, not an oomwatch "
		  "recording" },
		{ "binary.jsonl", "\x7f" "ELF\x02\x01\x01\0\0\0\n", 11,
		  ":1: not a JSON object" },
		{ "nul.jsonl", HDR "{\"v\":1\0}\n", sizeof(HDR) - 1 + 9,
		  ":2: bad number \"1\\x00\" at column 6" },
		{ "header2.jsonl", HDR WAKE(0) HDR, 0,
		  ":3: header must be the first line" },
		{ "thrash_v1.jsonl", HDR "{\"v\":1,\"seq\":0,\"ts_ns\":1,"
		  "\"cpu\":0,\"pid\":30,\"tgid\":30,\"comm\":\"kswapd0\","
		  "\"type\":\"thrashing_set\",\"nid\":0,\"reason\":0,"
		  "\"duration_ms\":0,\"window_ms\":1000,\"refaulted\":1,"
		  "\"reclaimed\":2}\n", 0,
		  ":2: event type \"thrashing_set\" in a version 1 line (added "
		  "in version 3)" },
		{ "thrash_range.jsonl", "{\"v\":3,\"type\":\"header\",\"tool\":"
		  "\"oomwatch\",\"kernel\":\"k\",\"config\":{\"oom_arbiter\":1,"
		  "\"oom_unreclaimable_timeout_ms\":5000,"
		  "\"oom_arbiter_fallback_ms\":10000,\"swap_token\":0,"
		  "\"swap_token_bypass_priority\":0,\"oom_arbiter_thrash\":1,"
		  "\"oom_thrash_timeout_ms\":600001},\"kswapd_period_ms\":1000}\n",
		  0, ":1: field \"config.oom_thrash_timeout_ms\": 600001 out of "
		  "range" },
		{ "long.jsonl", NULL, 0, ":2: line longer than 4096 bytes" },
	};
	static char big[sizeof(HDR) + 5000];

	memcpy(big, HDR, sizeof(HDR) - 1);
	memset(big + sizeof(HDR) - 1, ' ', 4999);
	big[sizeof(big) - 1] = '\n';
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *text = cases[i].text ? cases[i].text : big;
		size_t len = cases[i].len ? cases[i].len :
			     cases[i].text ? strlen(text) : sizeof(big);
		const char *path = proc_write(cases[i].name, text, len);
		char want[512];
		struct proc_result r;
		bool ok;

		snprintf(want, sizeof(want), "oomwatch: %s%s\n", path,
			 cases[i].err);
		ok = !proc_run(ARGV("--replay", path, "--assert"), NULL, &r) &&
		     r.status == 1 && strstr(r.err, want) &&
		     !strcmp(strstr(r.err, want), want);
		if (!tap_ok(ok, "bad file %s: \"FILE%s\", exit 1", cases[i].name,
			    cases[i].err))
			show(&r);
		proc_free(&r);
	}
}

static void test_stdin_and_headerless(void)
{
	const char *p = proc_write("nohdr.jsonl", WAKE(0) WAKE(1),
				   strlen(WAKE(0) WAKE(1)));
	struct proc_result r;
	bool ok;

	ok = !proc_run(ARGV("--replay", "-", "--assert", "-s"),
		       FIX("arbiter_ok.jsonl"), &r) && r.status == 0 &&
	     has(r.out, "summary: 22 events", "stdout");
	tap_ok(ok, "--replay - reads stdin");
	proc_free(&r);

	ok = !proc_run(ARGV("--replay", p, "--assert"), NULL, &r) &&
	     r.status == 0 && has(r.err, "no header line: configuration "
				  "unknown, only record_whole is checked",
				  "stderr") &&
	     has(r.out, "5 timer_works            not checked", "stdout");
	tap_ok(ok, "a recording without a header: said, and replayed");
	proc_free(&r);
}

/* ------------------------------------------------------- issue #15 */

/* #15 item 6: --record and --svg naming one file under two spellings. */
static void test_record_svg_same_file(void)
{
	const char *rec = proc_path("same.jsonl");
	char other[400];
	struct proc_result r;
	char *text = NULL;
	size_t len;
	bool ok;

	snprintf(other, sizeof(other), "%.*s/./same.jsonl",
		 (int)(strrchr(rec, '/') - rec), rec);
	proc_write("same.jsonl", "keep\n", 5);
	ok = !proc_run(ARGV("--replay", FIX("arbiter_ok.jsonl"), "--record",
			    rec, "--svg", other), NULL, &r) &&
	     r.status == 1 && has(r.err, "are the same file", "stderr") &&
	     (text = proc_slurp(rec, &len)) && !strcmp(text, "keep\n");
	if (!tap_ok(ok, "--record F --svg DIR/./F: refused, the file untouched"))
		show(&r);
	free(text);
	proc_free(&r);

	unlink(rec);
	ok = !proc_run(ARGV("--replay", FIX("arbiter_ok.jsonl"), "--record",
			    rec, "--svg", other), NULL, &r) &&
	     r.status == 1 && has(r.err, "are the same file", "stderr") &&
	     access(rec, F_OK);
	if (!tap_ok(ok, "--record F --svg DIR/./F, F new: refused, F removed"))
		show(&r);
	proc_free(&r);
}

/*
 * "--replay - -s" reading text from a pipe that stays open, then sig:
 * the exit status (128 + signal if it killed it) and stdout.
 */
static int replay_signalled(const char *text, int sig, char *out, size_t size)
{
	int in[2], o[2], st = 0;
	struct timespec tick = { 0, 50 * 1000 * 1000 };
	size_t n = 0;
	ssize_t got;
	pid_t pid;

	if (pipe(in) || pipe(o))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(in[0], 0);
		dup2(o[1], 1);
		dup2(null, 2);
		close(in[1]);
		close(o[0]);
		execl(OOMWATCH_BIN, OOMWATCH_BIN, "--replay", "-", "-s",
		      (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(o[1]);
	if (write(in[1], text, strlen(text)) < 0)
		return -1;
	/* Time to start and read what it was given (ASan is slow). */
	for (int i = 0; i < 20; i++)
		nanosleep(&tick, NULL);
	kill(pid, sig);
	/* A child that ignored the signal would wait for more: 5 s. */
	for (int i = 0; i < 100 && !waitpid(pid, &st, WNOHANG); i++) {
		nanosleep(&tick, NULL);
		if (i == 99) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
		}
	}
	while (n + 1 < size && (got = read(o[0], out + n, size - n - 1)) > 0)
		n += got;
	out[n] = '\0';
	close(o[0]);
	close(in[1]);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* #15 item 7: SIGINT and SIGTERM during --replay - print the summary. */
static void test_replay_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	char out[4096];

	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
		int status = replay_signalled(HDR WAKE(1) WAKE(2), sigs[i], out,
					      sizeof(out));
		bool ok = status == 0 && strstr(out, "summary: 2 events");

		if (!tap_ok(ok, "--replay - from an open pipe, %s: the summary, "
			    "exit 0", sigs[i] == SIGINT ? "SIGINT" : "SIGTERM"))
			tap_diag("exit %d; stdout: %.300s", status, out);
	}
}

/* #15 item 8: -c on a recording counts the requests it hides, only them. */
static void test_cgroup_count(void)
{
	struct proc_result r;
	bool ok;

	/* 2 oom_request, 2 oom_defer, 1 oom_grant, 1 oom_fallback */
	ok = !proc_run(ARGV("--replay", FIX("guest_oom_true.jsonl"), "-c", "8",
			    "-s"), NULL, &r) && r.status == 0 &&
	     has(r.err, "oomwatch: --cgroup: 2 OOM requests not shown", "stderr");
	if (!tap_ok(ok, "-c on a recording of 2 requests: 2 not shown"))
		show(&r);
	proc_free(&r);
}

/* ------------------------------------------------- trace format 2 */

#define V2 FIX("memcg_v2.jsonl")

/* Does every line of text start with prefix? */
static bool every_line(const char *text, const char *prefix)
{
	for (const char *p = text; *p; p = strchr(p, '\n') + 1) {
		if (strncmp(p, prefix, strlen(prefix)) || !strchr(p, '\n')) {
			tap_diag("line not starting with %s: %.200s", prefix, p);
			return false;
		}
	}
	return true;
}

/* The timeline names requesters and victims by their recorded memcg. */
static void test_v2_timeline(void)
{
	static const char *const want[] = {
		"     2.100000 REQUEST       hog[200] memcg /job/a (4100) asks for "
		"an OOM kill: node 0",
		"     2.101000 DEFER         node 0, oldest request hog[200] memcg "
		"/job/a (4100) (waiting 1 ms)",
		"     2.200000 REQUEST       bystander[201] memcg /other/t\\xe9st "
		"\"q\" (4210) asks for an OOM kill",
		"     2.310000 REQUEST       nomemcg[202] memcg ? asks for an OOM "
		"kill",
		"oom_score_adj 0, memcg /job/a (4100); chosen by hog[200]",
		"    3 liveness               ok\n",
	};
	struct proc_result r;
	bool ok;

	ok = !proc_run(ARGV("--replay", V2, "--assert"), NULL, &r) &&
	     r.status == 0 && !r.err[0];
	for (size_t i = 0; ok && i < ARRAY_SIZE(want); i++)
		ok = has(r.out, want[i], "stdout");
	ok = ok && !strstr(r.out, "memcg ? asks for an OOM kill: node 0, order "
			   "0, gfp 0x100cca; waits for kswapd's verdict (1 ");
	if (!tap_ok(ok, "v2 replay: the timeline says \"memcg /path (id)\" from "
		    "the memcg lines, \"memcg ?\" for memcg_id 0"))
		show(&r);
	proc_free(&r);
}

/* A replay writes its recording's version: v2 comes back byte for byte. */
static void test_v2_json_record(void)
{
	const char *rec = proc_path("v2rec.jsonl");
	const char *rec1 = proc_path("v1rec.jsonl");
	struct proc_result r, j;
	size_t flen, len;
	char *fix = proc_slurp(V2, &flen), *text = NULL, *b1 = NULL, *bf = NULL;
	bool ok;

	ok = fix && !proc_run(ARGV("--replay", V2, "-j", "--record", rec), NULL,
			      &j) && j.status == 0 && !j.err[0] &&
	     (text = proc_slurp(rec, &len)) && len == j.out_len &&
	     !memcmp(text, j.out, len) && (b1 = body(j.out)) &&
	     (bf = body(fix)) && !strcmp(b1, bf) &&
	     every_line(j.out, "{\"v\":2,") &&
	     has(j.out, "\"waited_ms\":0,\"memcg_id\":4100,\"request_comm\":"
		 "\"hog\"}\n", "stdout") &&
	     has(j.out, "{\"v\":2,\"type\":\"memcg\",\"memcg_id\":4210,\"path\":"
		 "\"/other/t\\u00e9st \\\"q\\\"\"}\n", "stdout");
	if (!tap_ok(ok, "v2 replay -j and --record: the memcg lines and "
		    "memcg_id come back byte for byte, every line v2"))
		show(&j);
	proc_free(&j);
	free(text);
	free(b1);
	free(bf);
	free(fix);

	ok = !proc_run(ARGV("--replay", FIX("guest_oom_true.jsonl"), "-s",
			    "--record", rec1), NULL, &r) && r.status == 0 &&
	     (text = proc_slurp(rec1, &len)) && every_line(text, "{\"v\":1,") &&
	     !strstr(text, "memcg_id\":0,\"request_comm") &&
	     !strstr(text, "\"type\":\"memcg\"");
	if (!tap_ok(ok, "v1 replay --record: a version 1 recording, no memcg "
		    "lines, no request memcg_id"))
		show(&r);
	proc_free(&r);
	free(text);

	ok = !proc_run(ARGV("--replay", rec1, "--assert", "-s"), NULL, &r) &&
	     r.status == 0 && has(r.out, "summary: ", "stdout");
	tap_ok(ok, "the v1 re-recording replays");
	proc_free(&r);
}

/* -c on a v2 replay: the recording's memcg lines, never this machine. */
static void test_v2_cgroup(void)
{
	static const struct {
		const char *arg;
		bool hog, bystander;	/* their REQUEST lines shown */
		const char *what;
	} cases[] = {
		{ "/job", true, false, "a path: the memcgs named below it" },
		{ "/job/a/", true, false, "a path with a trailing slash" },
		{ "4000", true, false, "an id: it and those named below it" },
		{ "4100", true, false, "an id: itself" },
		{ "/other", false, true, "a path above an odd-byte name" },
		{ "/", true, true, "the root: every named memcg" },
		{ "/jo", false, false, "a prefix of a name is not a parent" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct proc_result r;
		bool ok;

		ok = !proc_run(ARGV("--replay", V2, "-c", cases[i].arg), NULL,
			       &r) && r.status == 0 &&
		     !strstr(r.out, "REQUEST       hog[200]") == !cases[i].hog &&
		     !strstr(r.out, "REQUEST       bystander[201]") ==
		     !cases[i].bystander &&
		     !strstr(r.out, "KILL  ") == !cases[i].hog &&
		     !strstr(r.out, "REQUEST       nomemcg") &&
		     !strstr(r.err, "version 1") &&
		     has(r.err, "oomwatch: --cgroup: 1 OOM request not shown: the "
			 "recording does not say which memcg its requester was "
			 "in (memcg_id 0)\n", "stderr") &&
		     has(r.out, "summary: 24 events", "stdout");
		if (!tap_ok(ok, "-c %s on a v2 replay: %s; only the memcg_id 0 "
			    "request is counted as not shown", cases[i].arg,
			    cases[i].what))
			show(&r);
		proc_free(&r);
	}
}

static void test_v2_cgroup_notes(void)
{
	struct proc_result r;
	bool ok;

	ok = !proc_run(ARGV("--replay", V2, "-c", "/sys/fs/cgroup/job"), NULL,
		       &r) && r.status == 0 && !strstr(r.out, "REQUEST") &&
	     has(r.err, "oomwatch: --cgroup /sys/fs/cgroup/job: the recording "
		 "names no memcg at or below that path (on a replay a path is "
		 "the recording's, from the traced machine's cgroup2 root, as "
		 "in /job)\n", "stderr");
	if (!tap_ok(ok, "-c with this machine's spelling on a replay: nothing "
		    "matches, and it says why"))
		show(&r);
	proc_free(&r);

	ok = !proc_run(ARGV("--replay", FIX("arbiter_ok.jsonl"), "-c", "/job"),
		       NULL, &r) && r.status == 1 && !r.out[0] &&
	     has(r.err, "oomwatch: --cgroup /job: " FIX("arbiter_ok.jsonl")
		 " is a version 1 recording, which names no cgroup by path: "
		 "give a memcg id\n", "stderr");
	if (!tap_ok(ok, "-c PATH on a v1 replay: refused, exit 1"))
		show(&r);
	proc_free(&r);

	ok = !proc_run(ARGV("--replay", V2, "-c", "job"), NULL, &r) &&
	     r.status == 1 &&
	     has(r.err, "oomwatch: --cgroup job: on a replay, a memcg id or a "
		 "cgroup path as the recording names it, from the cgroup2 root "
		 "(/job)\n", "stderr");
	tap_ok(ok, "-c with a relative path on a replay: refused, exit 1");
	proc_free(&r);
}

/* Damaged v2 files, and version changes, through the real main. */
static void test_v2_bad_files(void)
{
	static const char v1_then_v2[] = HDR
		"{\"v\":2,\"type\":\"memcg\",\"memcg_id\":5,\"path\":\"/a\"}\n";
	const char *p = proc_write("mixed.jsonl", v1_then_v2,
				   strlen(v1_then_v2));
	char want[512];
	struct proc_result r;
	bool ok;

	snprintf(want, sizeof(want), "oomwatch: %s:2: version 2 line after "
		 "version 1 lines (a recording has one version)\n", p);
	ok = !proc_run(ARGV("--replay", p, "-j"), NULL, &r) &&
	     r.status == 1 && has(r.err, want, "stderr") &&
	     every_line(r.out, "{\"v\":1,");
	if (!tap_ok(ok, "a v1 file with a v2 line: FILE:2, exit 1, what came "
		    "before written as v1"))
		show(&r);
	proc_free(&r);
}

/* ------------------------------------------------- trace format 3 */

#define V3 FIX("thrash_v3.jsonl")

/* The thrash rule's story, line by line, and its verdicts. */
static void test_v3_timeline(void)
{
	static const char *const want[] = {
		"     2.000000 THRASHING     node 0: a 1000 ms window of reclaim "
		"thrashed: 5120 file refaults, 6144 pages reclaimed\n",
		"    12.010000 THRASH GRANT  node 0, kill allowed: the next "
		"allocation on it that may invoke the OOM killer takes the grant; "
		"kswapd saw: thrashing "
		"11010 ms (timeout 10000), last window 4800 file refaults, 5900 pages "
		"reclaimed, no swap, low zone 0 free 300 high 384, low zone 1 "
		"free 1200 high 1400\n",
		"    12.015000 THRASH TAKE   hog[200] memcg /job (4100) takes "
		"node 0's thrash grant (THRASH GRANT seq 4, 5 ms old): order 0, "
		"gfp 0x100cca; it calls out_of_memory() itself\n",
		"    12.020000 KILL          global OOM, victim hog[200]: rss "
		"481200 kB (anon 480000, file 1200, shmem 0), total_vm 524288 kB, "
		"oom_score_adj 0, memcg /job (4100); chosen by hog[200], 5 ms "
		"after THRASH TAKE seq 5 on node 0\n",
		"    12.150000 EXIT          hog[200] is gone, 130 ms after the "
		"kill\n",
		"    14.000000 NOT THRASHING node 0 after 13000 ms: calm: a window "
		"of reclaim did not thrash (1000 ms: 96 file refaults, 2048 pages "
		"reclaimed)\n",
		"summary: 12 events, 1 OOM episode, 0 lost\n",
		"  thrashing (the thrash rule):\n    node 0: 1 set, 13.000 s "
		"thrashing, 1 grant, 1 take\n",
		"    1 no_kill_without_grant  ok\n",
		"    7 thrash_timer           ok\n",
		"    8 thrash_rule            ok\n",
		"    9 one_take_per_grant     ok\n",
	};
	struct proc_result r;
	bool ok;

	ok = !proc_run(ARGV("--replay", V3, "--assert"), NULL, &r) &&
	     r.status == 0 && !r.err[0];
	for (size_t i = 0; ok && i < ARRAY_SIZE(want); i++)
		ok = has(r.out, want[i], "stdout");
	if (!tap_ok(ok, "v3 replay --assert: exit 0; set, grant with its "
		    "evidence, take, the kill it allowed, clear; the thrash "
		    "summary and invariants"))
		show(&r);
	proc_free(&r);

	ok = !proc_run(ARGV("--replay", V2, "-s"), NULL, &r) && r.status == 0 &&
	     has(r.out, "    7 thrash_timer           not checked "
		 "(configuration)\n", "stdout") &&
	     !strstr(r.out, "thrash rule");
	if (!tap_ok(ok, "v2 replay: the thrash invariants are not checked"))
		show(&r);
	proc_free(&r);
}

/* -j and --record: back byte for byte; --svg: the thrashing lane. */
static void test_v3_json_svg(void)
{
	const char *rec = proc_path("v3rec.jsonl"), *svg = proc_path("v3.svg");
	struct proc_result j, r;
	size_t flen, len;
	char *fix = proc_slurp(V3, &flen), *text = NULL, *pic = NULL;
	char *b1 = NULL, *bf = NULL;
	bool ok;

	ok = fix && !proc_run(ARGV("--replay", V3, "-j", "--record", rec,
				   "--svg", svg), NULL, &j) &&
	     j.status == 0 && !j.err[0] &&
	     (text = proc_slurp(rec, &len)) && len == j.out_len &&
	     !memcmp(text, j.out, len) && (b1 = body(j.out)) &&
	     (bf = body(fix)) && !strcmp(b1, bf) &&
	     every_line(j.out, "{\"v\":3,") &&
	     has(j.out, "\"thrashing\":[{\"nid\":0,\"sets\":1,"
		 "\"thrashing_ms\":13000,\"grants\":1,\"takes\":1}]", "stdout") &&
	     (pic = proc_slurp(svg, &len)) &&
	     has(pic, "<rect class=\"thrash\"", "svg") &&
	     has(pic, "<polygon class=\"tgrant\"", "svg") &&
	     has(pic, "<line class=\"take\"", "svg");
	if (!tap_ok(ok, "v3 replay -j, --record: every line v3, the fixture's "
		    "lines byte for byte; --svg: thrashing, grant, take"))
		show(&j);
	free(text);
	free(pic);
	free(b1);
	free(bf);

	ok = !proc_run(ARGV("--replay", rec, "-j"), NULL, &r) &&
	     r.status == 0 && r.out_len == j.out_len &&
	     !memcmp(r.out, j.out, j.out_len);
	tap_ok(ok, "the v3 re-recording replays to the same lines");
	proc_free(&r);
	proc_free(&j);
	free(fix);
}

/* -p and -c treat a take as a request of its task and memcg. */
static void test_v3_filters(void)
{
	static const struct {
		const char *opt, *arg;
		bool take, kill;
	} cases[] = {
		{ "-p", "200", true, true },
		{ "-p", "999", false, false },
		{ "-c", "/job", true, true },
		{ "-c", "4100", true, true },
		{ "-c", "/", true, true },
		{ "-c", "/other", false, false },
		{ "-c", "1", true, true },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct proc_result r;
		bool ok;

		ok = !proc_run(ARGV("--replay", V3, cases[i].opt, cases[i].arg),
			       NULL, &r) && r.status == 0 &&
		     !strstr(r.out, "THRASH TAKE   hog[200]") ==
		     !cases[i].take &&
		     !strstr(r.out, "KILL  ") == !cases[i].kill &&
		     has(r.out, "THRASHING     node 0", "stdout") &&
		     has(r.out, "THRASH GRANT  node 0", "stdout") &&
		     has(r.out, "NOT THRASHING node 0", "stdout") &&
		     has(r.out, "summary: 12 events", "stdout");
		if (!tap_ok(ok, "%s %s on a v3 replay: the take %s, the node's "
			    "thrashing and grant always", cases[i].opt,
			    cases[i].arg, cases[i].take ? "shown" : "hidden"))
			show(&r);
		proc_free(&r);
	}
}

/* The fixture with one thing changed, replayed with --assert. */
static void planted(const char *name, const char *from, const char *to,
		    const char *says, const char *what)
{
	size_t len, n = strlen(from), m = strlen(to);
	char *text = proc_slurp(V3, &len), *at = text ? strstr(text, from) :
		     NULL, *copy = NULL;
	struct proc_result r;
	bool ok = false;

	if (at && (copy = malloc(len - n + m + 1))) {
		size_t pre = at - text;

		memcpy(copy, text, pre);
		memcpy(copy + pre, to, m);
		memcpy(copy + pre + m, at + n, len - pre - n);
		copy[len - n + m] = '\0';
		proc_write(name, copy, strlen(copy));
		ok = !proc_run(ARGV("--replay", proc_path(name), "--assert"),
			       NULL, &r) && r.status == 2 &&
		     has(r.out, says, "stdout") &&
		     has(r.err, "oomwatch: --assert: 1 invariant violation, 0 "
			 "events lost", "stderr");
		if (!ok)
			show(&r);
		proc_free(&r);
	}
	tap_ok(ok, "v3 replay, planted: %s: exit 2 with --assert", what);
	free(text);
	free(copy);
}

static void test_v3_planted(void)
{
	planted("early.jsonl", "\"ts_ns\":12010000000",
		"\"ts_ns\":9010000000",
		"!!            thrash_timer: oom_thrash_grant seq 4 at 9.010000s "
		"on node 0: only 8010.000 ms after thrashing_set seq 1 at "
		"1.000000s, before timeout 10000 ms (tolerance 20 ms); it claims "
		"11010 ms thrashing, the record shows 8010.000 ms since "
		"thrashing_set seq 1 (tolerance 20 ms)\n",
		"a grant 7 s after the set");
	planted("swap.jsonl", "\"swap_free\":0,\"swap_total\":0",
		"\"swap_free\":3200,\"swap_total\":3200",
		"!!            thrash_rule: oom_thrash_grant seq 4 at 12.010000s "
		"on node 0 breaks the thrash rule: swap can help: 3200 of 3200 "
		"pages free",
		"a grant with all swap free");
	planted("othernode.jsonl", "\"type\":\"oom_thrash_grant\",\"nid\":0",
		"\"type\":\"oom_thrash_grant\",\"nid\":1",
		"!!            one_take_per_grant: oom_thrash_take seq 5 at "
		"12.015000s by pid 200 (hog) on node 0 with no thrash grant "
		"outstanding on that node\n",
		"the take on a node whose grant went elsewhere");
}

/* #25: a take whose memcg is unknown is counted as hidden under -c. */
static void test_v3_take_memcg0(void)
{
	static const char from[] = "\"memcg_id\":4100,\"take_comm\"";
	static const char to[] = "\"memcg_id\":0,\"take_comm\"";
	size_t len;
	char *text = proc_slurp(V3, &len), *at = text ? strstr(text, from) :
		     NULL;
	struct proc_result r;
	bool ok = false;

	if (at) {
		memmove(at + strlen(to), at + strlen(from),
			len - (at - text) - strlen(from) + 1);
		memcpy(at, to, strlen(to));
		proc_write("take0.jsonl", text, strlen(text));
		ok = !proc_run(ARGV("--replay", proc_path("take0.jsonl"), "-c",
				    "/job"), NULL, &r) && r.status == 0 &&
		     !strstr(r.out, "THRASH TAKE   hog[200]") &&
		     has(r.err, "oomwatch: --cgroup: 1 thrash take not shown: "
			 "the recording does not say which memcg its task was "
			 "in (memcg_id 0)\n", "stderr");
		if (!ok)
			show(&r);
		proc_free(&r);
	}
	tap_ok(ok, "-c /job on a v3 replay: a take with memcg_id 0 is hidden "
	       "and counted");
	free(text);
}

/*
 * #25: the memcg path table holds OW_MEMCG_MAX_PATHS ids; the 65,537th
 * path is not kept, and the replay says so (stderr, summary, --assert),
 * never that the recording names no such path.
 */
static void test_memcg_table_full(void)
{
	static const char hdr[] = "{\"v\":3,\"type\":\"header\","
		"\"tool\":\"oomwatch\",\"kernel\":\"k\",\"config\":{"
		"\"oom_arbiter\":1,\"oom_unreclaimable_timeout_ms\":5000,"
		"\"oom_arbiter_fallback_ms\":10000,\"swap_token\":0,"
		"\"swap_token_bypass_priority\":0,\"oom_arbiter_thrash\":0,"
		"\"oom_thrash_timeout_ms\":10000},\"kswapd_period_ms\":1000}\n";
	size_t cap = 80 * 70000, len = 0;
	char *text = malloc(cap);
	struct proc_result r;
	bool ok = false;

	if (!text)
		goto out;
	len += snprintf(text + len, cap - len, "%s", hdr);
	len += snprintf(text + len, cap - len, "{\"v\":3,\"type\":\"memcg\","
			"\"memcg_id\":1,\"path\":\"/\"}\n");
	for (unsigned int id = 2; id <= 65536; id++)
		len += snprintf(text + len, cap - len, "{\"v\":3,\"type\":"
				"\"memcg\",\"memcg_id\":%u,\"path\":\"/c%u\"}\n",
				id, id);
	len += snprintf(text + len, cap - len, "{\"v\":3,\"type\":\"memcg\","
			"\"memcg_id\":70000,\"path\":\"/job\"}\n");
	len += snprintf(text + len, cap - len, "{\"v\":3,\"seq\":0,"
			"\"ts_ns\":1000,\"cpu\":0,\"pid\":200,\"tgid\":200,"
			"\"comm\":\"hog\",\"type\":\"oom_request\","
			"\"request_pid\":200,\"nid\":0,\"order\":0,"
			"\"gfp_flags\":0,\"reason\":0,\"waited_ms\":0,"
			"\"memcg_id\":70000,\"request_comm\":\"hog\"}\n");
	proc_write("full.jsonl", text, len);
	ok = !proc_run(ARGV("--replay", proc_path("full.jsonl"), "-c", "/job",
			    "-s", "--assert"), NULL, &r) && r.status == 2 &&
	     has(r.err, "the memcg path table is full (65536 ids): 1 memcg "
		 "line not kept", "stderr") &&
	     !strstr(r.err, "names no memcg at or below") &&
	     has(r.out, "record_whole           1 violation", "stdout");
	if (!ok)
		show(&r);
	proc_free(&r);
out:
	tap_ok(ok, "the 65,537th memcg path: said on stderr, in the summary, "
	       "and --assert fails");
	free(text);
}

/* ---------------------------------------------------- version 5: shed */

#define V5 FIX("shed_v5.jsonl")

/*
 * Context records shed under load break no rule; the kill explanation
 * says its evidence may be old, the summary counts them, and -j and
 * --record carry the shed line on.
 */
static void test_v5_shed(void)
{
	const char *rec = proc_path("v5rec.jsonl");
	struct proc_result r, j;
	char *text = NULL;
	size_t len;
	bool ok;

	ok = !proc_run(ARGV("--replay", V5, "--assert"), NULL, &r) &&
	     r.status == 0 &&
	     has(r.out, "16 retries without progress (hog[301]) (1200 "
		 "context records shed since the last kill, the ring half "
		 "full: later looks may be missing)\n", "stdout") &&
	     has(r.out, "summary: 3 events, 1 OOM episode, 0 lost\n  1200 "
		 "context records shed", "stdout") &&
	     has(r.out, "    6 record_whole           ok\n", "stdout");
	if (!tap_ok(ok, "v5 replay --assert: shed records break no rule; the "
		    "kill's evidence and the summary say how many"))
		show(&r);
	proc_free(&r);

	ok = !proc_run(ARGV("--replay", V5, "-j", "--record", rec), NULL,
		       &j) && j.status == 0 &&
	     has(j.out, "{\"v\":5,\"type\":\"shed\",\"count\":1200}\n",
		 "stdout") &&
	     has(j.out, "\"lost\":0,\"shed\":1200,", "stdout") &&
	     (text = proc_slurp(rec, &len)) && len == j.out_len &&
	     !memcmp(text, j.out, len);
	if (!tap_ok(ok, "v5 replay -j, --record: the shed line and the "
		    "summary's count, the record byte for byte"))
		show(&j);
	proc_free(&j);
	free(text);
}

int main(void)
{
	test_statuses();
	test_timeline();
	test_json();
	test_record_svg();
	test_filters();
	test_bad_files();
	test_stdin_and_headerless();
	test_record_svg_same_file();
	test_replay_signals();
	test_cgroup_count();
	test_v2_timeline();
	test_v2_json_record();
	test_v2_cgroup();
	test_v2_cgroup_notes();
	test_v2_bad_files();
	test_v3_timeline();
	test_v3_json_svg();
	test_v3_filters();
	test_v3_planted();
	test_v3_take_memcg0();
	test_memcg_table_full();
	test_v5_shed();
	return tap_done();
}

// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The command line: parsing into struct ow_cli in-process, then the real
 * main (oomwatch-host) as a child for what exits: --help, unknown
 * options, bad numbers, conflicting options, each with its message and
 * exit status 1 (0 for --help).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdlib.h>
#include <string.h>
#include "cli.h"

#include "proc.h"
#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ARGV(...)	((const char *[]){ OOMWATCH_BIN, __VA_ARGS__, NULL })

static void test_parse(void)
{
	char *argv[] = {
		"oomwatch", "-p", "181", "-c", "/sys/fs/cgroup/job", "-T", "-j",
		"-s", "-d", "010", "--assert", "--record", "r.jsonl", "--svg",
		"a.svg", "-M", "-v", "--ring-size", "512k", NULL,
	};
	char *replay[] = { "oomwatch", "--replay=-", NULL };
	struct ow_cli c;
	char why[128];

	ow_cli_parse(&c, ARRAY_SIZE(argv) - 1, argv);
	tap_ok(c.pid == 181 && !strcmp(c.cgroup, "/sys/fs/cgroup/job") &&
	       c.timestamp && c.json && c.summary_only && c.duration == 10 &&
	       c.assert_mode && !strcmp(c.record, "r.jsonl") &&
	       !strcmp(c.svg, "a.svg") && c.tolerate_missing && c.verbose &&
	       c.ring_size == 512 << 10 &&
	       !c.replay && !ow_cli_check(&c, why, sizeof(why)),
	       "parse: every option into struct ow_cli (decimal -d 010)");
	ow_cli_parse(&c, 2, replay);
	tap_ok(!strcmp(c.replay, "-") && !c.pid && !c.json &&
	       !ow_cli_check(&c, why, sizeof(why)),
	       "parse: --replay=- (stdin), defaults elsewhere");
}

static void test_check(void)
{
	static const struct {
		struct ow_cli cli;
		const char *why;
	} cases[] = {
		{ { .replay = "f", .duration = 5 },
		  "--duration is for live tracing, not --replay" },
		{ { .replay = "f", .tolerate_missing = true },
		  "--tolerate-missing is for live tracing, not --replay" },
		{ { .replay = "f", .cost = true },
		  "--cost measures live tracing, not --replay" },
		{ { .record = "-" },
		  "--record needs a file name (use -j for stdout)" },
		{ { .svg = "-" }, "--svg needs a file name" },
		{ { .replay = "x.jsonl", .record = "x.jsonl" },
		  "--record would overwrite the --replay file" },
		{ { .replay = "x.jsonl", .svg = "x.jsonl" },
		  "--svg would overwrite the --replay file" },
		{ { .record = "o", .svg = "o" },
		  "--record and --svg name the same file" },
		{ { .replay = "f", .journal = true },
		  "--journal is for live tracing, not --replay" },
		{ { .journal = true, .json = true },
		  "--journal replaces the timeline: not with -j or -s" },
		{ { .journal = true, .summary_only = true },
		  "--journal replaces the timeline: not with -j or -s" },
		{ { .record_max = 4096 }, "--record-max-size needs --record" },
		{ { .replay = "f", .ring_size = 1 << 20 },
		  "--ring-size is for live tracing, not --replay" },
	};
	bool ok = true;
	char why[128];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!ow_cli_check(&cases[i].cli, why, sizeof(why)) ||
		    strcmp(why, cases[i].why)) {
			tap_diag("case %zu: got \"%s\"", i, why);
			ok = false;
		}
	}
	tap_ok(ok, "check: %zu conflicting option sets refused with a reason",
	       ARRAY_SIZE(cases));
}

struct err_case {
	const char *const *argv;
	int status;
	const char *out;	/* expected in stdout, or NULL */
	const char *err;	/* expected in stderr, or NULL */
	const char *what;
};

static void run_case(const struct err_case *c)
{
	struct proc_result r;
	bool ok;

	ok = !proc_run(c->argv, NULL, &r) && r.status == c->status &&
	     (!c->out || strstr(r.out, c->out)) &&
	     (!c->err || strstr(r.err, c->err));
	if (!tap_ok(ok, "cli: %s (exit %d)", c->what, c->status))
		tap_diag("exit %d, stdout: %.300s / stderr: %.300s", r.status,
			 r.out ? r.out : "", r.err ? r.err : "");
	proc_free(&r);
}

static void test_exits(void)
{
	const struct err_case cases[] = {
		{ ARGV("--help"), 0, "EXIT STATUS:\n    0  ok\n    1  set-up "
		  "error", NULL, "--help: usage, examples, exit statuses" },
		{ ARGV("--help"), 0, "print every other event as is.  Filters\n"
		  "                             by memory cgroup id", NULL,
		  "--help: -c says what it selects, by memory cgroup id" },
		{ ARGV("-h"), 0, "USAGE: oomwatch [-j|-s]", NULL,
		  "-h: the full help too" },
		{ ARGV("--version"), 0, "oomwatch 0.5 (trace format 5, reads 1 to 5)",
		  NULL, "--version" },
		{ ARGV("--bogus"), 1, NULL, "unrecognized option '--bogus'\n"
		  "Try `oomwatch --help' or `oomwatch --usage' for more "
		  "information.", "unknown long option" },
		{ ARGV("-x"), 1, NULL, "invalid option -- 'x'",
		  "unknown short option" },
		{ ARGV("stray"), 1, NULL, "oomwatch: unexpected argument \"stray\"",
		  "a stray argument" },
		{ ARGV("-p", "abc"), 1, NULL, "oomwatch: invalid PID \"abc\": "
		  "expected a number from 1 to 2147483647", "-p not a number" },
		{ ARGV("-p", "0"), 1, NULL, "invalid PID \"0\"", "-p 0" },
		{ ARGV("-p", "-5"), 1, NULL, "invalid PID \"-5\"", "-p negative" },
		{ ARGV("-p", "99999999999"), 1, NULL, "invalid PID",
		  "-p out of range" },
		{ ARGV("-p", "12x"), 1, NULL, "invalid PID \"12x\"",
		  "-p trailing garbage" },
		{ ARGV("-d", "0"), 1, NULL, "invalid duration \"0\": expected a "
		  "number from 1 to 31536000", "-d 0" },
		{ ARGV("-d", "1.5"), 1, NULL, "invalid duration \"1.5\"",
		  "-d fraction" },
		{ ARGV("-d"), 1, NULL, "option requires an argument -- 'd'",
		  "-d without a value" },
		{ ARGV("--record="), 1, NULL, "--record: empty file name",
		  "--record with an empty name" },
		{ ARGV("-c", ""), 1, NULL, "--cgroup: empty path",
		  "-c with an empty path" },
		{ ARGV("--replay", "f", "-d", "5"), 1, NULL, "oomwatch: --duration "
		  "is for live tracing, not --replay\nTry `oomwatch --help'",
		  "--replay with -d" },
		{ ARGV("--record", "-"), 1, NULL, "--record needs a file name",
		  "--record to stdout" },
		{ ARGV("--record", "r", "--record-max-size", "4095"), 1, NULL,
		  "invalid --record-max-size \"4095\": expected bytes from 4k "
		  "to 1024G", "--record-max-size below 4k" },
		{ ARGV("--record", "r", "--record-max-size", "16X"), 1, NULL,
		  "invalid --record-max-size \"16X\"",
		  "--record-max-size with an unknown suffix" },
		{ ARGV("--record", "r", "--record-max-size", "2000G"), 1, NULL,
		  "invalid --record-max-size \"2000G\"",
		  "--record-max-size above 1024G" },
		{ ARGV("--ring-size", "96k"), 1, NULL,
		  "invalid --ring-size \"96k\": expected a power of two of "
		  "bytes from 64k to 256M", "--ring-size not a power of two" },
		{ ARGV("--ring-size", "32k"), 1, NULL,
		  "invalid --ring-size \"32k\"", "--ring-size below 64k" },
		{ ARGV("--ring-size", "512M"), 1, NULL,
		  "invalid --ring-size \"512M\"", "--ring-size above 256M" },
		{ ARGV("--ring-size", "0"), 1, NULL,
		  "invalid --ring-size \"0\"", "--ring-size 0" },
		{ ARGV("--record", "r", "--record-keep", "0"), 1, NULL,
		  "invalid --record-keep \"0\": expected a number from 1 to "
		  "100", "--record-keep 0" },
		{ ARGV("--replay", "f", "--journal"), 1, NULL,
		  "--journal is for live tracing, not --replay",
		  "--journal with --replay" },
		{ ARGV("--replay", "/nonexistent/x.jsonl"), 1, NULL,
		  "oomwatch: --replay /nonexistent/x.jsonl: No such file or "
		  "directory", "--replay of a missing file" },
		{ ARGV("-j"), 1, NULL, "this is the host test build: no BPF",
		  "live mode reaches the live tracer (none in this build)" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
}

int main(void)
{
	test_parse();
	test_check();
	test_exits();
	return tap_done();
}

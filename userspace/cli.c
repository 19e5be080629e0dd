// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: argument parsing and dispatch; cli.h says why it is apart.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* argp */
#endif
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "metrics.h"
#include "replay.h"
#include "trace.h"

#define OW_STR2(x)	#x
#define OW_STR(x)	OW_STR2(x)
/* From the macros the encoder and decoder use, so that it cannot drift. */
const char *argp_program_version =
	"oomwatch 0.5 (trace format " OW_STR(OOMWATCH_FORMAT_VERSION)
	", reads " OW_STR(OW_FORMAT_VERSION_MIN) " to "
	OW_STR(OOMWATCH_FORMAT_VERSION) ")";
const char *argp_program_bug_address = "<oomwatch@localhost>";

static const char doc[] =
"Watch the kernel's OOM decisions and check their rules.\n"
"\n"
"oomwatch follows the patched kernel's OOM arbiter and swap token (trace\n"
"system \"oomwatch\": its thrash rule too, where the kernel has it) and the\n"
"stock oom: and vmscan: events, and prints one line per decision with its\n"
"reason chain: who asked, what kswapd saw, the verdict, the victim.  It\n"
"checks the ten invariants of docs/invariants.md as it goes, live or on\n"
"a recording.\n"
"\n"
"USAGE: oomwatch [-j|-s] [-T] [-p PID] [-c CGROUP] [-d SECONDS] [--assert]\n"
"                [--record FILE [--record-max-size SIZE] [--record-keep N]]\n"
"                [--journal] [--svg FILE] [--cost] [--ring-size SIZE] [-M] [-v]\n"
"                [--metrics FILE [--metrics-interval SECONDS]]\n"
"       oomwatch --replay FILE [-j|-s] [-T] [-p PID] [-c CGROUP] [--assert]\n"
"                [--record FILE] [--svg FILE] [--metrics FILE]\n"
"\n"
"EXAMPLES:\n"
"    oomwatch                      # live timeline of OOM decisions\n"
"    oomwatch -T -s                # wall-clock times; only the summary\n"
"    oomwatch -j > oom.jsonl       # JSON lines on stdout, summary last\n"
"    oomwatch --record oom.jsonl   # timeline, and a recording to replay\n"
"    oomwatch --assert -d 60       # check the rules for 60 s, exit 2 if broken\n"
"    oomwatch -p 181               # only events about process 181\n"
"    oomwatch -c /sys/fs/cgroup/job   # only kills and requests in that memcg\n"
"    oomwatch --journal --record /var/log/oomwatch/oomwatch.jsonl \\\n"
"             --record-max-size 16M  # as oomwatch.service runs it\n"
"    oomwatch --replay oom.jsonl --assert --svg oom.svg\n"
"                                  # check a recording, draw it; no BPF\n"
"    oomwatch -s --metrics /var/lib/prometheus/node-exporter/oomwatch.prom\n"
"                                  # Prometheus metrics for node_exporter\n"
"\n"
"Live tracing needs root (CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN) and a\n"
"kernel with BTF (/sys/kernel/btf/vmlinux).  -p and -c choose what is\n"
"printed; the checker, the summary, --record and --svg see every event.\n"
"The checker always runs and reports what breaks; --assert makes it fail\n"
"the run.\n"
"\v"
"EXIT STATUS:\n"
"    0  ok\n"
"    1  set-up error: bad option or number, not root / no CAP_BPF, no BTF,\n"
"       BPF load or attach failure, unreadable or malformed --replay file\n"
"    2  --assert: an invariant was violated, or events were lost\n"
"    3  a required tracepoint is missing: not the oomwatch-patched kernel\n"
"       (--tolerate-missing runs with the stock tracepoints only)\n"
"\n"
"The JSON lines are described field by field in docs/trace-format.md.\n";

enum {
	OPT_ASSERT = 0x100,	/* long options without a short one */
	OPT_RECORD,
	OPT_REPLAY,
	OPT_SVG,
	OPT_COST,
	OPT_JOURNAL,
	OPT_RECORD_MAX,
	OPT_RECORD_KEEP,
	OPT_METRICS,
	OPT_METRICS_INTERVAL,
	OPT_RING_SIZE,
};

static const struct argp_option opts[] = {
	{ "pid", 'p', "PID", 0,
	  "Print only events about this process (its requests, verdicts, "
	  "thrash takes, kill, token moves) and the unreclaimable and "
	  "thrashing transitions and thrash grants around them", 0 },
	{ "cgroup", 'c', "CGROUP", 0,
	  "Of the kills, OOM requests and thrash takes, print only those of "
	  "tasks in this "
	  "cgroup v2 directory or below it, with the verdicts that answer "
	  "those requests; print every other event as is.  Filters by memory "
	  "cgroup id: the victim's memcg as the kernel charges it, so the "
	  "directory needs the memory controller (\"memory\" in its parent's "
	  "cgroup.subtree_control).  A number is taken as a memcg id (the "
	  "directory's inode number).  With --replay, CGROUP is matched "
	  "against the cgroup paths the recording names (its memcg lines), "
	  "never this machine's: a path from the traced machine's cgroup2 "
	  "root (/job, not /sys/fs/cgroup/job) selects the memcgs named at or "
	  "below it, a number that memcg and those named below it.  A "
	  "version 1 recording does not say which memcg a requester was in: "
	  "a replay of one shows no requests and says how many it hid", 0 },
	{ "timestamp", 'T', NULL, 0,
	  "Prefix lines with the wall-clock time (with --replay: the time "
	  "since the first event)", 0 },
	{ "json", 'j', NULL, 0,
	  "JSON lines on stdout (format version 3; with --replay, the "
	  "recording's version), a summary object last; diagnostics on "
	  "stderr", 0 },
	{ "summary", 's', NULL, 0,
	  "No timeline: only the summary at the end", 0 },
	{ "duration", 'd', "SECONDS", 0, "Stop after this long", 0 },
	{ "assert", OPT_ASSERT, NULL, 0,
	  "Exit with status 2 on any invariant violation or lost event", 0 },
	{ "record", OPT_RECORD, "FILE", 0,
	  "Also write the complete JSON-lines recording to FILE", 0 },
	{ "record-max-size", OPT_RECORD_MAX, "SIZE", 0,
	  "Rotate the recording when it passes SIZE bytes (suffix k, M or "
	  "G; at least 4k): FILE becomes FILE.1, FILE.1 FILE.2, and so on; "
	  "each file starts with the header and replays on its own.  SIGHUP "
	  "rotates too (systemctl reload), or reopens FILE if it was moved "
	  "away (logrotate)", 0 },
	{ "record-keep", OPT_RECORD_KEEP, "N", 0,
	  "Rotated recordings kept, 1 to 100 (default 4): the oldest beyond "
	  "are deleted", 0 },
	{ "journal", OPT_JOURNAL, NULL, 0,
	  "Send the timeline to the systemd journal instead of stdout, one "
	  "entry per line with a priority (a kill is a warning, a violation "
	  "an error) and OOMWATCH_* fields: journalctl OOMWATCH_EVENT=kill "
	  "lists the kills and what allowed each", 0 },
	{ "replay", OPT_REPLAY, "FILE", 0,
	  "Read a recording instead of tracing: decode, check, print; no BPF, "
	  "any machine (\"-\": stdin)", 0 },
	{ "svg", OPT_SVG, "FILE", 0,
	  "At the end, draw the run as an SVG timeline into FILE", 0 },
	{ "cost", OPT_COST, NULL, 0,
	  "At the end, print what tracing cost: oomwatch's own CPU time "
	  "and memory, and the time the kernel spent in its BPF programs "
	  "(BPF run-time statistics are on while it runs)", 0 },
	{ "metrics", OPT_METRICS, "FILE", 0,
	  "Write Prometheus metrics (text format, for node_exporter's "
	  "textfile collector) to FILE, atomically: every --metrics-interval "
	  "and at the end (a replay: at the end, the same numbers as the live "
	  "run that recorded it)", 0 },
	{ "metrics-interval", OPT_METRICS_INTERVAL, "SECONDS", 0,
	  "Live: write --metrics every SECONDS (1 to 86400; default 15)", 0 },
	{ "ring-size", OPT_RING_SIZE, "SIZE", 0,
	  "Live: the BPF ring buffer's size, a power of two from 64k to 256M "
	  "(default 2M).  Context events (reclaim retries, direct reclaim, "
	  "kswapd) are shed, counted, once half of it is unread; decisions "
	  "never are", 0 },
	{ "tolerate-missing", 'M', NULL, 0,
	  "On a kernel without the oomwatch tracepoints, watch the stock ones "
	  "only", 0 },
	{ "verbose", 'v', NULL, 0, "Show libbpf's messages", 0 },
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Show the full help", 0 },
	{},
};

/* Decimal only: "010" is ten, not eight, and "0x10" is refused. */
static long parse_long(const char *arg, long min, long max,
		       struct argp_state *state, const char *what)
{
	char *end;
	long val;

	errno = 0;
	val = strtol(arg, &end, 10);
	if (errno || end == arg || *end || val < min || val > max) {
		argp_error(state, "invalid %s \"%s\": expected a number from "
			   "%ld to %ld", what, arg, min, max);
		return min;	/* not reached: argp_error exits */
	}
	return val;
}

/*
 * "16M", "4096", "1G": bytes from min to max for option opt (range says
 * so in the message); a power of two if pow2.
 */
static long long parse_size(const char *arg, struct argp_state *state,
			    const char *opt, long long min, long long max,
			    bool pow2, const char *range)
{
	long long val, mult = 1;
	char *end;

	errno = 0;
	val = strtoll(arg, &end, 10);
	if (*end == 'k' || *end == 'K')
		mult = 1LL << 10, end++;
	else if (*end == 'M')
		mult = 1LL << 20, end++;
	else if (*end == 'G')
		mult = 1LL << 30, end++;
	if (errno || end == arg || *end || val < 1 || val > max / mult ||
	    val * mult < min || (pow2 && (val * mult & (val * mult - 1))))
		argp_error(state, "invalid %s \"%s\": expected %sbytes from %s "
			   "(suffix k, M or G)", opt, arg,
			   pow2 ? "a power of two of " : "", range);
	return val * mult;
}

static const char *nonempty(const char *arg, struct argp_state *state,
			    const char *opt)
{
	if (!arg[0])
		argp_error(state, "%s: empty file name", opt);
	return arg;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct ow_cli *cli = state->input;

	switch (key) {
	case 'p':
		cli->pid = parse_long(arg, 1, INT_MAX, state, "PID");
		break;
	case 'c':
		if (!arg[0])
			argp_error(state, "--cgroup: empty path");
		cli->cgroup = arg;
		break;
	case 'T':
		cli->timestamp = true;
		break;
	case 'j':
		cli->json = true;
		break;
	case 's':
		cli->summary_only = true;
		break;
	case 'd':
		cli->duration = parse_long(arg, 1, OW_MAX_DURATION, state,
					   "duration");
		break;
	case OPT_ASSERT:
		cli->assert_mode = true;
		break;
	case OPT_RECORD:
		cli->record = nonempty(arg, state, "--record");
		break;
	case OPT_REPLAY:
		cli->replay = nonempty(arg, state, "--replay");
		break;
	case OPT_SVG:
		cli->svg = nonempty(arg, state, "--svg");
		break;
	case 'M':
		cli->tolerate_missing = true;
		break;
	case 'v':
		cli->verbose = true;
		break;
	case OPT_COST:
		cli->cost = true;
		break;
	case OPT_JOURNAL:
		cli->journal = true;
		break;
	case OPT_RECORD_MAX:
		cli->record_max = parse_size(arg, state, "--record-max-size",
					     OW_RECORD_MIN_SIZE, 1LL << 40,
					     false, "4k to 1024G");
		break;
	case OPT_RECORD_KEEP:
		cli->record_keep = parse_long(arg, 1, OW_RECORD_KEEP_MAX, state,
					      "--record-keep");
		break;
	case OPT_METRICS:
		cli->metrics = nonempty(arg, state, "--metrics");
		break;
	case OPT_METRICS_INTERVAL:
		cli->metrics_interval = parse_long(arg, 1,
						   OW_METRICS_INTERVAL_MAX,
						   state, "metrics interval");
		break;
	case OPT_RING_SIZE:
		cli->ring_size = parse_size(arg, state, "--ring-size",
					    OW_RING_MIN_SIZE, OW_RING_MAX_SIZE,
					    true, "64k to 256M");
		break;
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument \"%s\"", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

void ow_cli_parse(struct ow_cli *cli, int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts, .parser = parse_arg, .doc = doc,
	};

	memset(cli, 0, sizeof(*cli));
	cli->record_keep = OW_RECORD_KEEP_DEFAULT;
	/* argp's default is EX_USAGE (64): ours is documented as 1. */
	argp_err_exit_status = OW_EXIT_SETUP;
	argp_parse(&argp, argc, argv, 0, NULL, cli);
}

static bool same_name(const char *a, const char *b)
{
	return a && b && strcmp(a, "-") && !strcmp(a, b);
}

int ow_cli_check(const struct ow_cli *cli, char *why, size_t size)
{
	const char *bad = NULL;

	if (cli->replay && cli->duration)
		bad = "--duration is for live tracing, not --replay";
	else if (cli->replay && cli->tolerate_missing)
		bad = "--tolerate-missing is for live tracing, not --replay";
	else if (cli->replay && cli->cost)
		bad = "--cost measures live tracing, not --replay";
	else if (cli->replay && cli->journal)
		bad = "--journal is for live tracing, not --replay";
	else if (cli->replay && cli->ring_size)
		bad = "--ring-size is for live tracing, not --replay";
	else if (cli->journal && (cli->json || cli->summary_only))
		bad = "--journal replaces the timeline: not with -j or -s";
	else if (cli->record_max && !cli->record)
		bad = "--record-max-size needs --record";
	else if (cli->record && !strcmp(cli->record, "-"))
		bad = "--record needs a file name (use -j for stdout)";
	else if (cli->svg && !strcmp(cli->svg, "-"))
		bad = "--svg needs a file name";
	else if (same_name(cli->replay, cli->record))
		bad = "--record would overwrite the --replay file";
	else if (same_name(cli->replay, cli->svg))
		bad = "--svg would overwrite the --replay file";
	else if (same_name(cli->record, cli->svg))
		bad = "--record and --svg name the same file";
	else if (cli->metrics_interval && !cli->metrics)
		bad = "--metrics-interval needs --metrics";
	else if (cli->replay && cli->metrics_interval)
		bad = "--metrics-interval is for live tracing: a replay writes "
		      "--metrics once, at its end";
	else if (cli->metrics && !strcmp(cli->metrics, "-"))
		bad = "--metrics needs a file name";
	else if (same_name(cli->replay, cli->metrics))
		bad = "--metrics would overwrite the --replay file";
	else if (same_name(cli->record, cli->metrics))
		bad = "--record and --metrics name the same file";
	else if (same_name(cli->svg, cli->metrics))
		bad = "--svg and --metrics name the same file";
	if (!bad)
		return 0;
	snprintf(why, size, "%s", bad);
	return -1;
}

int ow_main(int argc, char **argv, ow_live_fn live)
{
	struct ow_cli cli;
	char why[128];

	ow_cli_parse(&cli, argc, argv);
	if (ow_cli_check(&cli, why, sizeof(why))) {
		fprintf(stderr, "oomwatch: %s\n"
			"Try `oomwatch --help' for more information.\n", why);
		return OW_EXIT_SETUP;
	}
	if (cli.replay)
		return ow_replay(&cli, stdout, stderr);
	return live(&cli);
}

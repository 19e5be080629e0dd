/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: the command line.  Parsing (argp, libbpf-tools conventions)
 * fills struct ow_cli; ow_main() checks it and runs either a replay, which
 * needs no BPF at all, or the live tracer it is handed.  Keeping the live
 * part behind a function pointer lets the host tests run the very same
 * main without a BPF skeleton.
 */
#ifndef OW_CLI_H
#define OW_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Exit codes: documented in --help, oomwatch(8) and docs/trace-format.md. */
enum ow_exit {
	OW_EXIT_OK = 0,
	OW_EXIT_SETUP = 1,	/* usage, privileges, BTF, load, replay file */
	OW_EXIT_VIOLATION = 2,	/* --assert: an invariant broke, events lost */
	OW_EXIT_MISSING_TP = 3,	/* a required tracepoint is not there */
};

#define OW_MAX_DURATION	(365L * 86400)	/* seconds */

struct ow_cli {
	pid_t pid;		/* -p: 0 means every process */
	const char *cgroup;	/* -c: a cgroup v2 path or a memcg id */
	bool timestamp;		/* -T */
	bool json;		/* -j */
	bool summary_only;	/* -s */
	long duration;		/* -d, seconds; 0: until a signal */
	bool assert_mode;	/* --assert */
	const char *record;	/* --record FILE */
	const char *replay;	/* --replay FILE, "-" for stdin */
	const char *svg;	/* --svg FILE */
	bool tolerate_missing;	/* -M */
	bool verbose;		/* -v */
	bool cost;		/* --cost */
	bool journal;		/* --journal */
	long long record_max;	/* --record-max-size, bytes; 0: no cap */
	long record_keep;	/* --record-keep: rotated files kept */
	const char *metrics;	/* --metrics FILE */
	long metrics_interval;	/* --metrics-interval, s; 0: the default */
	long long ring_size;	/* --ring-size, bytes; 0: the BPF default */
};

#define OW_RECORD_KEEP_DEFAULT	4
#define OW_RECORD_KEEP_MAX	100
#define OW_RECORD_MIN_SIZE	4096LL
/* --ring-size: a power of two (the BPF ring buffer's rule), 64k to 256M. */
#define OW_RING_MIN_SIZE	(64LL << 10)
#define OW_RING_MAX_SIZE	(256LL << 20)

/*
 * argp over argv.  Like every libbpf-tool it exits on --help, --usage,
 * --version (status 0) and on a malformed option or number (status
 * OW_EXIT_SETUP, with argp's "Try `oomwatch --help'" hint); it returns
 * only with a filled *cli.
 */
void ow_cli_parse(struct ow_cli *cli, int argc, char **argv);

/*
 * The rules between options that argp cannot express.  Returns 0, or -1
 * with a one-line reason in why.
 */
int ow_cli_check(const struct ow_cli *cli, char *why, size_t size);

/* Runs the live tracer for a checked *cli; returns an enum ow_exit. */
typedef int (*ow_live_fn)(const struct ow_cli *cli);

/* parse, check, then replay or live; returns the process exit status. */
int ow_main(int argc, char **argv, ow_live_fn live);

#endif /* OW_CLI_H */

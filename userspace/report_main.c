// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ow-report: the command line (report.h does the work).  Exit status 0
 * ok, 1 for the data or a file (no records, a malformed line, unreadable
 * input, unwritable output), 2 for the command line itself.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* getopt_long */
#endif
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

#define EXIT_DATA	1
#define EXIT_USAGE	2

static const char usage[] =
"USAGE: ow-report matrix [--title T] [--commit C] [--date D]\n"
"                        [--order MODE,...] FILE...\n"
"       ow-report bench --out-dir DIR [--baseline MODE] [--order MODE,...]\n"
"                       [--metrics KEY,...] [--title T] [--commit C]\n"
"                       [--date D] FILE...\n"
"       ow-report field --out-dir DIR [--order MODE,...] [--title T]\n"
"                       [--commit C] [--date D] FILE...\n"
"       ow-report --help\n"
"\n"
"Turns result lines (\"# result: scenario=S mode=M run=N key=value ...\")\n"
"into markdown on stdout.  Lines without scenario=, mode= and run= are\n"
"ignored.  FILE - is standard input.\n"
"\n"
"  matrix    one table, a row per scenario and mode: runs, kills,\n"
"            spurious kills, set_to_kill_ms, wall_ms, assert verdicts\n"
"  bench     a table per scenario, a column per numeric key: median\n"
"            (min-max) and the ratio to the baseline's median; and a plot\n"
"            of every run, DIR/<scenario>.svg; where the runs carry\n"
"            exec_lat=, the programs' latency per second, a line per\n"
"            mode, DIR/<scenario>-latency.svg\n"
"  field     the field bench (scripts/field.sh): per machine (mem_mb=,\n"
"            nodes=, swap_mb=) and setting the median freeze\n"
"            (group=freeze, freeze_ms) against the survivable runs\n"
"            (group=survivable) that lost a process (lost=1, or a kill:\n"
"            kills=, peer_kills=); the thrash rule in the freeze and\n"
"            the survivable runs (th_* keys); tables, and the scatter\n"
"            DIR/field.svg\n"
"\n"
"  --order MODE,...   modes in this order first, the others after\n"
"  --baseline MODE    ratios against this mode (default stock)\n"
"  --metrics KEY,...  only these keys, in this order\n"
"  --out-dir DIR      where the SVGs go (created if missing)\n"
"\n"
"Keys ending in _ms are shown in seconds, _mb in MB.\n"
"\n"
"EXIT STATUS:\n"
"    0  ok\n"
"    1  no records, a malformed record, a file not readable or writable\n"
"    2  bad command line\n";

/* Long options only: past any character getopt_long() could return. */
enum {
	OPT_TITLE = 256,
	OPT_COMMIT,
	OPT_DATE,
	OPT_ORDER,
	OPT_BASELINE,
	OPT_METRICS,
	OPT_OUT_DIR,
	OPT_HELP,
};

static const struct option options[] = {
	{ "title",	required_argument, NULL, OPT_TITLE },
	{ "commit",	required_argument, NULL, OPT_COMMIT },
	{ "date",	required_argument, NULL, OPT_DATE },
	{ "order",	required_argument, NULL, OPT_ORDER },
	{ "baseline",	required_argument, NULL, OPT_BASELINE },
	{ "metrics",	required_argument, NULL, OPT_METRICS },
	{ "out-dir",	required_argument, NULL, OPT_OUT_DIR },
	{ "help",	no_argument,	   NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

struct args {
	struct ow_report_opts o;
	const char *out_dir;
	const char *cmd;
	char **files;
	int nr_files;
};

static int usage_error(void)
{
	fputs(usage, stderr);
	return EXIT_USAGE;
}

static int bad_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int bad_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("ow-report: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return usage_error();
}

static bool is_cmd(const struct args *a, const char *cmd)
{
	return !strcmp(a->cmd, cmd);
}

/* What is left after the options: the command and its files. */
static int check_args(struct args *a, int argc, char **argv)
{
	if (optind == argc)
		return bad_usage("no command: matrix, bench or field");
	a->cmd = argv[optind];
	a->files = argv + optind + 1;
	a->nr_files = argc - optind - 1;
	if (!is_cmd(a, "matrix") && !is_cmd(a, "bench") && !is_cmd(a, "field"))
		return bad_usage("unknown command \"%s\"", a->cmd);
	if (is_cmd(a, "matrix") && (a->out_dir || a->o.baseline ||
				    a->o.metrics))
		return bad_usage("--out-dir, --baseline and --metrics are "
				 "for bench");
	if (is_cmd(a, "field") && (a->o.baseline || a->o.metrics))
		return bad_usage("--baseline and --metrics are for bench");
	if (!is_cmd(a, "matrix") && (!a->out_dir || !*a->out_dir))
		return bad_usage("%s needs --out-dir DIR", a->cmd);
	if (!a->nr_files)
		return bad_usage("no input FILE (- for standard input)");
	return -1;
}

/* -1 to go on, or the exit status: 0 after --help, or a usage error. */
static int parse_args(int argc, char **argv, struct args *a)
{
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case OPT_TITLE:
			a->o.title = optarg;
			break;
		case OPT_COMMIT:
			a->o.commit = optarg;
			break;
		case OPT_DATE:
			a->o.date = optarg;
			break;
		case OPT_ORDER:
			a->o.order = optarg;
			break;
		case OPT_BASELINE:
			a->o.baseline = optarg;
			break;
		case OPT_METRICS:
			a->o.metrics = optarg;
			break;
		case OPT_OUT_DIR:
			a->out_dir = optarg;
			break;
		case OPT_HELP:
			fputs(usage, stdout);
			return 0;
		default:	/* getopt_long has said what */
			return usage_error();
		}
	}
	return check_args(a, argc, argv);
}

static int read_all(struct ow_report *r, const struct args *a)
{
	char err[512];

	for (int i = 0; i < a->nr_files; i++) {
		const char *name = a->files[i];
		bool in = !strcmp(name, "-");
		FILE *f = in ? stdin : fopen(name, "r");
		int ret;

		if (!f) {
			fprintf(stderr, "ow-report: %s: %s\n", name,
				strerror(errno));
			return -1;
		}
		ret = ow_report_read(r, f, in ? "<stdin>" : name, err,
				     sizeof(err));
		if (!in)
			fclose(f);
		if (ret) {
			fprintf(stderr, "ow-report: %s\n", err);
			return -1;
		}
	}
	return 0;
}

static int run(const struct ow_report *r, const struct args *a)
{
	char err[512];

	if (!strcmp(a->cmd, "matrix")) {
		if (ow_report_matrix(stdout, r, &a->o)) {
			fprintf(stderr, "ow-report: standard output: %s\n",
				strerror(errno));
			return EXIT_DATA;
		}
		return 0;
	}
	if (!strcmp(a->cmd, "field")) {
		if (ow_report_field(stdout, r, &a->o, a->out_dir, err,
				    sizeof(err))) {
			fprintf(stderr, "ow-report: %s\n", err);
			return EXIT_DATA;
		}
		return 0;
	}
	if (ow_report_bench(stdout, r, &a->o, a->out_dir, err, sizeof(err))) {
		fprintf(stderr, "ow-report: %s\n", err);
		return EXIT_DATA;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = { .cmd = NULL };
	struct ow_report r;
	int ret = parse_args(argc, argv, &a);

	if (ret >= 0)
		return ret;
	ow_report_init(&r);
	if (read_all(&r, &a)) {
		ret = EXIT_DATA;
	} else if (!r.n) {
		fprintf(stderr, "ow-report: no records in %lu file%s (%lu "
			"line%s): a record is a line with scenario=, mode= "
			"and run=\n", r.files, r.files == 1 ? "" : "s",
			r.lines, r.lines == 1 ? "" : "s");
		ret = EXIT_DATA;
	} else {
		ret = run(&r, &a);
	}
	ow_report_free(&r);
	if (fclose(stdout) && !ret) {
		fprintf(stderr, "ow-report: standard output: %s\n",
			strerror(errno));
		ret = EXIT_DATA;
	}
	return ret;
}

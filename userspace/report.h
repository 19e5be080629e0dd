/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * ow-report: benchmark and matrix result lines as markdown tables and SVG
 * plots, on the host, from the "# result: key=value ..." lines the guest
 * scenarios print (tests/run.sh collects them).
 *
 * A record is a line of space-separated key=value tokens, optionally after
 * "# result:", that has all of scenario=, mode= and run=.  Other lines are
 * ignored (other "#" lines are comments), but a record must be clean: every
 * token key=value with a key, no key twice, assert= one of ok|fail|na.  No
 * line may be longer than OW_REPORT_LINE_MAX.  A value is numeric when
 * strtod() takes all of it and the number is finite.
 *
 * Every record is one run; runs are grouped by scenario (first-appearance
 * order) and by mode within a scenario (the --order list first, then
 * first-appearance order).
 */
#ifndef OW_REPORT_H
#define OW_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define OW_REPORT_LINE_MAX	4096	/* characters, newline not counted */

/*
 * exec_lat=, the freeze workload's latency over time: item i the slowest
 * pass of its programs that ended in second i since the hog started, in
 * ms, or "-" when none ended ("12,8,-,950").  A record whose series has
 * more than OW_REPORT_LAT_MAX items (an hour), an empty item, or an item
 * that is not "-" or a number from 0 to OW_REPORT_LAT_MS_MAX is
 * malformed.  (Today the line limit stops a series near 2048 items; the
 * cap holds whatever that limit becomes.)
 */
#define OW_REPORT_LAT_KEY	"exec_lat"
#define OW_REPORT_LAT_MAX	3600	/* items: seconds */
#define OW_REPORT_LAT_MS_MAX	3600000	/* ms: an hour */
#define OW_REPORT_LAT_NONE	-1.0	/* "-" in the parsed series */

struct ow_field {
	const char *key;	/* both point into the record's own line */
	const char *val;
	bool numeric;
	double num;		/* when numeric */
};

struct ow_rec {
	char *line;		/* owned: the fields point into it */
	struct ow_field *f;
	size_t nf;
	const char *scenario;
	const char *mode;
	const char *run;
};

struct ow_report {
	struct ow_rec *rec;
	size_t n;
	size_t cap;
	unsigned long lines;	/* read, records or not */
	unsigned long files;
};

/* The options both commands share; NULL or "" where not given. */
struct ow_report_opts {
	const char *title;
	const char *commit;
	const char *date;
	const char *order;	/* "mode1,mode2,..." */
	const char *baseline;	/* bench: the mode ratios are against */
	const char *metrics;	/* bench: "key1,key2,..." */
};

/* min, median (mean of the middle two for an even count) and max. */
struct ow_range {
	size_t n;
	double min;
	double median;
	double max;
};

/* Sorts v[0..n) in place and fills *out; returns -1 (all zero) if !n. */
int ow_range_of(double *v, size_t n, struct ow_range *out);

void ow_report_init(struct ow_report *r);
void ow_report_free(struct ow_report *r);

/*
 * One line (no newline; a trailing \r is dropped), from file:lineno for
 * the messages.  Returns 1 for a record (kept), 0 for a line ignored, -1
 * for a malformed line with "file:line: why" in err.
 */
int ow_report_line(struct ow_report *r, const char *line, const char *file,
		   unsigned long lineno, char *err, size_t size);
/* Every line of f; 0, or -1 with the first error in err. */
int ow_report_read(struct ow_report *r, FILE *f, const char *file,
		   char *err, size_t size);

/*
 * The items of an exec_lat= value into v (room for OW_REPORT_LAT_MAX; NULL
 * only checks), "-" as OW_REPORT_LAT_NONE.  Returns their count, or -1
 * with why ("exec_lat= item 3 ...") in why.
 */
long ow_report_lat_parse(const char *s, double *v, char *why, size_t size);

/* The value of key in rec, or NULL. */
const struct ow_field *ow_rec_field(const struct ow_rec *rec,
				    const char *key);

/*
 * The matrix table (report.c says what each column holds).  Returns 0, or
 * -1 with errno when writing failed.
 */
int ow_report_matrix(FILE *f, const struct ow_report *r,
		     const struct ow_report_opts *o);

/*
 * The bench tables on md, one section per scenario, and dir/<scenario>.svg
 * for each (dir is created if missing), and dir/<scenario>-latency.svg for
 * each whose runs carry exec_lat=.  Returns 0, or -1 with the reason in
 * err.
 */
int ow_report_bench(FILE *md, const struct ow_report *r,
		    const struct ow_report_opts *o, const char *dir,
		    char *err, size_t size);
/* The plot of one scenario; 0, or -1 with errno. */
int ow_report_svg(FILE *f, const struct ow_report *r, const char *scenario,
		  const struct ow_report_opts *o);
/*
 * The latency plot of one scenario: per mode, the median over its runs of
 * each second's exec_lat item, in ms on a log scale; 0, or -1 with errno.
 */
int ow_report_latency_svg(FILE *f, const struct ow_report *r,
			  const char *scenario,
			  const struct ow_report_opts *o);

/*
 * The field bench (scripts/field.sh): records with group=freeze (their
 * freeze_ms, capped at OW_FIELD_CAP_MS) or group=survivable (lost=1, or
 * kills= or peer_kills= above 0: the run lost a process), per machine
 * (mem_mb=, nodes=, swap_mb=) and setting (mode=, in --order first).  On
 * md: a table per machine (freeze runs, the median freeze, hog kills,
 * survivable runs and those that lost a process), a table per machine of
 * the workloads, and one of the thrash rule in the freeze runs with th_*
 * keys (spells, grants, kills, the freeze's end after its spell began,
 * against thrash-MS's MS + 1 s); dir/field.svg: the trade-off, a panel
 * per machine and in it a point per setting (x: survivable runs that
 * lost a process, y: the median freeze).  0, or -1 with the reason in
 * err.
 */
#define OW_FIELD_CAP_MS	300000
int ow_report_field(FILE *md, const struct ow_report *r,
		    const struct ow_report_opts *o, const char *dir,
		    char *err, size_t size);
/* The scatter alone; 0, or -1 with errno. */
int ow_report_field_svg(FILE *f, const struct ow_report *r,
			const struct ow_report_opts *o);

#endif /* OW_REPORT_H */

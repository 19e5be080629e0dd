// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ow-report: parsing result lines (prefix, \r, what is ignored, what is an
 * error and where), median and range, the matrix and bench tables to the
 * byte, the SVG (escaped, well formed, dots where they belong), the
 * exec_lat series (what is refused, the cap) and its latency plot (medians,
 * gaps, log scale, only where a series is), and the command line's exit
 * statuses through the ow-report binary.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report.h"

#include "proc.h"
#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ARGV(...)	((const char *[]){ OW_REPORT_BIN, __VA_ARGS__, NULL })

#define MATRIX_FIXTURE	FIXTURE_DIR "/report_matrix.txt"
#define BENCH_FIXTURE	FIXTURE_DIR "/report_bench.txt"

/* report_matrix.txt with --title, --commit, --date, --order stock,arbiter */
static const char matrix_expected[] =
"### Matrix\n"
"\n"
"Commit abc123, 2024-05-01.\n"
"\n"
"| scenario | mode | runs | kills | spurious kills | unreclaimable→kill ms "
"| completion s | invariants |\n"
"|---|---|---:|---:|---:|---:|---:|---|\n"
"| oom-true | stock | 3 | 3 (2/3 runs) | 1 | 5134 (5072–5224) "
"| 12.3 (11.8–13.0) | ok |\n"
"|  | arbiter | 4 | 4 (4/4 runs) | 0 | 303 (290–310) | 8.0 (7.9–8.1) "
"| FAIL 1/4 |\n"
"|  | token | 1 | 1 | – | – | 9.0 | – |\n"
"| transient | stock | 1 | 3 | – | – | 4.6 | – |\n"
"|  | arbiter | 1 | 0 | – | – | 4.0 | – |\n";

/* report_bench.txt with the default baseline, stock */
static const char bench_expected[] =
"#### token\n"
"\n"
"| mode | runs | kills | swap_peak (MB) | wall (s) |\n"
"|---|---:|---:|---:|---:|\n"
"| stock | 2 | 1.5 (1–2) | 801 (790–812) | 31.00 (30.50–31.50) |\n"
"| token | 3 | 0 (0–0) ×0.00 | 410 (400–420) ×0.51 "
"| 16.00 (15.00–17.00) ×0.52 |\n"
"\n"
"#### zero\n"
"\n"
"| mode | runs | faults | ms |\n"
"|---|---:|---:|---:|\n"
"| new | 1 | 3 | 10 ×2.00 |\n"
"| stock | 1 | 0 | 5 |\n"
"\n"
"#### nobase\n"
"\n"
"| mode | runs | x |\n"
"|---|---:|---:|\n"
"| a | 1 | 1.5 |\n"
"| b | 1 | 3 |\n"
"\n";

static const struct ow_report_opts matrix_opts = {
	.title = "Matrix", .commit = "abc123", .date = "2024-05-01",
	.order = "stock,arbiter",
};

/* ------------------------------------------------------------ helpers */

/* Says where got and want part, when they do. */
static bool same_text(const char *got, const char *want)
{
	size_t i = 0;

	if (got && !strcmp(got, want))
		return true;
	if (!got) {
		tap_diag("no output");
		return false;
	}
	while (got[i] && got[i] == want[i])
		i++;
	tap_diag("differs at byte %zu:\n# got:  \"%.80s\"\n# want: \"%.80s\"",
		 i, got + i, want + i);
	return false;
}

static bool load(struct ow_report *r, const char *path)
{
	char err[256];
	FILE *f = fopen(path, "r");
	int ret;

	ow_report_init(r);
	if (!f)
		return false;
	ret = ow_report_read(r, f, path, err, sizeof(err));
	fclose(f);
	if (ret)
		tap_diag("%s", err);
	return !ret;
}

/* Reads text as the file "mem"; ow_report_read()'s return value. */
static int read_text(struct ow_report *r, const char *text, char *err,
		     size_t size)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	if (!f)
		return -2;
	ret = ow_report_read(r, f, "mem", err, size);
	fclose(f);
	return ret;
}

static char *matrix_of(const struct ow_report *r,
		       const struct ow_report_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (ow_report_matrix(f, r, o)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

typedef int (*plot_fn)(FILE *, const struct ow_report *, const char *,
		       const struct ow_report_opts *);

/* What one of ow-report's plots writes for a scenario, or NULL. */
static char *plot_of(plot_fn plot, const struct ow_report *r,
		     const char *scenario, const struct ow_report_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (plot(f, r, scenario, o)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

static char *svg_of(const struct ow_report *r, const char *scenario,
		    const struct ow_report_opts *o)
{
	return plot_of(ow_report_svg, r, scenario, o);
}

static bool starts_with(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

/* A scratch file holding text; its path. */
static const char *scratch(const char *name, const char *text)
{
	return proc_write(name, text, strlen(text));
}

static unsigned int count(const char *s, const char *needle)
{
	unsigned int n = 0;

	for (const char *p = s; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* ------------------------------------------------------------ parsing */

static void test_line(void)
{
	struct ow_report r;
	const struct ow_rec *rec;
	const struct ow_field *x, *v;
	char err[256] = "";
	int ret;

	ow_report_init(&r);
	ret = ow_report_line(&r, "  \t# result: scenario=a mode=b run=1 x=5 "
			     "v=[69\r", "f", 1, err, sizeof(err));
	rec = r.n ? &r.rec[0] : NULL;
	x = rec ? ow_rec_field(rec, "x") : NULL;
	v = rec ? ow_rec_field(rec, "v") : NULL;
	tap_ok(ret == 1 && r.n == 1 && rec->nf == 5 &&
	       !strcmp(rec->scenario, "a") && !strcmp(rec->mode, "b") &&
	       !strcmp(rec->run, "1") && x && x->numeric && x->num == 5 &&
	       v && !v->numeric && !strcmp(v->val, "[69"),
	       "line: blanks and \"# result:\" before, \\r after, dropped");
	ret = ow_report_line(&r, "scenario=a mode=c run=2", "f", 2, err,
			     sizeof(err));
	tap_ok(ret == 1 && r.n == 2 && !strcmp(r.rec[1].mode, "c"),
	       "line: a record without the prefix");
	ow_report_free(&r);
}

static void test_ignored(void)
{
	static const char *const lines[] = {
		"",
		"   ",
		"hello world",
		"# result: scenario=a mode=b",
		"# result: scenario=a run=1 kills=0",
		"# result: scenario=transient runs=2 kills=3 wall_ms=[1 2 ]",
		"scenario=a mode=b runs=1",
		"# a comment: scenario=a mode=b run=1 not key value",
		"#result: scenario=a mode=b run=1",
	};
	struct ow_report r;
	char err[256];
	bool ok = true;

	ow_report_init(&r);
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		if (ow_report_line(&r, lines[i], "f", i + 1, err,
				   sizeof(err))) {
			tap_diag("not ignored: \"%s\"", lines[i]);
			ok = false;
		}
	}
	tap_ok(ok && !r.n && r.lines == ARRAY_SIZE(lines),
	       "line: %zu lines without scenario=, mode= and run=, or "
	       "comments, ignored", ARRAY_SIZE(lines));
	ow_report_free(&r);
}

static void test_numbers(void)
{
	static const struct {
		const char *val;
		bool numeric;
		double num;
	} cases[] = {
		{ "42", true, 42 }, { "-2.5", true, -2.5 },
		{ "1e3", true, 1000 }, { "0x10", true, 16 },
		{ "12x", false, 0 }, { "[69", false, 0 }, { "ok", false, 0 },
		{ "", false, 0 }, { "nan", false, 0 }, { "inf", false, 0 },
		{ "1e999", false, 0 },
	};
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ow_report r;
		const struct ow_field *k;
		char line[128], err[256];

		ow_report_init(&r);
		snprintf(line, sizeof(line), "scenario=a mode=b run=1 k=%s",
			 cases[i].val);
		ow_report_line(&r, line, "f", 1, err, sizeof(err));
		k = r.n ? ow_rec_field(&r.rec[0], "k") : NULL;
		if (!k || k->numeric != cases[i].numeric ||
		    (k->numeric && k->num != cases[i].num)) {
			tap_diag("k=%s", cases[i].val);
			ok = false;
		}
		ow_report_free(&r);
	}
	tap_ok(ok, "line: numbers are whole, finite strtod() values; the "
	       "rest is text");
}

static void test_errors(void)
{
	static const struct {
		const char *line;
		const char *err;
	} cases[] = {
		{ "scenario=a mode=b run=1 oops",
		  "f:7: \"oops\" is not key=value" },
		{ "# result: scenario=a mode=b run=1 =5",
		  "f:7: \"=5\" has no key" },
		{ "scenario=a mode=b run=1 run=2", "f:7: run= given twice" },
		{ "scenario= mode=b run=1", "f:7: scenario= is empty" },
		{ "scenario=a mode=b run=1 assert=maybe",
		  "f:7: assert=maybe: expected ok, fail or na" },
	};
	char line[OW_REPORT_LINE_MAX + 8], err[256];
	struct ow_report r;
	bool ok = true;
	int ret;

	ow_report_init(&r);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		err[0] = '\0';
		ret = ow_report_line(&r, cases[i].line, "f", 7, err,
				     sizeof(err));
		if (ret != -1 || strcmp(err, cases[i].err)) {
			tap_diag("\"%s\": %d \"%s\"", cases[i].line, ret, err);
			ok = false;
		}
	}
	tap_ok(ok && !r.n, "line: %zu malformed records refused with file:line",
	       ARRAY_SIZE(cases));

	/* 4096 characters and a \r\n are fine, 4097 are not. */
	memset(line, 'y', sizeof(line));
	memcpy(line, "scenario=a mode=b run=1 x=", 26);
	strcpy(line + OW_REPORT_LINE_MAX, "\r\n");
	ret = ow_report_line(&r, line, "f", 8, err, sizeof(err));
	tap_ok(ret == 1 && r.n == 1, "line: 4096 characters (and \\r\\n) kept");
	strcpy(line + OW_REPORT_LINE_MAX, "y\n");
	ret = ow_report_line(&r, line, "f", 9, err, sizeof(err));
	tap_ok(ret == -1 && r.n == 1 &&
	       !strcmp(err, "f:9: line longer than 4096 characters"),
	       "line: 4097 characters refused");
	ow_report_free(&r);
}

static void test_read(void)
{
	struct ow_report r;
	char err[256] = "";
	int ret;

	ow_report_init(&r);
	ret = read_text(&r, "noise\n# result: scenario=s mode=m run=1\r\n\n"
			"  scenario=s mode=m run=2 x=1\n", err, sizeof(err));
	tap_ok(!ret && r.n == 2 && r.lines == 4 && r.files == 1 &&
	       !strcmp(r.rec[1].run, "2"),
	       "read: 4 lines, 2 records");
	ow_report_free(&r);

	ret = read_text(&r, "noise\nscenario=s mode=m run=1\n\n"
			"# result: scenario=s mode=m run=2 bad\nmore\n", err,
			sizeof(err));
	if (!tap_ok(ret == -1 && r.n == 1 &&
		    !strcmp(err, "mem:4: \"bad\" is not key=value"),
		    "read: stops at the first malformed line, its number"))
		tap_diag("%d, %zu records, \"%s\"", ret, r.n, err);
	ow_report_free(&r);
}

/* -------------------------------------------------------------- stats */

static void test_range(void)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };
	double same[] = { 5, 5 };
	struct ow_range g;

	tap_ok(!ow_range_of(odd, 3, &g) && g.n == 3 && g.min == 1 &&
	       g.median == 2 && g.max == 3, "range: odd count, middle value");
	tap_ok(!ow_range_of(even, 4, &g) && g.n == 4 && g.min == 1 &&
	       g.median == 2.5 && g.max == 4,
	       "range: even count, mean of the middle two");
	tap_ok(!ow_range_of(one, 1, &g) && g.min == 7 && g.median == 7 &&
	       g.max == 7, "range: one value");
	tap_ok(!ow_range_of(same, 2, &g) && g.median == 5,
	       "range: two equal values");
	tap_ok(ow_range_of(NULL, 0, &g) == -1 && !g.n && !g.median,
	       "range: no values, -1 and zeroes");
}

/* ----------------------------------------------------------- matrix */

static void test_matrix(void)
{
	struct ow_report_opts date_only = { .date = "2024-05-01" };
	struct ow_report r;
	char *got;

	if (!load(&r, MATRIX_FIXTURE)) {
		tap_ok(false, "matrix: fixture loads");
		return;
	}
	tap_ok(r.n == 10 && r.lines == 13,
	       "matrix: fixture has 10 records in 13 lines");
	got = matrix_of(&r, &matrix_opts);
	tap_ok(same_text(got, matrix_expected),
	       "matrix: table, exactly (--order, ranges, dashes, FAIL)");
	free(got);

	/* No --order: first appearance; arbiter comes first in transient. */
	got = matrix_of(&r, &date_only);
	tap_ok(starts_with(got, "2024-05-01.\n\n| scenario |") &&
	       strstr(got, "| oom-true | stock | 3 |") &&
	       strstr(got, "| transient | arbiter | 1 | 0 |") &&
	       strstr(got, "|  | stock | 1 | 3 |"),
	       "matrix: date alone; modes in first-appearance order");
	free(got);
	ow_report_free(&r);
}

static void test_invariants(void)
{
	struct ow_report r;
	char err[256], *got;

	ow_report_init(&r);
	read_text(&r, "scenario=s mode=m run=1 assert=ok\n"
		  "scenario=s mode=m run=2 assert=na\n"
		  "scenario=s mode=m run=3\n"
		  "scenario=s mode=n run=1 assert=na spurious=2 kills=x\n"
		  "scenario=s mode=n run=2 spurious=1 set_to_kill_ms=12.4\n",
		  err, sizeof(err));
	got = matrix_of(&r, &(struct ow_report_opts){ .order = "" });
	tap_ok(got && strstr(got, "| s | m | 3 | – | – | – | – | ok (1/3 "
			     "checked) |\n|  | n | 2 | – | 3 | 12 | – | – |\n"),
	       "matrix: some runs unchecked; text kills, sums, one value");
	if (got && !strstr(got, "| s | m |"))
		tap_diag("%s", got);
	free(got);
	ow_report_free(&r);
}

/* -------------------------------------------------------------- bench */

/* A scratch directory for the SVGs, and its removal. */
static const char *svg_dir(void)
{
	static char dir[512];

	snprintf(dir, sizeof(dir), "%s", proc_path("svg"));
	return dir;
}

static void remove_svgs(const char *dir, const char *sub)
{
	static const char *const names[] = { "token", "zero", "nobase" };
	char path[600];

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s%s.svg", dir, sub,
			 names[i]);
		unlink(path);
	}
	if (*sub) {
		snprintf(path, sizeof(path), "%s/%s", dir, sub);
		rmdir(path);
	}
	rmdir(dir);
}

static char *bench_of(const struct ow_report *r,
		      const struct ow_report_opts *o, const char *dir)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return NULL;
	ret = ow_report_bench(f, r, o, dir, err, sizeof(err));
	fclose(f);
	if (ret) {
		tap_diag("%s", err);
		free(buf);
		return NULL;
	}
	return buf;
}

static void test_bench(void)
{
	const struct ow_report_opts metrics = {
		.metrics = "wall_ms,absent,kills,ms",
	};
	const struct ow_report_opts base_a = { .baseline = "a" };
	const char *dir = svg_dir();
	struct ow_report r;
	char *got, path[600];

	if (!load(&r, BENCH_FIXTURE)) {
		tap_ok(false, "bench: fixture loads");
		return;
	}
	got = bench_of(&r, &(struct ow_report_opts){ 0 }, dir);
	tap_ok(same_text(got, bench_expected),
	       "bench: tables, exactly (units, ratios, zero and missing "
	       "baseline)");
	free(got);
	snprintf(path, sizeof(path), "%s/zero.svg", dir);
	tap_ok(!access(path, R_OK), "bench: DIR/<scenario>.svg written");

	got = bench_of(&r, &metrics, dir);
	tap_ok(got && strstr(got, "#### token\n\n| mode | runs | wall (s) | "
			     "kills |\n|---|---:|---:|---:|\n") &&
	       strstr(got, "#### zero\n\n| mode | runs | ms |\n") &&
	       strstr(got, "#### nobase\n\n| mode | runs |\n|---|---:|\n"
		      "| a | 1 |\n"),
	       "bench: --metrics picks and orders the columns");
	free(got);

	got = bench_of(&r, &base_a, dir);
	tap_ok(got && strstr(got, "| a | 1 | 1.5 |\n| b | 1 | 3 ×2.00 |\n") &&
	       strstr(got, "| token | 3 | 0 (0–0) | 410 (400–420) |"),
	       "bench: --baseline a; none where there is no a");
	free(got);
	ow_report_free(&r);
	remove_svgs(dir, "");
}

/* Durations go to seconds; latencies stay in milliseconds. */
static void test_units(void)
{
	static const char text[] =
		"scenario=w mode=stock run=1 wall_ms=8230 probe_max_ms=6.9 "
		"probe_p99_ms=2.5 exec_slowest_ms=908 swap_io_mb=586\n";
	const char *dir = svg_dir();
	struct ow_report r;
	char err[256], *got;

	ow_report_init(&r);
	if (read_text(&r, text, err, sizeof(err))) {
		tap_ok(false, "units: input reads (%s)", err);
		ow_report_free(&r);
		return;
	}
	got = bench_of(&r, &(struct ow_report_opts){ 0 }, dir);
	tap_ok(got && strstr(got, "| mode | runs | wall (s) | probe_max (ms) "
			     "| probe_p99 (ms) | exec_slowest (ms) "
			     "| swap_io (MB) |") &&
	       strstr(got, "| stock | 1 | 8.23 | 6.9 | 2.5 | 908 | 586 |"),
	       "bench: durations in s, latencies in ms, sizes in MB");
	free(got);
	ow_report_free(&r);
	remove_svgs(dir, "");
}

/* ---------------------------------------------------------------- svg */

/* "&#xHH;": a character reference, as xml_put() writes a Latin-1 byte. */
static bool char_ref(const char *s)
{
	size_t n;

	if (strncmp(s, "&#x", 3))
		return false;
	n = strspn(s + 3, "0123456789abcdef");
	return n > 0 && s[3 + n] == ';';
}

/*
 * Well formed enough to open: one root, tags closed in order, attribute
 * values quoted, every '&' an entity or a character reference, no '<' or
 * '>' or control byte loose.
 */
static bool well_formed(const char *s)
{
	char stack[16][16];
	int depth = 0, roots = 0;

	while (*s) {
		size_t n;
		const char *end;

		if (*s == '&') {
			if (strncmp(s, "&lt;", 4) && strncmp(s, "&gt;", 4) &&
			    strncmp(s, "&amp;", 5) && strncmp(s, "&quot;", 6) &&
			    !char_ref(s))
				return false;
			s++;
			continue;
		}
		if (*s == '>' || ((unsigned char)*s < 0x20 && *s != '\n'))
			return false;
		if (*s != '<') {
			s++;
			continue;
		}
		if (s[1] == '/') {
			n = strcspn(s + 2, ">");
			if (!depth || strlen(stack[depth - 1]) != n ||
			    strncmp(stack[depth - 1], s + 2, n))
				return false;
			depth--;
			s += n + 3;
			continue;
		}
		n = strcspn(s + 1, " />");
		if (!n || n >= sizeof(stack[0]))
			return false;
		for (end = s + 1; *end && *end != '>' && *end != '<'; end++) {
			if (*end != '"')
				continue;
			/* to the closing quote */
			end = strpbrk(end + 1, "\"<");
			if (!end || *end == '<')
				return false;
		}
		if (*end != '>')
			return false;
		if (end[-1] != '/') {
			if (depth == 16 || (!depth && roots++))
				return false;
			memcpy(stack[depth], s + 1, n);
			stack[depth++][n] = '\0';
		}
		s = end + 1;
	}
	return !depth && roots == 1;
}

static bool svg_shape(const char *svg)
{
	size_t len = svg ? strlen(svg) : 0;

	return svg && !strncmp(svg, "<svg ", 5) && len > 7 &&
	       !strcmp(svg + len - 7, "</svg>\n") &&
	       count(svg, "<g ") == count(svg, "</g>") && well_formed(svg);
}

static void test_svg(void)
{
	const struct ow_report_opts o = {
		.title = "T & \"q\" <b>",
		.commit = "c\xff\xc3\xa9",	/* a bad byte, an e-acute */
		.date = "d",
	};
	struct ow_report r;
	char err[256], *svg;

	if (!load(&r, BENCH_FIXTURE)) {
		tap_ok(false, "svg: fixture loads");
		return;
	}
	svg = svg_of(&r, "token", &(struct ow_report_opts){ .title = "t" });
	tap_ok(svg_shape(svg), "svg: <svg ...> to </svg>, tags balanced");
	tap_ok(svg && count(svg, "<g class=\"panel\">") == 3 &&
	       count(svg, "<g class=\"lane\">") == 6 &&
	       count(svg, "class=\"run\"") == 15 &&
	       count(svg, "class=\"median\"") == 6,
	       "svg: 3 panels of 2 lanes, a dot per run, a median per lane");
	/* wall: 15 s on an axis of 0..40 s over x 150..790 */
	tap_ok(svg && strstr(svg, ">token " "\u2014" " t</text>") &&
	       strstr(svg, ">wall (s)</text>") &&
	       strstr(svg, "text-anchor=\"middle\">0</text>") &&
	       strstr(svg, "text-anchor=\"middle\">40</text>") &&
	       !strstr(svg, "text-anchor=\"middle\">50</text>") &&
	       strstr(svg, "<circle class=\"run\" cx=\"390.0\" cy=\"") &&
	       strstr(svg, "<title>token run 1: 15.00 s</title>") &&
	       strstr(svg, ">16.00 s</text>"),
	       "svg: title, units, ticks 0..40, dot of 15 s at x 390");
	free(svg);
	ow_report_free(&r);

	ow_report_init(&r);
	read_text(&r, "scenario=s<1> mode=a<b&c run=1 wall_ms=1500 x\"y=-5\n"
		  "scenario=s<1> mode=z run=\"2\" x\"y=5 note=<&>\n",
		  err, sizeof(err));
	svg = svg_of(&r, "s<1>", &o);
	tap_ok(svg_shape(svg), "svg: well formed with markup in every text");
	tap_ok(svg && strstr(svg, ">s&lt;1&gt; \u2014 T &amp; &quot;q&quot; "
			     "&lt;b&gt;</text>") &&
	       strstr(svg, ">a&lt;b&amp;c</text>") &&
	       strstr(svg, ">x&quot;y</text>") &&
	       strstr(svg, "<title>z run &quot;2&quot;: 5</title>") &&
	       strstr(svg, ">Commit c&#xff;\xc3\xa9, d</text>") &&
	       !strstr(svg, "a<b"),
	       "svg: names, title, keys escaped; a byte not UTF-8 as Latin-1");
	tap_ok(svg && strstr(svg, "middle\">-6</text>") &&
	       strstr(svg, "middle\">6</text>"),
	       "svg: negative values widen the axis below 0");
	free(svg);
	svg = svg_of(&r, "nothing", &o);
	tap_ok(svg_shape(svg) && strstr(svg, "no numeric metric"),
	       "svg: a scenario without numbers still draws");
	free(svg);
	ow_report_free(&r);
}

/* ------------------------------------------------------------ latency */

/*
 * Two modes with known medians per second: a's runs give 20, 20, a gap
 * (both "-"), 100, and 5 from the one run still going; b's give 100 (of
 * 1000, 100, 10), then 2000 from its longest run; c has no series.
 */
static const char lat_text[] =
	"# result: scenario=freeze mode=a run=1 hog_mb=9 "
	"exec_lat=10,20,-,100\n"
	"# result: scenario=freeze mode=a run=2 hog_mb=9 "
	"exec_lat=30,-,-,100,5\n"
	"# result: scenario=freeze mode=b run=1 exec_lat=1000,-\n"
	"# result: scenario=freeze mode=b run=2 exec_lat=100,2000\n"
	"# result: scenario=freeze mode=b run=3 exec_lat=10\n"
	"# result: scenario=freeze mode=c run=1 hog_mb=9\n"
	"# result: scenario=plain mode=a run=1 wall_ms=5\n";

static char *latency_of(const struct ow_report *r, const char *scenario,
			const struct ow_report_opts *o)
{
	return plot_of(ow_report_latency_svg, r, scenario, o);
}

static void test_lat_parse(void)
{
	double v[OW_REPORT_LAT_MAX];
	char why[256] = "";
	long n;

	n = ow_report_lat_parse("10,2.5,-,0,1e3", v, why, sizeof(why));
	tap_ok(n == 5 && v[0] == 10 && v[1] == 2.5 &&
	       v[2] == OW_REPORT_LAT_NONE && v[3] == 0 && v[4] == 1000,
	       "lat: items in ms, \"-\" as none");
	n = ow_report_lat_parse("-", v, why, sizeof(why));
	tap_ok(n == 1 && v[0] == OW_REPORT_LAT_NONE,
	       "lat: one second without a pass");
}

static void test_lat_errors(void)
{
	static const struct {
		const char *val;
		const char *why;
	} cases[] = {
		{ "", "exec_lat= item 1 \"\": not a number of ms or \"-\"" },
		{ "1,,2", "exec_lat= item 2 \"\": not a number of ms or "
		  "\"-\"" },
		{ "1,2,", "exec_lat= item 3 \"\": not a number of ms or "
		  "\"-\"" },
		{ "5,abc", "exec_lat= item 2 \"abc\": not a number of ms or "
		  "\"-\"" },
		{ "--", "exec_lat= item 1 \"--\": not a number of ms or "
		  "\"-\"" },
		{ "nan", "exec_lat= item 1 \"nan\": not a number of ms or "
		  "\"-\"" },
		{ "1e999", "exec_lat= item 1 \"1e999\": not a number of ms or "
		  "\"-\"" },
		{ "3,-5", "exec_lat= item 2 \"-5\": not within 0..3600000 ms" },
		{ "1e308", "exec_lat= item 1 \"1e308\": not within 0..3600000 "
		  "ms" },
		{ "3600001", "exec_lat= item 1 \"3600001\": not within "
		  "0..3600000 ms" },
		{ "1,0000000000000000000000001",
		  "exec_lat= item 2: longer than 24 characters" },
	};
	/* The cap: 3600 items, "1," each; one more is refused. */
	char *many = malloc(2 * OW_REPORT_LAT_MAX + 3);
	double *v = malloc(OW_REPORT_LAT_MAX * sizeof(*v));
	char why[256];
	bool ok = true;
	long n;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		why[0] = '\0';
		n = ow_report_lat_parse(cases[i].val, v, why, sizeof(why));
		if (n != -1 || strcmp(why, cases[i].why)) {
			tap_diag("\"%s\": %ld \"%s\"", cases[i].val, n, why);
			ok = false;
		}
	}
	tap_ok(ok, "lat: %zu malformed series refused, the item named",
	       ARRAY_SIZE(cases));
	if (!many || !v) {
		tap_ok(false, "lat: memory for the cap");
		free(many);
		free(v);
		return;
	}
	for (int i = 0; i < OW_REPORT_LAT_MAX; i++)
		memcpy(many + 2 * i, "1,", 2);
	many[2 * OW_REPORT_LAT_MAX - 1] = '\0';
	n = ow_report_lat_parse(many, v, why, sizeof(why));
	tap_ok(n == OW_REPORT_LAT_MAX && v[OW_REPORT_LAT_MAX - 1] == 1,
	       "lat: %d items, the cap, kept", OW_REPORT_LAT_MAX);
	strcpy(many + 2 * OW_REPORT_LAT_MAX - 1, ",1");
	n = ow_report_lat_parse(many, v, why, sizeof(why));
	tap_ok(n == -1 && !strcmp(why, "exec_lat= has more than 3600 items "
				  "(seconds)"),
	       "lat: %d items refused, nothing written past the cap",
	       OW_REPORT_LAT_MAX + 1);
	free(many);
	free(v);
}

/* A bad series makes its record malformed, with file:line, as any. */
static void test_lat_record(void)
{
	struct ow_report r;
	char err[256] = "";
	int ret;

	ow_report_init(&r);
	ret = read_text(&r, "scenario=f mode=m run=1 exec_lat=5,-,7\n"
			"# result: scenario=f mode=m run=2 exec_lat=5,x,7\n",
			err, sizeof(err));
	if (!tap_ok(ret == -1 && r.n == 1 &&
		    !strcmp(err, "mem:2: exec_lat= item 2 \"x\": not a number "
			    "of ms or \"-\""),
		    "lat: a malformed series refuses its line, file:line"))
		tap_diag("%d, %zu records, \"%s\"", ret, r.n, err);
	ow_report_free(&r);
}

static void test_latency_svg(void)
{
	struct ow_report r;
	char err[256], *svg;

	ow_report_init(&r);
	if (read_text(&r, lat_text, err, sizeof(err))) {
		tap_ok(false, "latency: input reads (%s)", err);
		ow_report_free(&r);
		return;
	}
	svg = latency_of(&r, "freeze",
			 &(struct ow_report_opts){ .title = "t" });
	tap_ok(svg_shape(svg), "latency: <svg ...> to </svg>, tags balanced");
	tap_ok(svg && count(svg, "<g class=\"series\">") == 3 &&
	       count(svg, "<path class=\"line\"") == 2 &&
	       strstr(svg, ">freeze: the programs' latency \u2014 t</text>") &&
	       strstr(svg, ">a (2 runs)</text>") &&
	       strstr(svg, ">b (3 runs)</text>") &&
	       strstr(svg, ">c (0 runs)</text>"),
	       "latency: a line per mode with values, a legend entry per mode");
	tap_ok(svg && strstr(svg, "<desc>median ms per second: "
			     "20,20,-,100,5</desc>") &&
	       strstr(svg, "<desc>median ms per second: 100,2000</desc>") &&
	       strstr(svg, "<desc>median ms per second: </desc>"),
	       "latency: medians per second, \"-\" where no run has one, "
	       "ended runs left out");
	/*
	 * x: 0..5 s over 70..700, 126 px a second; y: 1 ms at 390, 80 px a
	 * decade, so 100 ms at 230, 20 ms at 285.9, 2 s at 125.9.
	 */
	tap_ok(svg && strstr(svg, " d=\"M70.0,285.9L196.0,285.9"
			     "M448.0,230.0L574.0,334.1\" stroke=\"#1b9e77\"") &&
	       strstr(svg, " d=\"M70.0,230.0L196.0,125.9\" "
		      "stroke=\"#d95f02\""),
	       "latency: points on the log scale, a new M after the gap, "
	       "the modes' colours");
	tap_ok(svg && strstr(svg, "<line class=\"period\" x1=\"70\" "
			     "y1=\"205.9\" x2=\"700\" y2=\"205.9\"/>") &&
	       strstr(svg, ">period</text>") &&
	       strstr(svg, "text-anchor=\"end\">1 ms</text>") &&
	       strstr(svg, "text-anchor=\"end\">10 s</text>") &&
	       strstr(svg, "text-anchor=\"middle\">5</text>") &&
	       !strstr(svg, "text-anchor=\"middle\">10</text>") &&
	       strstr(svg, ">seconds since the hog started</text>"),
	       "latency: the 200 ms period dashed, decade ticks, 0..5 s, "
	       "axis names");
	free(svg);
	ow_report_free(&r);
}

/* Out of the range drawn: on its edge, with the true value in desc. */
static void test_latency_clamp(void)
{
	struct ow_report r;
	char err[256], *svg;

	ow_report_init(&r);
	read_text(&r, "scenario=s mode=m run=1 exec_lat=0,50000,0.5\n", err,
		  sizeof(err));
	svg = latency_of(&r, "s", &(struct ow_report_opts){ 0 });
	tap_ok(svg && strstr(svg, " d=\"M70.0,390.0L196.0,70.0"
			     "L322.0,390.0\"") &&
	       strstr(svg, "second: 0,50000,0.5</desc>"),
	       "latency: 0 ms at the bottom, 50 s at the top");
	free(svg);
	svg = latency_of(&r, "nothing", &(struct ow_report_opts){ 0 });
	tap_ok(svg_shape(svg) && strstr(svg, "no exec_lat value"),
	       "latency: a scenario without a series still draws");
	free(svg);
	ow_report_free(&r);
}

static void unlink_in(const char *dir, const char *name)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

/* Tables unchanged by a series; a latency plot only where one is. */
static void test_latency_bench(void)
{
	static const char *const written[] = {
		"freeze.svg", "freeze-latency.svg", "plain.svg", "one.svg",
		"one-latency.svg",
	};
	const char *dir = svg_dir();
	char freeze[600], plain[600];
	struct ow_report r;
	char err[256], *got;

	ow_report_init(&r);
	read_text(&r, lat_text, err, sizeof(err));
	read_text(&r, "scenario=one mode=m run=1 exec_lat=5\n", err,
		  sizeof(err));
	got = bench_of(&r, &(struct ow_report_opts){ 0 }, dir);
	tap_ok(got &&
	       strstr(got, "#### freeze\n\n| mode | runs | hog (MB) |") &&
	       strstr(got, "#### one\n\n| mode | runs |\n") &&
	       !strstr(got, "exec_lat"),
	       "latency: exec_lat is no column, not even exec_lat=5");
	snprintf(freeze, sizeof(freeze), "%s/freeze-latency.svg", dir);
	snprintf(plain, sizeof(plain), "%s/plain-latency.svg", dir);
	tap_ok(!access(freeze, R_OK) && access(plain, F_OK),
	       "latency: DIR/freeze-latency.svg written, none for a "
	       "scenario without exec_lat");
	free(got);
	ow_report_free(&r);
	for (size_t i = 0; i < ARRAY_SIZE(written); i++)
		unlink_in(dir, written[i]);
	rmdir(dir);
}

/* ---------------------------------------------------------------- cli */

struct cli_case {
	const char *const *argv;
	const char *stdin_path;
	int status;
	const char *out;	/* expected in stdout, or NULL */
	const char *err;	/* expected in stderr, or NULL */
	const char *what;
};

static void run_case(const struct cli_case *c)
{
	struct proc_result r;
	bool ok;

	ok = !proc_run(c->argv, c->stdin_path, &r) && r.status == c->status &&
	     (!c->out || strstr(r.out, c->out)) &&
	     (!c->err || strstr(r.err, c->err));
	if (!tap_ok(ok, "cli: %s (exit %d)", c->what, c->status))
		tap_diag("exit %d, stdout: %.300s / stderr: %.300s", r.status,
			 r.out ? r.out : "", r.err ? r.err : "");
	proc_free(&r);
}

/* -------------------------------------------------------------- field */

static const char field_text[] =
"# result: scenario=freeze-http mode=stock run=1 group=freeze lost=0 "
"died= freeze_ms=61000 mem_mb=1024 nodes=1 kernel=stock\n"
"# result: scenario=freeze-http mode=stock run=2 group=freeze lost=0 "
"died= freeze_ms=400000 mem_mb=1024 nodes=1 kernel=stock\n"
"# result: scenario=sort mode=stock run=1 group=survivable lost=0 died= "
"exit=124 mem_mb=1024 nodes=1 kernel=stock\n"
"# result: scenario=freeze-http mode=thrash-2000 run=1 group=freeze "
"lost=0 died=hog freeze_ms=5000 mem_mb=1024 nodes=1 kernel=patched\n"
"# result: scenario=sort mode=thrash-2000 run=1 group=survivable lost=1 "
"died=sort mem_mb=1024 nodes=1 kernel=patched\n"
"# result: scenario=sort mode=thrash-2000 run=2 group=survivable lost=0 "
"died= mem_mb=1024 nodes=1 kernel=patched\n"
"# result: scenario=freeze-http mode=arbiter run=1 group=freeze lost=1 "
"died=hog,probe freeze_ms=60000 mem_mb=1024 nodes=1 kernel=patched\n"
"# result: scenario=freeze-http mode=stock run=1 group=freeze lost=0 "
"died= freeze_ms=2000 mem_mb=4096 nodes=2 kernel=stock\n";

static const char field_expected[] =
"### F\n"
"\n"
"Commit c1, 2026-12-06.\n"
"\n"
"Per setting: the median time a freeze lasted (freeze_ms, capped), "
"against the survivable runs that lost a process.\n"
"\n"
"#### 1024 MB, 1 node, 1 CPU\n"
"\n"
"| setting | kernel | freeze runs | freeze, median s (min–max) | hog "
"killed | freeze runs that lost another process | survivable runs | "
"survivable runs that lost a process |\n"
"|---|---|--:|--:|--:|--:|--:|--:|\n"
"| stock | stock | 2 | 180.5 (61.0–300.0) | 0 | 0 | 1 | 0 |\n"
"| arbiter | patched | 1 | 60.0 | 1 | 1 | 0 | 0 |\n"
"| thrash-2000 | patched | 1 | 5.0 | 1 | 0 | 2 | 1 |\n"
"\n"
"#### 4096 MB, 2 nodes, 1 CPU\n"
"\n"
"| setting | kernel | freeze runs | freeze, median s (min–max) | hog "
"killed | freeze runs that lost another process | survivable runs | "
"survivable runs that lost a process |\n"
"|---|---|--:|--:|--:|--:|--:|--:|\n"
"| stock | stock | 1 | 2.0 | 0 | 0 | 0 | 0 |\n"
"\n"
"#### 1024 MB, 1 node, 1 CPU, per workload: freeze median s (runs); survivable "
"runs that lost a process / runs\n"
"\n"
"| workload | stock | arbiter | thrash-2000 |\n"
"|---|--:|--:|--:|\n"
"| freeze-http | 180.5 (2) | 60.0 (1) | 5.0 (1) |\n"
"| sort | 0/1 | – | 1/2 |\n"
"\n"
"#### 4096 MB, 2 nodes, 1 CPU, per workload: freeze median s (runs); survivable "
"runs that lost a process / runs\n"
"\n"
"| workload | stock |\n"
"|---|--:|\n"
"| freeze-http | 2.0 (1) |\n"
"| sort | – |\n";

/* ow_report_field() of r into a malloc'd string; its return in *ret. */
static char *field_md(const struct ow_report *r,
		      const struct ow_report_opts *o, const char *dir, int *ret)
{
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = f ? ow_report_field(f, r, o, dir, err, sizeof(err)) : -1;
	if (f)
		fclose(f);
	return buf;
}

/*
 * The field report of TEXT, which must hold N records ("WHAT: the
 * records load"): the markdown, or NULL; its SVG into *SVG if SVG is
 * not NULL (NULL if none), then removed.
 */
static char *field_run(const char *text, size_t n,
		       const struct ow_report_opts *o, const char *what,
		       char **svg)
{
	struct ow_report r;
	char err[256], path[600], *buf;
	const char *dir = svg_dir();
	size_t len = 0;
	int ret;

	ow_report_init(&r);
	tap_ok(read_text(&r, text, err, sizeof(err)) == 0 && r.n == n,
	       "%s: the records load", what);
	buf = field_md(&r, o, dir, &ret);
	if (ret) {
		free(buf);
		buf = NULL;
	}
	snprintf(path, sizeof(path), "%s/field.svg", dir);
	if (svg)
		*svg = buf ? proc_slurp(path, &len) : NULL;
	unlink(path);
	rmdir(dir);
	ow_report_free(&r);
	return buf;
}

/* field_run() for the markdown alone. */
static char *field_of(const char *text, size_t n,
		      const struct ow_report_opts *o, const char *what)
{
	return field_run(text, n, o, what, NULL);
}

static void test_field(void)
{
	const struct ow_report_opts o = {
		.title = "F", .commit = "c1", .date = "2026-12-06",
		.order = "stock,arbiter,thrash-2000",
	};
	char *svg = NULL, *buf = field_run(field_text, 8, &o, "field", &svg);

	tap_ok(buf && same_text(buf, field_expected),
	       "field: a table per machine in --order, the freeze capped at "
	       "300 s, hog kills and losses counted; a table per workload");
	free(buf);
	/*
	 * Points where a setting has both groups: stock and thrash-2000 on
	 * 1024 MB (arbiter and the 4096 MB stock have no survivable runs);
	 * a panel per machine, the one without a point too.
	 */
	tap_ok(svg_shape(svg) && count(svg, "class=\"pt\"") == 2 &&
	       count(svg, "<text class=\"machine\"") == 2 &&
	       strstr(svg, ">4096 MB, 2 nodes, 1 CPU</text>") &&
	       strstr(svg, ">thrash-2000</text>") &&
	       !strstr(svg, ">arbiter</text>") &&
	       strstr(svg, "1 of 2 survivable runs lost a process") &&
	       strstr(svg, ">survivable runs that lost a process</text>") &&
	       strstr(svg, "Commit c1, 2026-12-06"),
	       "field: field.svg, a point per setting with both groups, a "
	       "panel per machine");
	free(svg);
}

/*
 * The thrash rule's table: runs with th_* keys only (stock has none);
 * the bound is thrash-MS's MS + 1 s after the spell the grant came in;
 * a kill by another permit (kill_by=grant) is counted apart.
 */
static const char field_thrash_text[] =
"# result: scenario=freeze-text mode=stock run=1 group=freeze lost=0 "
"died= freeze_ms=60000 freeze_end_ms=61000 mem_mb=1024 nodes=1\n"
"# result: scenario=freeze-text mode=thrash-10000 run=1 group=freeze "
"lost=0 died=hog freeze_ms=11000 freeze_end_ms=12900 th_spells=1 "
"th_set_ms=2000 th_longest_ms=11000 th_grant_ms=12000 "
"th_grant_set_ms=2000 kill_ms=12100 kill_by=thrash mem_mb=1024 nodes=1\n"
"# result: scenario=freeze-text mode=thrash-10000 run=2 group=freeze "
"lost=0 died=hog freeze_ms=16000 freeze_end_ms=17100 th_spells=2 "
"th_set_ms=1000 th_longest_ms=12000 th_grant_ms=15000 "
"th_grant_set_ms=5000 kill_ms=15100 kill_by=thrash mem_mb=1024 "
"nodes=1\n"
"# result: scenario=freeze-text mode=thrash-10000 run=3 group=freeze "
"lost=0 died= freeze_ms=3000 freeze_end_ms=4000 th_spells=0 th_set_ms=-1 "
"th_longest_ms=-1 th_grant_ms=-1 th_grant_set_ms=-1 kill_ms=2500 "
"kill_by=grant mem_mb=1024 nodes=1\n"
"# result: scenario=freeze-text mode=thrash-10000 run=4 group=freeze "
"lost=0 died= freeze_ms=0 freeze_end_ms=0 th_spells=1 th_set_ms=3000 "
"th_longest_ms=4000 th_grant_ms=-1 th_grant_set_ms=-1 kill_ms=-1 "
"mem_mb=1024 nodes=1\n"
"# result: scenario=freeze-text mode=arbiter run=1 group=freeze lost=0 "
"died= freeze_ms=9000 freeze_end_ms=9000 th_spells=0 th_grant_ms=-1 "
"mem_mb=1024 nodes=1\n"
"# result: scenario=stress-vm mode=thrash-10000 run=1 group=survivable "
"lost=0 died= kills=1 peer_kills=0 mem_mb=1024 nodes=1\n"
"# result: scenario=stress-hold mode=thrash-10000 run=1 group=survivable "
"lost=0 died= kills=0 peer_kills=0 th_spells=1 th_set_ms=500 "
"th_longest_ms=1200 th_total_ms=1200 th_grant_ms=-1 th_grant_set_ms=-1 "
"kill_ms=-1 kill_by=- mem_mb=1024 nodes=1\n"
"# result: scenario=fio-mmap mode=thrash-10000 run=1 group=survivable "
"lost=0 died= kills=0 peer_kills=0 th_spells=0 th_set_ms=-1 "
"th_longest_ms=-1 th_total_ms=-1 th_grant_ms=-1 th_grant_set_ms=-1 "
"kill_ms=-1 kill_by=- mem_mb=1024 nodes=1\n"
"# result: scenario=freeze-text mode=thrash-10000 run=1 group=freeze "
"lost=0 died=hog freeze_ms=12000 freeze_end_ms=12000 th_spells=1 "
"th_set_ms=1500 th_longest_ms=10600 th_grant_ms=11500 "
"th_grant_set_ms=1500 kill_ms=11600 kill_by=thrash mem_mb=1024 nodes=1 "
"swap_mb=256\n";

static void test_field_thrash(void)
{
	const struct ow_report_opts o = {
		.title = "F", .commit = "c1", .date = "2026-12-06",
		.order = "stock,arbiter,thrash-10000",
	};
	char *buf = field_of(field_thrash_text, 10, &o, "field thrash");

	tap_ok(buf &&
	       strstr(buf, "\n#### The thrash rule in the freeze runs") &&
	       strstr(buf, "| 1024 MB, 1 node, 1 CPU | arbiter | 1 | 0 | – | 0 | 0 "
		      "| 0 | – | – |\n") &&
	       strstr(buf, "| 1024 MB, 1 node, 1 CPU | thrash-10000 | 4 | 3 | 11.0 "
		      "(4.0–12.0) | 2 | 2 | 1 | 11.5 (10.9–12.1) | 1/2 |\n") &&
	       !strstr(buf, "| 1024 MB, 1 node, 1 CPU | stock |") &&
	       strstr(buf, "| thrash-10000 | ? | 4 | 7.0 (0.0–16.0) | 2 | 0 "
		      "| 3 | 1 |\n") &&
	       strstr(buf, "\n#### The thrash rule in the survivable runs") &&
	       strstr(buf, "| 1024 MB, 1 node, 1 CPU | thrash-10000 | 2 | 1 | 1.2 | "
		      "0 | 0 | 0 |\n") &&
	       strstr(buf, "| stress-vm | – | – | 1/1 |\n") &&
	       strstr(buf, "| 1024 MB, 1 node, swap 256 MB, 1 CPU | thrash-10000 | 1 "
		      "| 1 | 10.6 | 1 | 1 | 0 | 10.5 | 1/1 |\n") &&
	       strstr(buf, "\n#### 1024 MB, 1 node, swap 256 MB, 1 CPU\n"),
	       "field thrash: a row per setting with th_* keys; the freeze's "
	       "end after its grant's spell, held to the timeout + 1 s; a "
	       "survivable run with a kill (kills=1, lost=0) is lost; a "
	       "machine with swap is a machine of its own; the survivable "
	       "runs' spells in a table of their own");
	if (buf && !strstr(buf, "1/2 |"))
		tap_diag("%s", buf);
	free(buf);
}

/* The field SVG of TEXT (N records), or NULL; the markdown is dropped. */
static char *field_svg_of(const char *text, size_t n, const char *order)
{
	const struct ow_report_opts o = {
		.title = "F", .commit = "c1", .date = "2026-12-06",
		.order = order,
	};
	char *svg = NULL;

	free(field_run(text, n, &o, "field labels", &svg));
	return svg;
}

/*
 * Six settings that froze 0 s and lost nothing: six points at one spot,
 * the x axis.  Their labels must stay inside the plot (none under the
 * axis, where they used to stack off the picture) and not overlap.
 */
static void test_field_labels(void)
{
	static const char *const modes[] = { "a", "b", "c", "d", "e", "f" };
	char text[4096], *svg;
	const char *p;
	double ys[16], axis = -1;
	size_t off = 0, n = 0;
	bool apart = true, inside = true;

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		off += snprintf(text + off, sizeof(text) - off,
			"# result: scenario=freeze-text mode=%s run=1 "
			"group=freeze lost=0 died=hog freeze_ms=0 mem_mb=1024 "
			"nodes=1\n# result: scenario=sort mode=%s run=1 "
			"group=survivable lost=0 died= mem_mb=1024 nodes=1\n",
			modes[i], modes[i]);
	svg = field_svg_of(text, 2 * ARRAY_SIZE(modes), "a,b,c,d,e,f");
	p = svg ? strstr(svg, "<line class=\"axis\"") : NULL;
	if (p)
		sscanf(p, "<line class=\"axis\" x1=\"%*f\" y1=\"%lf\"", &axis);
	for (p = svg; p && (p = strstr(p, "<text class=\"lbl\"")) &&
	     n < ARRAY_SIZE(ys); p++)
		if (sscanf(p, "<text class=\"lbl\" x=\"%*f\" y=\"%lf\"",
			   &ys[n]) == 1)
			n++;
	for (size_t i = 0; i < n; i++) {
		inside = inside && ys[i] <= axis - 4 && ys[i] > 0;
		for (size_t j = 0; j < i; j++)
			apart = apart && (ys[i] - ys[j] >= 12 ||
					  ys[j] - ys[i] >= 12);
	}
	tap_ok(svg_shape(svg) && n == ARRAY_SIZE(modes) && axis > 0 &&
	       inside && apart && count(svg, "class=\"lead\"") == n - 1,
	       "field labels: six points at one spot, their labels 12 px "
	       "apart above the x axis (%zu labels, axis at %.0f), five "
	       "tied to the point by a line", n, axis);
	free(svg);
}

/* The y of every "<TAG ...y=" (or y1=) in SVG, in order, into YS. */
static size_t svg_ys(const char *svg, const char *tag, const char *attr,
		     double *ys, size_t max, double *xs)
{
	char key[32];
	const char *p, *q;
	size_t n = 0;

	snprintf(key, sizeof(key), " %s=\"", attr);
	for (p = svg; p && (p = strstr(p, tag)) && n < max; p++) {
		q = strstr(p, key);
		if (!q)
			break;
		ys[n] = strtod(q + strlen(key), NULL);
		q = strstr(p, " x=\"");
		if (!q)
			q = strstr(p, " x1=\"");
		xs[n] = q ? strtod(strchr(q, '"') + 1, NULL) : -1;
		n++;
	}
	return n;
}

/*
 * Three machines, fourteen settings each, all at one spot: a panel per
 * machine, each tall enough for its column of 14 labels; every label
 * inside its own panel (between its machine's name and 4 px over its
 * x axis, clear of the axis line) and 12 px from the others there; a
 * 600-byte title wrapped into lines of at most 150 bytes above the
 * panels.
 */
static void test_field_panels(void)
{
	enum { MACHINES = 3, SETTINGS = 14, N = MACHINES * SETTINGS };
	static const int mem[MACHINES] = { 1024, 4096, 2048 };
	char text[N * 260], title[601], *svg;
	double ly[N + 1], lx[N + 1], top[8], tx[8], ax[16], axx[16];
	size_t off = 0, nl, nt, na, bad = 0, crowded = 0, lines = 0, longest = 0;
	const char *p;
	struct ow_report_opts o = {
		.commit = "c1", .date = "2026-12-07", .title = title,
	};

	for (int m = 0; m < MACHINES; m++)
		for (int i = 0; i < SETTINGS; i++)
			off += snprintf(text + off, sizeof(text) - off,
				"# result: scenario=freeze-text mode=setting-%02d "
				"run=1 group=freeze lost=0 died=hog freeze_ms=0 "
				"mem_mb=%d nodes=1\n# result: scenario=sort "
				"mode=setting-%02d run=1 group=survivable lost=0 "
				"died= mem_mb=%d nodes=1\n", i, mem[m], i, mem[m]);
	for (size_t i = 0; i < 600; i++)
		title[i] = i % 10 == 9 ? ' ' : 'a' + i % 10;
	title[600] = '\0';
	o.title = title;
	svg = NULL;
	free(field_run(text, 2 * N, &o, "field panels", &svg));
	nl = svg ? svg_ys(svg, "<text class=\"lbl\"", "y", ly, N + 1, lx) : 0;
	nt = svg ? svg_ys(svg, "<text class=\"machine\"", "y", top, 8, tx) : 0;
	na = svg ? svg_ys(svg, "<line class=\"axis\"", "y1", ax, 16, axx) : 0;
	/*
	 * Panel K: from its name's x, 396 px wide; from its name's y + 8
	 * down to its x axis, its first axis line.
	 */
	for (size_t i = 0; i < nl && nt == MACHINES && na == 2 * MACHINES; i++) {
		size_t k = 0;

		while (k < nt && !(lx[i] >= tx[k] && lx[i] <= tx[k] + 396 &&
				   ly[i] >= top[k] + 8 &&
				   ly[i] <= ax[2 * k] - 4))
			k++;
		bad += k == nt;
		for (size_t j = 0; j < i; j++)
			crowded += lx[j] == lx[i] && ly[j] - ly[i] < 12 &&
				   ly[i] - ly[j] < 12;
	}
	for (p = svg; p && (p = strstr(p, "<text class=\"sub\" x=\"8\"")); p++) {
		const char *b = strchr(p, '>'), *e = b ? strchr(b, '<') : NULL;

		if (e && (size_t)(e - b - 1) > longest)
			longest = (size_t)(e - b - 1);
		lines++;
	}
	tap_ok(svg_shape(svg) && nl == N && nt == MACHINES &&
	       na == 2 * MACHINES && !bad && !crowded && lines == 5 &&
	       longest <= 150,
	       "field panels: %d machines of %d settings at one spot: %zu "
	       "panels, %zu labels, %zu outside their panel, %zu closer "
	       "than 12 px; the title in %zu lines (with the commit's), the "
	       "longest %zu bytes", MACHINES, SETTINGS, nt, nl, bad,
	       crowded, lines, longest);
	free(svg);
}

/* One label or point of an SVG scatter: where its box runs. */
struct box {
	double x0, x1, y0, y1;
};

/*
 * The boxes of the labels (10 px text: 9 px over the baseline, 3 under,
 * at most 6 px a character; N_LBL of them) and of the points (r 5;
 * N_PT) of SVG.
 */
static void svg_boxes(const char *svg, struct box *lbl, size_t *n_lbl,
		      struct box *pts, size_t *n_pt, size_t max)
{
	const char *p;
	double x, y;

	*n_lbl = *n_pt = 0;
	for (p = svg; p && (p = strstr(p, "<text class=\"lbl\"")) &&
	     *n_lbl < max; p++) {
		const char *gt = strchr(p, '>');
		const char *lt = gt ? strchr(gt, '<') : NULL;
		const char *end = strstr(p, "text-anchor=\"end\"");
		double w;

		if (!lt || sscanf(p, "<text class=\"lbl\" x=\"%lf\" y=\"%lf\"",
				  &x, &y) != 2)
			continue;
		w = 6.0 * (double)(lt - gt - 1);
		lbl[*n_lbl].x0 = end && end < gt ? x - w : x;
		lbl[*n_lbl].x1 = lbl[*n_lbl].x0 + w;
		lbl[*n_lbl].y0 = y - 9;
		lbl[*n_lbl].y1 = y + 3;
		(*n_lbl)++;
	}
	for (p = svg; p && (p = strstr(p, "<circle class=\"pt\"")) &&
	     *n_pt < max; p++)
		if (sscanf(p, "<circle class=\"pt\" cx=\"%lf\" cy=\"%lf\"",
			   &x, &y) == 2)
			pts[(*n_pt)++] = (struct box){ x - 5, x + 5,
						       y - 5, y + 5 };
}

static bool boxes_meet(const struct box *a, const struct box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 &&
	       b->y0 < a->y1;
}

/*
 * Campaign 21's panel: stock and the rule at 17 and 11 s, close enough
 * that the rule's label is led out to the right; mglru-100 at 1 lost and
 * earlyoom at 5, both at 0 s (and a 150 s freeze on another machine
 * for the y axis of the bench's plot).  The led-out label once ran over
 * mglru-100's point and level with its label: no label may meet another
 * label or a point other than its own.
 */
static void test_field_crossing(void)
{
	static const char *const line =
		"# result: scenario=%s mode=%s run=%d group=%s lost=%d "
		"died=%s freeze_ms=%d mem_mb=1024 nodes=1\n";
	static const struct {
		const char *mode;
		int freeze_ms, lost;
	} cell[] = {
		{ "stock", 17200, 0 }, { "thrash-10000", 10700, 0 },
		{ "mglru-100", 0, 1 }, { "earlyoom", 0, 5 },
	};
	char text[8192], *svg;
	struct box lbl[8], pts[8];
	size_t off = 0, nl = 0, np = 0, met = 0;

	for (size_t c = 0; c < ARRAY_SIZE(cell); c++)
		for (int run = 1; run <= 5; run++) {
			off += snprintf(text + off, sizeof(text) - off, line,
					"freeze-text", cell[c].mode, run,
					"freeze", 0, "hog", cell[c].freeze_ms);
			off += snprintf(text + off, sizeof(text) - off, line,
					"sort", cell[c].mode, run,
					"survivable", run <= cell[c].lost,
					"", 0);
		}
	/* Another machine's long freeze: the y axis runs to 150 s. */
	off += snprintf(text + off, sizeof(text) - off,
			"# result: scenario=freeze-text mode=stock run=1 "
			"group=freeze lost=0 died=hog freeze_ms=150000 "
			"mem_mb=4096 nodes=1\n# result: scenario=sort "
			"mode=stock run=1 group=survivable lost=0 died= "
			"mem_mb=4096 nodes=1\n");
	svg = field_svg_of(text, 10 * ARRAY_SIZE(cell) + 2,
			   "stock,mglru-100,earlyoom,thrash-10000");
	if (svg)
		svg_boxes(svg, lbl, &nl, pts, &np, ARRAY_SIZE(lbl));
	for (size_t i = 0; i < nl; i++) {
		for (size_t j = 0; j < i; j++)
			met += boxes_meet(&lbl[i], &lbl[j]);
		for (size_t j = 0; j < np; j++)
			met += j != i && boxes_meet(&lbl[i], &pts[j]);
	}
	tap_ok(svg_shape(svg) && nl == ARRAY_SIZE(cell) + 1 &&
	       np == ARRAY_SIZE(cell) + 1 && !met,
	       "field labels: a led-out label clears the next column's point "
	       "and label (%zu labels, %zu points, %zu meetings)", nl, np,
	       met);
	free(svg);
}

/*
 * A labelled setting, "thrash-MS-LABEL" (field.sh's runs of an earlier
 * rule), is held to its MS + 1 s; "thrash-MSx" and "thrash-MS-" name no
 * timeout.
 */
static void test_field_thrash_label(void)
{
	static const char text[] =
	"# result: scenario=freeze-text mode=thrash-5000-nodip run=1 "
	"group=freeze lost=0 died=hog freeze_ms=5000 freeze_end_ms=6500 "
	"th_spells=1 th_set_ms=1000 th_longest_ms=5200 th_grant_ms=6000 "
	"th_grant_set_ms=1000 kill_ms=6100 kill_by=thrash mem_mb=1024 "
	"nodes=1\n"
	"# result: scenario=freeze-text mode=thrash-5000x run=1 "
	"group=freeze lost=0 died=hog freeze_ms=5000 freeze_end_ms=6500 "
	"th_spells=1 th_set_ms=1000 th_longest_ms=5200 th_grant_ms=6000 "
	"th_grant_set_ms=1000 kill_ms=6100 kill_by=thrash mem_mb=1024 "
	"nodes=1\n"
	"# result: scenario=freeze-text mode=thrash-5000- run=1 "
	"group=freeze lost=0 died=hog freeze_ms=5000 freeze_end_ms=6500 "
	"th_spells=1 th_set_ms=1000 th_longest_ms=5200 th_grant_ms=6000 "
	"th_grant_set_ms=1000 kill_ms=6100 kill_by=thrash mem_mb=1024 "
	"nodes=1\n";
	const struct ow_report_opts o = {
		.title = "F", .commit = "c1", .date = "2026-12-06",
		.order = "thrash-5000-nodip,thrash-5000x,thrash-5000-",
	};
	char *buf = field_of(text, 3, &o, "field thrash label");

	tap_ok(buf &&
	       strstr(buf, "| 1024 MB, 1 node, 1 CPU | thrash-5000-nodip | 1 | 1 | "
		      "5.2 | 1 | 1 | 0 | 5.5 | 1/1 |\n") &&
	       strstr(buf, "| 1024 MB, 1 node, 1 CPU | thrash-5000x | 1 | 1 | 5.2 | "
		      "1 | 1 | 0 | – | – |\n") &&
	       strstr(buf, "| 1024 MB, 1 node, 1 CPU | thrash-5000- | 1 | 1 | 5.2 | "
		      "1 | 1 | 0 | – | – |\n"),
	       "field thrash label: thrash-MS-LABEL is held to MS + 1 s, "
	       "thrash-MSx and thrash-MS- name no timeout");
	if (buf && !strstr(buf, "1/1 |"))
		tap_diag("%s", buf);
	free(buf);
}

/* Runs on two CPUs are a machine of their own; no cpus= is one CPU. */
static void test_field_cpus(void)
{
	static const char text[] =
	"# result: scenario=freeze-text mode=thrash-10000 run=1 "
	"group=freeze lost=0 died=hog freeze_ms=12000 freeze_end_ms=12000 "
	"mem_mb=1024 nodes=1\n"
	"# result: scenario=freeze-text mode=thrash-10000 run=1 "
	"group=freeze lost=0 died=hog freeze_ms=8000 freeze_end_ms=8000 "
	"mem_mb=1024 nodes=1 cpus=2\n"
	"# result: scenario=freeze-text mode=thrash-10000 run=2 "
	"group=freeze lost=0 died=hog freeze_ms=9000 freeze_end_ms=9000 "
	"mem_mb=1024 nodes=1 cpus=2\n";
	const struct ow_report_opts o = {
		.title = "F", .commit = "c1", .date = "2026-12-07",
	};
	char *buf = field_of(text, 3, &o, "field cpus");

	tap_ok(buf && strstr(buf, "\n#### 1024 MB, 1 node, 1 CPU\n") &&
	       strstr(buf, "\n#### 1024 MB, 1 node, 2 CPUs\n") &&
	       strstr(buf, "| thrash-10000 | ? | 1 | 12.0 | 1 | 0 | 0 | 0 |\n") &&
	       strstr(buf, "| thrash-10000 | ? | 2 | 8.5 (8.0–9.0) | 2 | 0 | 0 "
		      "| 0 |\n"),
	       "field cpus: a guest's CPUs (cpus=, one when absent) make a "
	       "machine of their own");
	if (buf && !strstr(buf, "| 2 | 8.5 (8.0–9.0) |"))
		tap_diag("%s", buf);
	free(buf);
}

static void test_cli_exits(void)
{
	const char *bad = scratch("bad.txt", "x\nscenario=a mode=b run=1\n"
				  "scenario=a mode=b run=2 oops\n");
	const char *none = scratch("none.txt", "# result: mode=a run=1\n"
				   "hello\n");
	const char *file = scratch("file.txt", "x");
	const char *bad_lat = scratch("bad_lat.txt", "scenario=f mode=m run=1 "
				      "exec_lat=1,2\nscenario=f mode=m run=2 "
				      "exec_lat=1,-,1e9\n");
	const struct cli_case cases[] = {
		{ ARGV("--help"), NULL, 0, "USAGE: ow-report matrix", NULL,
		  "--help" },
		{ ARGV("matrix", "--bogus", MATRIX_FIXTURE), NULL, 2, NULL,
		  "unrecognized option '--bogus'\nUSAGE:", "unknown option" },
		{ ARGV("matrix", MATRIX_FIXTURE, "--title"), NULL, 2, NULL,
		  "requires an argument", "--title without its value" },
		{ ARGV(MATRIX_FIXTURE), NULL, 2, NULL,
		  "unknown command", "no command" },
		{ ARGV("matrix"), NULL, 2, NULL, "no input FILE",
		  "no input file" },
		{ ARGV("bench", MATRIX_FIXTURE), NULL, 2, NULL,
		  "bench needs --out-dir DIR", "bench without --out-dir" },
		{ ARGV("field", MATRIX_FIXTURE), NULL, 2, NULL,
		  "field needs --out-dir DIR", "field without --out-dir" },
		{ ARGV("matrix", "--baseline", "x", MATRIX_FIXTURE), NULL, 2,
		  NULL, "are for bench", "bench's option for matrix" },
		{ ARGV("matrix", none), NULL, 1, NULL, "ow-report: no records "
		  "in 1 file (2 lines)", "no records" },
		{ ARGV("matrix", MATRIX_FIXTURE, bad), NULL, 1, NULL,
		  "bad.txt:3: \"oops\" is not key=value", "malformed line" },
		{ ARGV("bench", "--out-dir", svg_dir(), bad_lat), NULL, 1,
		  NULL, "bad_lat.txt:2: exec_lat= item 3 \"1e9\": not within "
		  "0..3600000 ms", "malformed exec_lat" },
		{ ARGV("matrix", "/nonexistent/r.txt"), NULL, 1, NULL,
		  "ow-report: /nonexistent/r.txt: No such file or directory",
		  "missing file" },
		{ ARGV("bench", "--out-dir", file, BENCH_FIXTURE), NULL, 1,
		  NULL, "file.txt: Not a directory", "--out-dir a file" },
		{ ARGV("matrix", "-", "--order=stock,arbiter", "--title",
		       "Matrix", "--commit", "abc123", "--date", "2024-05-01"),
		  MATRIX_FIXTURE, 0, matrix_expected, NULL,
		  "matrix from stdin" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
}

static void test_cli_bench(void)
{
	const char *dir = svg_dir(), *head = "### Bench\n\n";
	char out_dir[600], path[640];
	struct proc_result r;
	size_t len = 0;
	char *svg;

	snprintf(out_dir, sizeof(out_dir), "%s/plots", dir);
	proc_run(ARGV("bench", "--out-dir", out_dir, "--title", "Bench",
		      BENCH_FIXTURE), NULL, &r);
	tap_ok(r.status == 0 && starts_with(r.out, head) &&
	       same_text(r.out + strlen(head), bench_expected),
	       "cli: bench, the tables on stdout");
	snprintf(path, sizeof(path), "%s/token.svg", out_dir);
	svg = proc_slurp(path, &len);
	tap_ok(svg_shape(svg) && strstr(svg, ">token \u2014 Bench</text>"),
	       "cli: bench, out-dir and parent created, token.svg drawn");
	free(svg);
	proc_free(&r);
	remove_svgs(dir, "plots/");
}

int main(void)
{
	test_line();
	test_ignored();
	test_numbers();
	test_errors();
	test_read();
	test_range();
	test_matrix();
	test_invariants();
	test_bench();
	test_units();
	test_svg();
	test_lat_parse();
	test_lat_errors();
	test_lat_record();
	test_latency_svg();
	test_latency_clamp();
	test_latency_bench();
	test_field();
	test_field_thrash();
	test_field_cpus();
	test_field_thrash_label();
	test_field_labels();
	test_field_panels();
	test_field_crossing();
	test_cli_exits();
	test_cli_bench();
	return tap_done();
}
